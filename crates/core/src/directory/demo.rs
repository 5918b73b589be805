//! A deterministic generator of a realistic demo directory across Great
//! Britain (`intake demo-data`, and the directory `intake serve` loads into an
//! empty store).
//!
//! Trades are based where people live (districts and sectors drawn in
//! proportion to their postcodes), travel 5 to 40 miles, and are each one
//! kind of business drawn by demand ("Plumbing & Heating", "Electrician",
//! "Plasterer"...): the kind decides the categories a trade registers for and
//! the words of its name, so the two agree. Reviews and photos are made from
//! word lists. The same [`DemoOptions`] always give byte-identical records:
//! the only source of randomness is a ChaCha8 generator seeded from
//! [`DemoOptions::seed`], whose stream is the same on every platform and
//! version of `rand_chacha`.
//!
//! From [`MIN_TRADES_FOR_FULL_COVERAGE`] trades up, every district with
//! coordinates is covered for each of the [`COMMON_CATEGORIES`]: after the
//! random trades are made, the nearest trade of the category widens its
//! radius (or lists the district) wherever a district would be left without one.

mod coverage;
mod demand;
mod images;
mod kinds;
mod names;
mod places;
mod review_words;
mod reviews;
#[cfg(test)]
mod tests;
mod trade;

use crate::categories::CategoryTree;
use crate::directory::record::TradeRecord;
use crate::geography::{Geography, Point};
use crate::postcode::Postcode;
use places::Places;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use time::macros::datetime;
use time::{OffsetDateTime, UtcOffset};

/// The first company id of a demo directory, when none is given.
pub const DEFAULT_FIRST_COMPANY_ID: u64 = 100_001;

/// The seed of a demo directory, when none is given.
pub const DEFAULT_SEED: u64 = 2021;

/// Widest radius a demo trade travels, in miles (also the limit of the
/// coverage adjustment).
pub const MAX_DEMO_RADIUS_MILES: f64 = 40.0;

/// The size from which [`generate`] guarantees that every district is covered
/// for each of the [`COMMON_CATEGORIES`], and the size of the directory a first
/// `intake serve` loads.
///
/// Trades follow population, so the districts a random directory leaves
/// uncovered are the sparse ones (the Highlands and islands, mid Wales, the
/// Borders) and their number falls slowly with size. At 10,000 trades (seed
/// 2021) 1,876 of the 34,380 district and category pairs are uncovered before
/// the adjustment (45 for Central Heating to 313 for Plasterer); closing them
/// changes 211 trades (2%): 188 widen their radius, by 13.4 miles on average,
/// and 93 list remote districts explicitly (some do both). At 5,000 trades the
/// same would change 6% of the directory, too much for it still to look
/// random; below this size no adjustment is made.
pub const MIN_TRADES_FOR_FULL_COVERAGE: usize = 10_000;

/// The parent categories with the most demand, covered in every district from
/// [`MIN_TRADES_FOR_FULL_COVERAGE`] trades: Plumber, Electrician, Central
/// Heating, Builder, Roofer, Painter / Decorator, Gardener, Cleaning Services,
/// Carpenter, Handyman, Plasterer and Locksmith.
pub const COMMON_CATEGORIES: &[u32] = &[20, 12, 10, 2, 1189, 15, 5, 1125, 13, 1350, 855, 17];

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoOptions {
    /// How many trades.
    pub trades: usize,
    /// The seed of the random generator: same seed, same directory.
    pub seed: u64,
    /// Reviews are dated in the four years before this.
    pub now: OffsetDateTime,
    /// The company id of the first trade; the others follow in sequence.
    pub first_company_id: u64,
}

impl DemoOptions {
    /// `trades` trades with seed [`DEFAULT_SEED`], reviews dated before
    /// 2026-11-01T00:00:00Z (fixed, so the output never depends on the clock)
    /// and company ids from [`DEFAULT_FIRST_COMPANY_ID`].
    pub fn new(trades: usize) -> Self {
        DemoOptions {
            trades,
            seed: DEFAULT_SEED,
            now: datetime!(2026-11-01 0:00 UTC),
            first_company_id: DEFAULT_FIRST_COMPANY_ID,
        }
    }
}

/// A demo directory of `options.trades` trades with sequential company ids.
/// The same options always give the same records, and every record passes
/// [`TradeRecord::validate`] against `tree` and `geography`.
pub fn generate(
    options: &DemoOptions,
    tree: &CategoryTree,
    geography: &Geography,
) -> Vec<TradeRecord> {
    if options.trades == 0 || tree.parents().next().is_none() || geography.district_count() == 0 {
        return Vec::new();
    }
    let places = Places::new(geography);
    let maker = trade::TradeMaker {
        tree,
        places: &places,
        demand: demand::Demand::new(tree),
        today: options.now.to_offset(UtcOffset::UTC).date(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let (mut records, bases): (Vec<TradeRecord>, Vec<Option<Point>>) = (0..options.trades as u64)
        .map(|n| {
            let (record, base) = maker.trade(&mut rng, options.first_company_id + n);
            (record, Some(base))
        })
        .unzip();
    if options.trades >= MIN_TRADES_FOR_FULL_COVERAGE {
        for &category in COMMON_CATEGORIES {
            coverage::complete(&mut records, &bases, category, tree, &places);
        }
    }
    records
}

/// The districts of `geography` (sorted by code) not covered by any active
/// trade of `records` that a job in `category` reaches: registered for it or,
/// for a parent, for one of its sub categories. A district is covered when its
/// centroid is within the trade's radius of its base, or when the trade lists
/// it, the rule the directory index applies.
pub fn uncovered_districts(
    records: &[TradeRecord],
    category: u32,
    tree: &CategoryTree,
    geography: &Geography,
) -> Vec<String> {
    let places = Places::new(geography);
    let bases: Vec<Option<Point>> = records
        .iter()
        .map(|record| {
            Postcode::parse(&record.base_postcode)
                .ok()
                .and_then(|postcode| geography.locate(&postcode))
                .map(|location| location.point)
        })
        .collect();
    let covered = coverage::covered(records, &bases, category, tree, &places);
    (places.districts().iter().zip(covered))
        .filter(|(_, covered)| !covered)
        .map(|(district, _)| district.code.clone())
        .collect()
}
