//! One demo trade: where it is based, how far it travels, what it does, its
//! name, how leads reach it, its reviews and photos.

use super::demand::{Demand, Kind};
use super::places::Places;
use super::{images, names, reviews, MAX_DEMO_RADIUS_MILES};
use crate::categories::CategoryTree;
use crate::directory::record::{Coverage, Delivery, TradeRecord};
use crate::geography::Point;
use rand::Rng;
use time::Date;

/// A trade with fewer districts than this within 10 miles is rural and travels further.
const RURAL_NEIGHBOURS: usize = 6;

/// Builds trades one after another from one random generator.
pub(super) struct TradeMaker<'a> {
    /// The categories trades register for.
    pub tree: &'a CategoryTree,
    /// Where trades can be based.
    pub places: &'a Places,
    /// The kinds of business and how common each is.
    pub demand: Demand,
    /// Reviews are written before this day.
    pub today: Date,
}

impl TradeMaker<'_> {
    /// The trade `company_id` and the point its base postcode locates to.
    pub fn trade(&self, rng: &mut impl Rng, company_id: u64) -> (TradeRecord, Point) {
        let base = self.places.pick_base(rng);
        let code = self.places.districts()[base.district].code.as_str();
        let near = self.places.within(&base.point, 10.0);
        let radius = radius(rng, near.len() < RURAL_NEIGHBOURS);

        let kind = &self.demand.kinds()[self.demand.pick(rng)];
        let categories = categories(rng, self.tree, kind);

        let words = &kind.words[rng.gen_range(0..kind.words.len())];
        let company_name = names::company_name(rng, kind.main, words, area_of(code));
        let logo_url = rng
            .gen_bool(0.7)
            .then(|| format!("https://images.example-trades.co.uk/logos/{company_id}.png"));
        let delivery = delivery(rng, company_id, &company_name);
        let active = rng.gen_bool(0.97);

        let mut districts: Vec<&str> = vec![code];
        let review_reach = radius.min(10.0);
        districts.extend(
            near.iter()
                .filter(|(index, miles)| *index != base.district && *miles <= review_reach)
                .take(7)
                .map(|(index, _)| self.places.districts()[*index].code.as_str()),
        );
        let context = reviews::Context {
            tree: self.tree,
            categories: &categories,
            districts: &districts,
            today: self.today,
        };
        let reviews = reviews::reviews(rng, &context);
        let images = images::images(rng, company_id, self.tree, &categories);
        let extra = if rng.gen_bool(0.05) {
            self.extra_districts(rng, &base.point, radius)
        } else {
            Vec::new()
        };

        let record = TradeRecord {
            company_id,
            company_name,
            logo_url,
            active,
            base_postcode: base.postcode,
            coverage: Coverage {
                radius_miles: Some(radius),
                districts: extra,
            },
            categories,
            delivery,
            reviews,
            images,
        };
        (record, base.point)
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

/// What a trade of `kind` registers for: its main parent, and each of the
/// other categories it does with that category's chance.
fn categories(rng: &mut impl Rng, tree: &CategoryTree, kind: &Kind) -> Vec<u32> {
    let mut categories = Vec::new();
    register(rng, tree, kind.main, &mut categories);
    for &(category, percent) in &kind.also {
        if rng.gen_range(0..100) >= percent {
            continue;
        }
        if tree.get(category).is_some_and(|c| c.parent.is_none()) {
            register(rng, tree, category, &mut categories);
        } else if !categories.contains(&category) {
            categories.push(category);
        }
    }
    categories
}

/// Registers the trade for `parent` itself (six in ten) and one to four of
/// its sub categories, in tree order; nothing registered already.
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
