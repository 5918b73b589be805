//! The in-memory directory index: which trades serve a category and cover a
//! postcode. Built from the store at start and rebuilt when the directory
//! changes; a search or a match never touches the database.

use crate::categories::CategoryTree;
use crate::geography::{Location, Point};
use crate::postcode::Postcode;
use std::cmp::Ordering;
use std::collections::HashMap;

/// Metres in a mile.
const METRES_PER_MILE: f64 = 1609.344;

/// What matching needs to know of a trade.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedTrade {
    /// Company id.
    pub company_id: u64,
    /// Trading name (for the 201 answer and leads).
    pub company_name: String,
    /// Inactive trades are never matched.
    pub active: bool,
    /// Base centroid, if the base postcode has coordinates.
    pub base: Option<Point>,
    /// Radius covered around the base, in miles.
    pub radius_miles: Option<f64>,
    /// Districts covered explicitly, upper case.
    pub districts: Vec<String>,
    /// Registered category ids.
    pub categories: Vec<u32>,
    /// Mean review score out of 10.
    pub review_score: Option<f64>,
}

/// A trade that serves a category at a postcode.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// Company id.
    pub company_id: u64,
    /// Registered for the very category asked for (not only a sub category of it).
    pub exact: bool,
    /// Miles from the trade's base to the postcode, when both have coordinates.
    pub distance_miles: Option<f64>,
    /// Mean review score out of 10.
    pub review_score: Option<f64>,
}

/// The index over every trade of the directory, for one category tree.
#[derive(Debug, Default)]
pub struct DirectoryIndex {
    trades: Vec<IndexedTrade>,
    by_id: HashMap<u64, usize>,
    /// What a job in each category reaches (the category itself and, for a
    /// parent, its sub categories), merged once here so that a job scans one
    /// set of trades instead of one per sub category (a parent reaches up to
    /// 46).
    by_category: HashMap<u32, CategoryPlaces>,
}

/// The active trades a job in one category reaches, findable by place; each
/// trade once.
#[derive(Debug, Default)]
struct CategoryPlaces {
    /// Trades with a base and a radius, by tier of radius
    /// ([`TIER_MILES`]), so that most trades, which travel a few miles, are
    /// looked for only within a few miles of a job.
    tiers: Vec<Tier>,
    /// Trades by the districts they list, with whether they are registered
    /// for the category itself.
    listed: HashMap<String, Vec<(usize, bool)>>,
}

/// The upper bounds of the tiers of radius, in miles; the last tier takes
/// the rest.
const TIER_MILES: [f64; 4] = [10.0, 20.0, 30.0, 45.0];

/// The narrowest strip of eastings, in metres.
const MIN_STRIP_M: f64 = 5_000.0;

/// The strip of eastings `width` metres wide that holds `easting`.
fn strip_of(easting: f64, width: f64) -> i32 {
    (easting / width).floor() as i32
}

/// Trades of one category and tier of radius, findable by place.
#[derive(Debug, Default)]
struct Tier {
    /// Sorted by strip of eastings (as wide as the tier's widest radius, so
    /// that a search looks at three or four) and within a strip by
    /// northing, so that a search scans, in each strip within the tier's
    /// widest radius of the point, only the band of northings within it: a
    /// square around the point instead of a band across the country.
    reach: Vec<Reach>,
    /// Where each strip's trades begin in `reach`: strip number and start,
    /// in order.
    strips: Vec<(i32, usize)>,
    /// The widest radius in `reach`, in metres, with a metre of slack.
    max_radius_m: f64,
    /// The width of a strip, in metres.
    strip_m: f64,
}

/// A trade's base and radius, flat for a tight scan, with what a match
/// reports of it, so that a trade within its radius is decided and reported
/// without reading the trade itself.
#[derive(Debug, Clone, Copy)]
struct Reach {
    northing: f64,
    easting: f64,
    radius_miles: f64,
    /// The square of the radius in metres plus a metre of slack.
    slack_m2: f64,
    company_id: u64,
    review_score: Option<f64>,
    /// Registered for the category itself, not only a sub category of it.
    exact: bool,
}

impl CategoryPlaces {
    fn add(&mut self, reach: Reach) {
        let tier = TIER_MILES
            .iter()
            .position(|&bound| reach.radius_miles <= bound)
            .unwrap_or(TIER_MILES.len());
        if self.tiers.len() <= tier {
            self.tiers.resize_with(tier + 1, Tier::default);
        }
        let tier = &mut self.tiers[tier];
        tier.max_radius_m = tier.max_radius_m.max(reach.slack_m2.sqrt());
        tier.reach.push(reach);
    }

    fn finish(&mut self) {
        self.tiers.iter_mut().for_each(Tier::finish);
    }

    /// The trades whose radius covers `point`, with their distance in miles.
    fn within_radius(&self, point: Point, mut found: impl FnMut(&Reach, f64)) {
        for tier in &self.tiers {
            tier.within_radius(point, &mut found);
        }
    }
}

impl Tier {
    /// Sorts `reach` into strips and notes where each begins.
    fn finish(&mut self) {
        self.strip_m = self.max_radius_m.max(MIN_STRIP_M);
        let width = self.strip_m;
        self.reach.sort_by(|a, b| {
            strip_of(a.easting, width)
                .cmp(&strip_of(b.easting, width))
                .then(a.northing.total_cmp(&b.northing))
        });
        self.strips.clear();
        for (start, reach) in self.reach.iter().enumerate() {
            let strip = strip_of(reach.easting, width);
            if self.strips.last().is_none_or(|&(last, _)| last != strip) {
                self.strips.push((strip, start));
            }
        }
    }

    /// The trades whose radius covers `point`, with their distance in miles,
    /// decided exactly as [`distance_to`] decides it.
    fn within_radius(&self, point: Point, found: &mut impl FnMut(&Reach, f64)) {
        let reach = self.max_radius_m;
        let (first, last) = (
            strip_of(point.easting - reach, self.strip_m),
            strip_of(point.easting + reach, self.strip_m),
        );
        let from = self.strips.partition_point(|&(strip, _)| strip < first);
        for (n, &(strip, start)) in self.strips.iter().enumerate().skip(from) {
            if strip > last {
                break;
            }
            let end = self
                .strips
                .get(n + 1)
                .map_or(self.reach.len(), |&(_, next)| next);
            let band = &self.reach[start..end];
            let low = band.partition_point(|r| r.northing < point.northing - reach);
            for r in band[low..]
                .iter()
                .take_while(|r| r.northing <= point.northing + reach)
            {
                let (dx, dy) = (r.easting - point.easting, r.northing - point.northing);
                // A metre of slack, cheaply; then the exact decision, in miles.
                if dx * dx + dy * dy > r.slack_m2 {
                    continue;
                }
                let distance_miles = dx.hypot(dy) / METRES_PER_MILE;
                if distance_miles <= r.radius_miles {
                    found(r, distance_miles);
                }
            }
        }
    }
}

impl DirectoryIndex {
    /// Indexes `trades` for the categories of `tree` (inactive trades are
    /// kept for lookups but never matched; a category the tree does not
    /// hold is never reached).
    pub fn new(trades: Vec<IndexedTrade>, tree: &CategoryTree) -> Self {
        // Which categories' jobs reach a trade registered for each category.
        let mut reached_by: HashMap<u32, Vec<u32>> = HashMap::new();
        let every = tree.parents().flat_map(|parent| {
            std::iter::once(parent.id).chain(tree.children(parent.id).map(|sub| sub.id))
        });
        for asked in every {
            for reached in tree.reach(asked) {
                reached_by.entry(reached).or_default().push(asked);
            }
        }
        let mut by_id = HashMap::with_capacity(trades.len());
        let mut by_category: HashMap<u32, CategoryPlaces> = HashMap::new();
        let mut asked_for: HashMap<u32, bool> = HashMap::new();
        for (position, trade) in trades.iter().enumerate() {
            by_id.insert(trade.company_id, position);
            if !trade.active {
                continue;
            }
            // Each category whose jobs reach the trade, once, exact if the
            // trade is registered for that very category.
            asked_for.clear();
            for registered in &trade.categories {
                for &asked in reached_by.get(registered).into_iter().flatten() {
                    *asked_for.entry(asked).or_default() |= asked == *registered;
                }
            }
            for (&asked, &exact) in &asked_for {
                let places = by_category.entry(asked).or_default();
                if let (Some(base), Some(radius_miles)) = (trade.base, trade.radius_miles) {
                    // A metre of slack: the scan decides exactly, in miles.
                    let radius_m = radius_miles * METRES_PER_MILE + 1.0;
                    places.add(Reach {
                        northing: base.northing,
                        easting: base.easting,
                        radius_miles,
                        slack_m2: radius_m * radius_m,
                        company_id: trade.company_id,
                        review_score: trade.review_score,
                        exact,
                    });
                }
                for district in &trade.districts {
                    places
                        .listed
                        .entry(district.clone())
                        .or_default()
                        .push((position, exact));
                }
            }
        }
        for places in by_category.values_mut() {
            places.finish();
        }
        DirectoryIndex {
            trades,
            by_id,
            by_category,
        }
    }

    /// Number of trades, active or not.
    pub fn len(&self) -> usize {
        self.trades.len()
    }

    /// Whether the directory is empty.
    pub fn is_empty(&self) -> bool {
        self.trades.is_empty()
    }

    /// The trade with this company id.
    pub fn get(&self, company_id: u64) -> Option<&IndexedTrade> {
        self.by_id
            .get(&company_id)
            .map(|&position| &self.trades[position])
    }

    /// Active trades serving `category` that cover `postcode`, in search order:
    /// exact category matches first, then nearest, then best reviewed, then
    /// lowest company id. A parent category also reaches its sub categories.
    pub fn search(
        &self,
        category: u32,
        postcode: &Postcode,
        location: Option<Location>,
    ) -> Vec<Match> {
        let mut matches = self.matches(category, postcode, location);
        matches.sort_by(search_order);
        matches
    }

    /// One page of [`search`](Self::search) and the number of all matches. Only
    /// the matches up to the end of the page are sorted: a common category in a
    /// city can have thousands of matches, and sorting them all for five is waste.
    pub fn search_page(
        &self,
        category: u32,
        postcode: &Postcode,
        location: Option<Location>,
        offset: usize,
        limit: usize,
    ) -> (usize, Vec<Match>) {
        let mut matches = self.matches(category, postcode, location);
        let total = matches.len();
        let end = offset.saturating_add(limit).min(total);
        if end < total && end > 0 {
            matches.select_nth_unstable_by(end - 1, search_order);
        }
        matches.truncate(end);
        matches.sort_by(search_order);
        (total, matches.into_iter().skip(offset).collect())
    }

    /// Every active trade serving `category` and covering `postcode`, unordered.
    pub fn matches(
        &self,
        category: u32,
        postcode: &Postcode,
        location: Option<Location>,
    ) -> Vec<Match> {
        let Some(places) = self.by_category.get(&category) else {
            return Vec::new();
        };
        let point = location.map(|location| location.point);
        let mut found = Vec::new();
        if let Some(point) = point {
            places.within_radius(point, |reach, distance_miles| {
                found.push(Match {
                    company_id: reach.company_id,
                    exact: reach.exact,
                    distance_miles: Some(distance_miles),
                    review_score: reach.review_score,
                })
            });
        }
        let district = postcode.district();
        for &(position, exact) in places.listed.get(district).into_iter().flatten() {
            let trade = &self.trades[position];
            let (distance, in_radius) = distance_to(trade, point);
            // A trade whose radius covers the place was found by the scan.
            if !in_radius {
                found.push(Match {
                    company_id: trade.company_id,
                    exact,
                    distance_miles: distance,
                    review_score: trade.review_score,
                });
            }
        }
        found
    }
}

/// The trade's distance in miles to `point` (`None` when either side has no
/// coordinates), and whether its radius covers it.
fn distance_to(trade: &IndexedTrade, point: Option<Point>) -> (Option<f64>, bool) {
    let distance = match (trade.base, point) {
        (Some(base), Some(point)) => Some(base.distance_m(&point) / METRES_PER_MILE),
        _ => None,
    };
    let in_radius = matches!((distance, trade.radius_miles), (Some(d), Some(r)) if d <= r);
    (distance, in_radius)
}

fn search_order(a: &Match, b: &Match) -> Ordering {
    b.exact
        .cmp(&a.exact)
        .then_with(|| cmp_none_last(a.distance_miles, b.distance_miles, |x, y| x.total_cmp(&y)))
        .then_with(|| cmp_none_last(a.review_score, b.review_score, |x, y| y.total_cmp(&x)))
        .then_with(|| a.company_id.cmp(&b.company_id))
}

/// Orders present values by `order` and puts absent ones after them.
pub(crate) fn cmp_none_last(
    a: Option<f64>,
    b: Option<f64>,
    order: impl Fn(f64, f64) -> Ordering,
) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => order(x, y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}
