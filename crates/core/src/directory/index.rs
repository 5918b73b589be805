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

/// The index over every trade of the directory.
#[derive(Debug, Default)]
pub struct DirectoryIndex {
    trades: Vec<IndexedTrade>,
    by_id: HashMap<u64, usize>,
    by_category: HashMap<u32, CategoryPlaces>,
}

/// The active trades of one category, findable by place.
#[derive(Debug, Default)]
struct CategoryPlaces {
    /// Trades with a base and a radius, sorted by northing, so that a search
    /// scans only the band of northings within the widest radius.
    reach: Vec<Reach>,
    /// The widest radius in `reach`, in metres.
    max_radius_m: f64,
    /// Trades by the districts they list.
    listed: HashMap<String, Vec<usize>>,
}

/// A trade's base and radius, flat for a tight scan.
#[derive(Debug, Clone, Copy)]
struct Reach {
    northing: f64,
    easting: f64,
    radius_m: f64,
    position: usize,
}

impl DirectoryIndex {
    /// Indexes `trades` (inactive ones are kept for lookups but never matched).
    pub fn new(trades: Vec<IndexedTrade>) -> Self {
        let mut by_id = HashMap::with_capacity(trades.len());
        let mut by_category: HashMap<u32, CategoryPlaces> = HashMap::new();
        for (position, trade) in trades.iter().enumerate() {
            by_id.insert(trade.company_id, position);
            if !trade.active {
                continue;
            }
            for category in &trade.categories {
                let places = by_category.entry(*category).or_default();
                if let (Some(base), Some(radius)) = (trade.base, trade.radius_miles) {
                    let radius_m = radius * METRES_PER_MILE;
                    places.reach.push(Reach {
                        northing: base.northing,
                        easting: base.easting,
                        radius_m,
                        position,
                    });
                    places.max_radius_m = places.max_radius_m.max(radius_m);
                }
                for district in &trade.districts {
                    places
                        .listed
                        .entry(district.clone())
                        .or_default()
                        .push(position);
                }
            }
        }
        for places in by_category.values_mut() {
            places
                .reach
                .sort_by(|a, b| a.northing.total_cmp(&b.northing));
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
        tree: &CategoryTree,
        category: u32,
        postcode: &Postcode,
        location: Option<Location>,
    ) -> Vec<Match> {
        let mut matches = self.matches(tree, category, postcode, location);
        matches.sort_by(search_order);
        matches
    }

    /// One page of [`search`](Self::search) and the number of all matches. Only
    /// the matches up to the end of the page are sorted: a common category in a
    /// city can have thousands of matches, and sorting them all for five is waste.
    pub fn search_page(
        &self,
        tree: &CategoryTree,
        category: u32,
        postcode: &Postcode,
        location: Option<Location>,
        offset: usize,
        limit: usize,
    ) -> (usize, Vec<Match>) {
        let mut matches = self.matches(tree, category, postcode, location);
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
        tree: &CategoryTree,
        category: u32,
        postcode: &Postcode,
        location: Option<Location>,
    ) -> Vec<Match> {
        let point = location.map(|location| location.point);
        let mut candidates: Vec<(usize, bool)> = Vec::new();
        for reached in tree.reach(category) {
            let Some(places) = self.by_category.get(&reached) else {
                continue;
            };
            let exact = reached == category;
            if let Some(point) = point {
                let low = places
                    .reach
                    .partition_point(|r| r.northing < point.northing - places.max_radius_m);
                for r in places.reach[low..]
                    .iter()
                    .take_while(|r| r.northing <= point.northing + places.max_radius_m)
                {
                    let (dx, dy) = (r.easting - point.easting, r.northing - point.northing);
                    // A metre of slack: `covers` below makes the exact decision, in miles.
                    let limit = r.radius_m + 1.0;
                    if dx * dx + dy * dy <= limit * limit {
                        candidates.push((r.position, exact));
                    }
                }
            }
            if let Some(found) = places.listed.get(postcode.district()) {
                candidates.extend(found.iter().map(|&position| (position, exact)));
            }
        }
        // A trade found twice (several categories or both ways) counts once, exact if either was.
        let mut seen = vec![Seen::No; self.trades.len()];
        let mut unique = Vec::with_capacity(candidates.len());
        for (position, exact) in candidates {
            match seen[position] {
                Seen::No => unique.push(position),
                Seen::Exact => continue,
                Seen::Reached => {}
            }
            if exact || seen[position] == Seen::No {
                seen[position] = if exact { Seen::Exact } else { Seen::Reached };
            }
        }
        unique
            .into_iter()
            .map(|position| (position, seen[position] == Seen::Exact))
            .filter_map(|(position, exact)| {
                let trade = &self.trades[position];
                covers(trade, postcode.district(), point).map(|distance_miles| Match {
                    company_id: trade.company_id,
                    exact,
                    distance_miles,
                    review_score: trade.review_score,
                })
            })
            .collect()
    }
}

/// How a trade was found while gathering candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    No,
    Reached,
    Exact,
}

/// `Some(distance)` when the trade covers the place (distance `None` when
/// either side has no coordinates), `None` when it does not cover it.
fn covers(trade: &IndexedTrade, district: &str, point: Option<Point>) -> Option<Option<f64>> {
    let distance = match (trade.base, point) {
        (Some(base), Some(point)) => Some(base.distance_m(&point) / METRES_PER_MILE),
        _ => None,
    };
    let in_radius = matches!((distance, trade.radius_miles), (Some(d), Some(r)) if d <= r);
    let listed = trade.districts.iter().any(|covered| covered == district);
    (in_radius || listed).then_some(distance)
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
