//! A deterministic generator of a realistic demo directory across the UK
//! (`intake demo-data`, and the directory `intake serve` loads into an empty
//! store).
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
//! From [`MIN_TRADES_FOR_FULL_COVERAGE`] trades up, every postcode of the UK
//! is served in each of the [`COMMON_CATEGORIES`] and
//! [`BUSY_SUB_CATEGORIES`]: the last trades are local ones of Northern
//! Ireland, the Channel Islands and the Isle of Man, which have no
//! coordinates and are reached only by listed districts, and in Great Britain
//! a trade whose kind does the category takes it on, widens its radius or
//! lists the district wherever a postcode would be left without one.

mod coverage;
mod demand;
mod images;
mod kinds;
mod local;
mod names;
mod places;
mod review_words;
mod reviews;
#[cfg(test)]
mod tests;
mod trade;

use demand::Demand;
use intake_core::categories::CategoryTree;
use intake_core::directory::record::TradeRecord;
use intake_core::geography::{Geography, Point};
use intake_core::postcode::Postcode;
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

/// The size from which [`generate`] guarantees that every postcode of the UK
/// is served in each of the [`COMMON_CATEGORIES`] and [`BUSY_SUB_CATEGORIES`],
/// and the size of the directory a first `intake serve` loads.
///
/// Northern Ireland, the Channel Islands and the Isle of Man get local trades
/// listing their districts: the last 108 trades, one of each common category
/// in each of 9 regions (6 of Northern Ireland, Jersey, Guernsey, Man; see
/// `data/uk-districts-without-coordinates.csv`). That is 1% of the directory
/// where their population would give 3%, enough for every district to be served.
///
/// In Great Britain trades follow population, so the places a random
/// directory leaves unserved are the sparse ones (the Highlands and islands,
/// mid Wales, the Borders) and their number falls slowly with size. At 10,000
/// trades (seed 2021) 3,322 of the 71,625 district and category pairs have a
/// district or sector centroid no trade covers before the adjustment (the
/// common parents first, then the busy sub categories once their parents are
/// done); closing them changes 292 trades (3%): 216 widen their radius, by 15
/// miles on average, 99 list remote districts explicitly and 119 register for
/// a category their kind does (some do two of these). At 5,000 trades the same would change 8%
/// of the directory, too much for it still to look random; below this size
/// no adjustment is made and there are no local trades.
pub const MIN_TRADES_FOR_FULL_COVERAGE: usize = 10_000;

/// The parent categories with the most demand, served everywhere from
/// [`MIN_TRADES_FOR_FULL_COVERAGE`] trades: Plumber, Electrician, Central
/// Heating, Builder, Roofer, Painter / Decorator, Gardener, Cleaning Services,
/// Carpenter, Handyman, Plasterer and Locksmith.
pub const COMMON_CATEGORIES: &[u32] = &[20, 12, 10, 2, 1189, 15, 5, 1125, 13, 1350, 855, 17];

/// The busiest sub categories of the [`COMMON_CATEGORIES`], covered like them
/// (a job in a sub category reaches only the trades registered for it), in
/// the same order: Plumbing Repairs (1334), Fault Finding (1436), Boiler
/// Repairs / Servicing (1335), Gas Boiler Installation (88), General Building
/// (135), Roofing Repairs (1198), Painting / Decorating (46), Garden
/// Maintenance (274), Domestic Cleaning (1136), General Carpentry (264), Odd
/// Jobs (2090), Plastering (863) and Doors Opened / Unlocked (141).
///
/// No demand figures come with the category tree: these are the everyday jobs
/// of each line of work, one each and two for central heating, chosen by hand.
pub const BUSY_SUB_CATEGORIES: &[u32] = &[
    1334, 1436, 1335, 88, 135, 1198, 46, 274, 1136, 264, 2090, 863, 141,
];

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
    let demand = Demand::new(tree);
    let mut draft = draft(options, tree, &places, &demand);
    if options.trades >= MIN_TRADES_FOR_FULL_COVERAGE {
        adjust(&mut draft, tree, &places, &demand);
    }
    draft.records
}

/// A directory before the coverage adjustment, with what the adjustment needs.
struct Draft {
    records: Vec<TradeRecord>,
    /// Where each trade's base is, if it has coordinates.
    bases: Vec<Option<Point>>,
    /// Each trade's kind of business, an index into [`Demand::kinds`].
    kinds: Vec<usize>,
}

/// The trades of `options`: all drawn at random across Great Britain, except
/// that from [`MIN_TRADES_FOR_FULL_COVERAGE`] the last ones are the local
/// trades of the places without coordinates ([`local::plan`]).
fn draft(options: &DemoOptions, tree: &CategoryTree, places: &Places, demand: &Demand) -> Draft {
    let maker = trade::TradeMaker {
        tree,
        places,
        demand,
        today: options.now.to_offset(UtcOffset::UTC).date(),
    };
    let local = if options.trades >= MIN_TRADES_FOR_FULL_COVERAGE {
        local::plan(demand)
    } else {
        Vec::new()
    };
    let random = options.trades.saturating_sub(local.len());
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut draft = Draft {
        records: Vec::with_capacity(options.trades),
        bases: Vec::with_capacity(options.trades),
        kinds: Vec::with_capacity(options.trades),
    };
    for n in 0..options.trades {
        let company_id = options.first_company_id + n as u64;
        let made = match n.checked_sub(random).and_then(|at| local.get(at)) {
            None => maker.trade(&mut rng, company_id),
            Some(&(region, kind)) => maker.local_trade(&mut rng, company_id, region, kind),
        };
        draft.records.push(made.record);
        draft.bases.push(made.base);
        draft.kinds.push(made.kind);
    }
    draft
}

/// Makes every postcode of Great Britain covered for each of the
/// [`COMMON_CATEGORIES`] and [`BUSY_SUB_CATEGORIES`] ([`coverage::complete`]).
/// Returns how many district and category pairs had an uncovered postcode before.
fn adjust(draft: &mut Draft, tree: &CategoryTree, places: &Places, demand: &Demand) -> usize {
    let mut uncovered = 0;
    for &category in COMMON_CATEGORIES.iter().chain(BUSY_SUB_CATEGORIES) {
        let owners: Vec<bool> = (draft.kinds.iter())
            .map(|&kind| demand.kinds()[kind].owns(tree, category))
            .collect();
        uncovered += coverage::complete(
            &mut draft.records,
            &draft.bases,
            &owners,
            category,
            tree,
            places,
        );
    }
    uncovered
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
