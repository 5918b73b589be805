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
    by_category: HashMap<u32, Vec<usize>>,
}

impl DirectoryIndex {
    /// Indexes `trades` (inactive ones are kept for lookups but never matched).
    pub fn new(trades: Vec<IndexedTrade>) -> Self {
        let mut by_id = HashMap::with_capacity(trades.len());
        let mut by_category: HashMap<u32, Vec<usize>> = HashMap::new();
        for (position, trade) in trades.iter().enumerate() {
            by_id.insert(trade.company_id, position);
            if trade.active {
                for category in &trade.categories {
                    by_category.entry(*category).or_default().push(position);
                }
            }
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
        let point = location.map(|location| location.point);
        let mut found: HashMap<usize, bool> = HashMap::new();
        for reached in tree.reach(category) {
            for &position in self
                .by_category
                .get(&reached)
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                let exact = reached == category;
                found
                    .entry(position)
                    .and_modify(|e| *e |= exact)
                    .or_insert(exact);
            }
        }
        let mut matches: Vec<Match> = found
            .into_iter()
            .filter_map(|(position, exact)| {
                let trade = &self.trades[position];
                covers(trade, postcode.district(), point).map(|distance_miles| Match {
                    company_id: trade.company_id,
                    exact,
                    distance_miles,
                    review_score: trade.review_score,
                })
            })
            .collect();
        matches.sort_by(search_order);
        matches
    }
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
