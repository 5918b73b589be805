//! One demo trade: where it is based, how far it travels, what it does, its
//! name, how leads reach it, its reviews and photos.

use super::demand::{Demand, Kind};
use super::local::Region;
use super::places::{letter, Places};
use super::{images, names, reviews, BUSY_SUB_CATEGORIES, MAX_DEMO_RADIUS_MILES};
use intake_core::categories::CategoryTree;
use intake_core::directory::record::{Coverage, Delivery, TradeRecord};
use intake_core::geography::Point;
use rand::Rng;
use time::Date;

/// A trade with fewer districts than this within 10 miles is rural and travels further.
const RURAL_NEIGHBOURS: usize = 6;

/// Share of the trades registering for a parent that also register for each
/// of its [`BUSY_SUB_CATEGORIES`]: most plumbers do plumbing repairs.
const BUSY_SHARE: f64 = 0.7;

/// Builds trades one after another from one random generator.
pub(super) struct TradeMaker<'a> {
    /// The categories trades register for.
    pub tree: &'a CategoryTree,
    /// Where trades can be based.
    pub places: &'a Places,
    /// The kinds of business and how common each is.
    pub demand: &'a Demand,
    /// Reviews are written before this day.
    pub today: Date,
}

/// A trade, with what the coverage adjustment needs to know of it.
pub(super) struct Made {
    /// The trade.
    pub record: TradeRecord,
    /// The point its base postcode locates to, if it has coordinates.
    pub base: Option<Point>,
    /// Its kind of business, an index into [`Demand::kinds`].
    pub kind: usize,
}

/// Where a trade is based, and the districts its reviewers live in.
struct Home<'p> {
    postcode: String,
    /// The base's district first.
    districts: Vec<&'p str>,
    coverage: Coverage,
}

impl TradeMaker<'_> {
    /// The trade `company_id`, based somewhere in Great Britain, of a kind drawn by demand.
    pub fn trade(&self, rng: &mut impl Rng, company_id: u64) -> Made {
        let base = self.places.pick_base(rng);
        let code = self.places.districts()[base.district].code.as_str();
        let near = self.places.within(&base.point, 10.0);
        let radius = radius(rng, near.len() < RURAL_NEIGHBOURS);
        let kind = self.demand.pick(rng);

        let mut districts: Vec<&str> = vec![code];
        let review_reach = radius.min(10.0);
        districts.extend(
            near.iter()
                .filter(|(index, miles)| *index != base.district && *miles <= review_reach)
                .take(7)
                .map(|(index, _)| self.places.districts()[*index].code.as_str()),
        );
        let home = Home {
            postcode: base.postcode,
            districts,
            coverage: Coverage {
                radius_miles: Some(radius),
                districts: Vec::new(),
            },
        };
        let categories = self.categories(rng, &self.demand.kinds()[kind]);
        let mut record = self.record(rng, company_id, kind, categories, home);
        if rng.gen_bool(0.05) {
            record.coverage.districts = self.extra_districts(rng, &base.point, radius);
        }
        Made {
            record,
            base: Some(base.point),
            kind,
        }
    }

    /// The trade `company_id` of the kind `kind`, based in `region` (a place
    /// without coordinates) and listing every district of it. It is active and
    /// registers for every busy sub category of its main parent, since it may
    /// be the only trade of its line there.
    pub fn local_trade(
        &self,
        rng: &mut impl Rng,
        company_id: u64,
        region: &Region,
        kind: usize,
    ) -> Made {
        let district = region.homes[rng.gen_range(0..region.homes.len())];
        let postcode = format!(
            "{district} {}{}{}",
            rng.gen_range(1..=9),
            letter(rng),
            letter(rng)
        );
        let mut districts = vec![district];
        districts.extend(region.homes.iter().filter(|d| **d != district).take(7));
        let home = Home {
            postcode,
            districts,
            coverage: Coverage {
                radius_miles: None,
                districts: region.districts.iter().map(|d| (*d).to_owned()).collect(),
            },
        };
        let main = self.demand.kinds()[kind].main;
        let mut categories = self.categories(rng, &self.demand.kinds()[kind]);
        for &sub in BUSY_SUB_CATEGORIES {
            let of_main = self.tree.get(sub).is_some_and(|c| c.parent == Some(main));
            if of_main && !categories.contains(&sub) {
                categories.push(sub);
            }
        }
        let mut record = self.record(rng, company_id, kind, categories, home);
        record.active = true;
        Made {
            record,
            base: None,
            kind,
        }
    }

    /// What a trade of `kind` registers for: its main parent, and each of
    /// the other categories it does with that category's chance.
    fn categories(&self, rng: &mut impl Rng, kind: &Kind) -> Vec<u32> {
        let mut categories = Vec::new();
        register(rng, self.tree, kind.main, &mut categories);
        for &(category, percent) in &kind.also {
            if rng.gen_range(0..100) >= percent {
                continue;
            }
            let is_parent = self.tree.get(category).is_some_and(|c| c.parent.is_none());
            if is_parent {
                register(rng, self.tree, category, &mut categories);
            } else if !categories.contains(&category) {
                categories.push(category);
            }
        }
        categories
    }

    /// The record of a trade: name, logo, delivery, reviews and photos.
    fn record(
        &self,
        rng: &mut impl Rng,
        company_id: u64,
        kind: usize,
        categories: Vec<u32>,
        home: Home<'_>,
    ) -> TradeRecord {
        let kind = &self.demand.kinds()[kind];
        let words = &kind.words[rng.gen_range(0..kind.words.len())];
        let company_name = names::company_name(rng, kind.main, words, area_of(home.districts[0]));
        let logo_url = rng
            .gen_bool(0.7)
            .then(|| format!("https://images.example-trades.co.uk/logos/{company_id}.png"));
        let delivery = delivery(rng, company_id, &company_name);
        let active = rng.gen_bool(0.97);
        let context = reviews::Context {
            tree: self.tree,
            categories: &categories,
            districts: &home.districts,
            today: self.today,
        };
        let reviews = reviews::reviews(rng, &context);
        let images = images::images(rng, company_id, self.tree, &categories, self.today);
        TradeRecord {
            company_id,
            company_name,
            logo_url,
            active,
            base_postcode: home.postcode,
            coverage: home.coverage,
            categories,
            delivery,
            reviews,
            images,
        }
    }

    /// One to three districts just beyond the radius that the trade also serves.
    fn extra_districts(&self, rng: &mut impl Rng, base: &Point, radius: f64) -> Vec<String> {
        let beyond: Vec<usize> = (self.places.within(base, radius + 15.0).into_iter())
            .filter(|(_, miles)| *miles > radius)
            .take(12)
            .map(|(index, _)| index)
            .collect();
        let mut chosen: Vec<usize> = Vec::new();
        for _ in 0..rng.gen_range(1..=3usize).min(beyond.len()) {
            let pick = beyond[rng.gen_range(0..beyond.len())];
            if !chosen.contains(&pick) {
                chosen.push(pick);
            }
        }
        chosen.sort_unstable();
        chosen
            .into_iter()
            .map(|index| self.places.districts()[index].code.clone())
            .collect()
    }
}

/// The postcode area of a district: its leading letters (`SW` of `SW1A`).
fn area_of(code: &str) -> &str {
    &code[..code
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(code.len())]
}

/// Whole miles from 5 to 40, mostly 10 to 20; rural trades travel further.
fn radius(rng: &mut impl Rng, rural: bool) -> f64 {
    let miles: u32 = match rng.gen_range(0..100) {
        0..=11 => rng.gen_range(5..=9),
        12..=71 => rng.gen_range(10..=20),
        72..=89 => rng.gen_range(21..=30),
        _ => rng.gen_range(31..=40),
    };
    let miles = if rural {
        miles + rng.gen_range(5..=15)
    } else {
        miles
    };
    f64::from(miles).min(MAX_DEMO_RADIUS_MILES)
}

/// Registers the trade for `parent` itself (six in ten), one to four of its
/// sub categories, and each of its [`BUSY_SUB_CATEGORIES`] not chosen yet
/// with [`BUSY_SHARE`], in tree order; nothing registered already.
fn register(rng: &mut impl Rng, tree: &CategoryTree, parent: u32, categories: &mut Vec<u32>) {
    let subs: Vec<u32> = tree.children(parent).map(|sub| sub.id).collect();
    if (subs.is_empty() || rng.gen_bool(0.6)) && !categories.contains(&parent) {
        categories.push(parent);
    }
    let count = rng.gen_range(1..=4usize).min(subs.len());
    let mut positions: Vec<usize> = (0..subs.len()).collect();
    for i in 0..count {
        let j = rng.gen_range(i..positions.len());
        positions.swap(i, j);
    }
    let mut chosen = positions[..count].to_vec();
    for (position, sub) in subs.iter().enumerate() {
        if BUSY_SUB_CATEGORIES.contains(sub)
            && !chosen.contains(&position)
            && rng.gen_bool(BUSY_SHARE)
        {
            chosen.push(position);
        }
    }
    chosen.sort_unstable();
    for sub in chosen.into_iter().map(|position| subs[position]) {
        if !categories.contains(&sub) {
            categories.push(sub);
        }
    }
}

/// A webhook for six trades in ten, an e-mail address for eight, always one.
fn delivery(rng: &mut impl Rng, company_id: u64, company_name: &str) -> Delivery {
    let (webhook, email) = match rng.gen_range(0..100) {
        0..=39 => (true, true),
        40..=59 => (true, false),
        _ => (false, true),
    };
    Delivery {
        webhook_url: webhook
            .then(|| format!("https://hooks.example-trades.co.uk/leads/{company_id}")),
        email: email.then(|| format!("leads@{}.co.uk", names::slug(company_name))),
    }
}
