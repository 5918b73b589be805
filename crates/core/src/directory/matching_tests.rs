//! Matching on a small hand-built directory (DESIGN.md §6): which trades a job
//! reaches ([`DirectoryIndex::search`]) and which of them receive it
//! ([`choose_recipients`]). Places are real district centroids of central
//! London and Manchester; categories are the embedded tree's Central Heating
//! (10) and its sub categories Gas Boiler Installation (88) and Boiler Repairs /
//! Servicing (1335).
//!
//! From the job at SW1A 1AA (the SW1A 1 sector centroid) the district
//! centroids lie at about: SW1A 0.30 miles, WC2N 0.67, EC1A 1.85, NW1 1.96,
//! SE1 2.09, N1 2.90, E1 3.54; M1 about 163.

use super::index::{DirectoryIndex, IndexedTrade, Match};
use super::matching::{choose_recipients, DEFAULT_MAX_RECIPIENTS};
use crate::categories::CategoryTree;
use crate::geography::{Geography, Point};
use crate::postcode::Postcode;

const CENTRAL_HEATING: u32 = 10;
const GAS_BOILER: u32 = 88;
const BOILER_REPAIR: u32 = 1335;
const PLUMBER: u32 = 20;

fn centroid(district: &str) -> Point {
    Geography::embedded().district(district).unwrap()
}

/// An active trade based at a district centroid, reviewed 9.0, no districts listed.
fn trade(company_id: u64, categories: &[u32], base: &str, radius_miles: f64) -> IndexedTrade {
    IndexedTrade {
        company_id,
        company_name: format!("Trade {company_id}"),
        active: true,
        base: Some(centroid(base)),
        radius_miles: Some(radius_miles),
        districts: Vec::new(),
        categories: categories.to_vec(),
        review_score: Some(9.0),
    }
}

fn search(trades: &[IndexedTrade], category: u32, postcode: &str) -> Vec<Match> {
    let postcode = Postcode::parse(postcode).unwrap();
    let location = Geography::embedded().locate(&postcode);
    DirectoryIndex::new(trades.to_vec(), CategoryTree::embedded())
        .search(category, &postcode, location)
}

fn ids(matches: &[Match]) -> Vec<u64> {
    matches.iter().map(|found| found.company_id).collect()
}

fn recipients(matches: Vec<Match>, recent_leads: impl Fn(u64) -> u32) -> Vec<u64> {
    let chosen = choose_recipients(matches, recent_leads, DEFAULT_MAX_RECIPIENTS);
    chosen
        .iter()
        .map(|ranked| ranked.found.company_id)
        .collect()
}

/// The job's point: the SW1A 1 sector centroid.
fn job_point() -> Point {
    let postcode = Postcode::parse("SW1A 1AA").unwrap();
    Geography::embedded().locate(&postcode).unwrap().point
}

#[test]
fn a_sub_category_job_reaches_trades_of_that_sub_category_only() {
    let trades = [
        trade(1, &[CENTRAL_HEATING], "SE1", 10.0),
        trade(2, &[GAS_BOILER], "SE1", 10.0),
        trade(3, &[BOILER_REPAIR], "SE1", 10.0),
        trade(4, &[CENTRAL_HEATING, GAS_BOILER], "SE1", 10.0),
        trade(5, &[PLUMBER], "SE1", 10.0),
    ];
    let found = search(&trades, GAS_BOILER, "SW1A 1AA");
    assert_eq!(
        ids(&found),
        [2, 4],
        "not the parent-only trade 1 nor the sibling's trade 3"
    );
    assert!(found.iter().all(|found| found.exact));
}

#[test]
fn a_parent_job_reaches_parent_and_sub_category_trades_exact_ones_first() {
    let trades = [
        trade(1, &[CENTRAL_HEATING], "SE1", 10.0),
        trade(2, &[GAS_BOILER], "SW1A", 10.0),
        trade(3, &[BOILER_REPAIR], "WC2N", 10.0),
        trade(4, &[GAS_BOILER, CENTRAL_HEATING], "N1", 10.0),
        trade(5, &[PLUMBER], "SW1A", 10.0),
    ];
    let found = search(&trades, CENTRAL_HEATING, "SW1A 1AA");
    assert_eq!(
        ids(&found),
        [1, 4, 2, 3],
        "exact (nearest first) before the nearer sub category trades"
    );
    assert_eq!(
        found.iter().map(|found| found.exact).collect::<Vec<_>>(),
        [true, true, false, false]
    );
    assert_eq!(recipients(found, |_| 0), [1, 4, 2]);
}

#[test]
fn a_radius_ending_just_short_of_the_postcode_does_not_cover_it() {
    let distance = centroid("SE1").distance_miles(&job_point());
    assert!((distance - 2.09).abs() < 0.01, "{distance}");
    let trades = [
        trade(1, &[GAS_BOILER], "SE1", distance - 0.01),
        trade(2, &[GAS_BOILER], "SE1", distance + 0.01),
        trade(3, &[GAS_BOILER], "SE1", distance),
    ];
    let found = search(&trades, GAS_BOILER, "SW1A 1AA");
    assert_eq!(
        ids(&found),
        [2, 3],
        "a radius reaching exactly to the postcode covers it"
    );
    assert!(found
        .iter()
        .all(|found| found.distance_miles == Some(distance)));
}

#[test]
fn inactive_trades_are_never_matched() {
    let mut closest = trade(1, &[GAS_BOILER], "SW1A", 10.0);
    closest.active = false;
    closest.districts = vec!["SW1A".into()];
    let trades = [closest, trade(2, &[GAS_BOILER], "SE1", 10.0)];
    let found = search(&trades, GAS_BOILER, "SW1A 1AA");
    assert_eq!(ids(&found), [2]);
    assert_eq!(recipients(found, |_| 0), [2]);
    let index = DirectoryIndex::new(trades.to_vec(), CategoryTree::embedded());
    assert!(
        index.get(1).is_some_and(|kept| !kept.active),
        "kept for lookups"
    );
}

#[test]
fn between_equal_trades_the_one_with_fewer_recent_leads_is_chosen_first() {
    let trades = [
        trade(1, &[GAS_BOILER], "SE1", 10.0),
        trade(2, &[GAS_BOILER], "SE1", 10.0),
    ];
    let found = search(&trades, GAS_BOILER, "SW1A 1AA");
    assert_eq!(ids(&found), [1, 2]);
    assert_eq!(
        recipients(found.clone(), |id| if id == 1 { 4 } else { 0 }),
        [2, 1]
    );
    assert_eq!(
        recipients(found.clone(), |id| if id == 2 { 1 } else { 0 }),
        [1, 2]
    );
    assert_eq!(recipients(found, |_| 3), [1, 2]);
}

#[test]
fn equally_near_trades_are_searched_best_reviewed_first_and_unreviewed_last() {
    let mut unreviewed = trade(1, &[GAS_BOILER], "SE1", 10.0);
    unreviewed.review_score = None;
    let mut better = trade(3, &[GAS_BOILER], "SE1", 10.0);
    better.review_score = Some(9.6);
    let trades = [unreviewed, trade(2, &[GAS_BOILER], "SE1", 10.0), better];
    assert_eq!(ids(&search(&trades, GAS_BOILER, "SW1A 1AA")), [3, 2, 1]);
}

#[test]
fn exact_ties_go_to_the_lowest_company_id_whatever_the_input_order() {
    let orders: [[u64; 4]; 4] = [[7, 3, 5, 9], [9, 7, 5, 3], [3, 5, 7, 9], [5, 9, 3, 7]];
    for _ in 0..5 {
        for order in orders {
            let trades: Vec<IndexedTrade> = order
                .iter()
                .map(|&id| trade(id, &[GAS_BOILER], "SE1", 10.0))
                .collect();
            let found = search(&trades, GAS_BOILER, "SW1A 1AA");
            assert_eq!(ids(&found), [3, 5, 7, 9], "input order {order:?}");
            assert_eq!(recipients(found, |_| 1), [3, 5, 7], "input order {order:?}");
        }
    }
}

#[test]
fn a_postcode_without_coordinates_matches_only_trades_listing_its_district() {
    assert!(Geography::embedded()
        .locate(&Postcode::parse("BT1 1AA").unwrap())
        .is_none());
    let mut lists_bt1 = trade(1, &[GAS_BOILER], "M1", 40.0);
    lists_bt1.districts = vec!["BT1".into()];
    let mut lists_bt2 = trade(2, &[GAS_BOILER], "SW1A", 40.0);
    lists_bt2.districts = vec!["BT2".into()];
    let trades = [lists_bt1, lists_bt2, trade(3, &[GAS_BOILER], "M1", 500.0)];
    let found = search(&trades, GAS_BOILER, "BT1 1AA");
    assert_eq!(
        ids(&found),
        [1],
        "no radius reaches a postcode without coordinates"
    );
    assert_eq!(found[0].distance_miles, None);
    assert_eq!(recipients(found, |_| 0), [1]);
}

#[test]
fn at_most_the_maximum_number_of_recipients_are_chosen_nearest_first() {
    let trades = [
        trade(1, &[GAS_BOILER], "E1", 10.0),
        trade(2, &[GAS_BOILER], "N1", 10.0),
        trade(3, &[GAS_BOILER], "SE1", 10.0),
        trade(4, &[GAS_BOILER], "EC1A", 10.0),
        trade(5, &[GAS_BOILER], "WC2N", 10.0),
        trade(6, &[GAS_BOILER], "SW1A", 10.0),
    ];
    let found = search(&trades, GAS_BOILER, "SW1A 1AA");
    assert_eq!(ids(&found), [6, 5, 4, 3, 2, 1]);
    assert_eq!(DEFAULT_MAX_RECIPIENTS, 3);
    assert_eq!(recipients(found.clone(), |_| 0), [6, 5, 4]);
    let one: Vec<u64> = choose_recipients(found, |_| 0, 1)
        .iter()
        .map(|ranked| ranked.found.company_id)
        .collect();
    assert_eq!(one, [6]);
}

/// The index against a plain reading of DESIGN.md §6 over every trade, on
/// 4,000 random trades across GB (bases at district centroids, radii from 1
/// to 80 miles, some listing districts, some inactive, parents and sub
/// categories mixed) and 300 random jobs: the same matches, exactness and
/// distances, in the same order.
#[test]
fn the_index_finds_exactly_what_a_scan_of_every_trade_finds() {
    use rand::{Rng, SeedableRng};
    let geography = Geography::embedded();
    let tree = CategoryTree::embedded();
    let districts: Vec<(&str, Point)> = geography.districts().collect();
    let categories = [CENTRAL_HEATING, GAS_BOILER, BOILER_REPAIR, PLUMBER];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    let trades: Vec<IndexedTrade> = (0..4_000)
        .map(|n| {
            let (base, _) = districts[rng.gen_range(0..districts.len())];
            let listed = (0..rng.gen_range(0..3))
                .map(|_| districts[rng.gen_range(0..districts.len())].0.to_owned())
                .collect();
            IndexedTrade {
                active: rng.gen_bool(0.95),
                districts: listed,
                categories: (0..rng.gen_range(1..=2))
                    .map(|_| categories[rng.gen_range(0..categories.len())])
                    .collect(),
                review_score: rng
                    .gen_bool(0.8)
                    .then(|| rng.gen_range(0..=100) as f64 / 10.0),
                radius_miles: rng.gen_bool(0.9).then(|| rng.gen_range(1.0..80.0)),
                base: rng.gen_bool(0.97).then(|| centroid(base)),
                ..trade(n, &[], base, 0.0)
            }
        })
        .collect();
    let index = DirectoryIndex::new(trades.clone(), tree);
    for _ in 0..300 {
        let (district, _) = districts[rng.gen_range(0..districts.len())];
        let postcode = Postcode::parse(&format!("{district} 1AA")).unwrap();
        let location = geography.locate(&postcode);
        let category = categories[rng.gen_range(0..categories.len())];
        let reached = tree.reach(category);
        let mut expected: Vec<Match> = trades
            .iter()
            .filter(|trade| trade.active)
            .filter(|trade| trade.categories.iter().any(|c| reached.contains(c)))
            .filter_map(|trade| {
                let distance = match (trade.base, location) {
                    (Some(base), Some(location)) => Some(base.distance_miles(&location.point)),
                    _ => None,
                };
                let in_radius =
                    matches!((distance, trade.radius_miles), (Some(d), Some(r)) if d <= r);
                let listed = trade.districts.iter().any(|d| d == postcode.district());
                (in_radius || listed).then(|| Match {
                    company_id: trade.company_id,
                    exact: trade.categories.contains(&category),
                    distance_miles: distance,
                    review_score: trade.review_score,
                })
            })
            .collect();
        expected.sort_by(|a, b| {
            b.exact
                .cmp(&a.exact)
                .then_with(|| match (a.distance_miles, b.distance_miles) {
                    (Some(x), Some(y)) => x.total_cmp(&y),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                })
                .then_with(|| match (a.review_score, b.review_score) {
                    (Some(x), Some(y)) => y.total_cmp(&x),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                })
                .then_with(|| a.company_id.cmp(&b.company_id))
        });
        let found = index.search(category, &postcode, location);
        assert_eq!(found, expected, "{category} at {district}");
        let (total, page) = index.search_page(category, &postcode, location, 5, 5);
        assert_eq!(total, expected.len());
        assert_eq!(
            page,
            expected.iter().skip(5).take(5).cloned().collect::<Vec<_>>()
        );
    }
}
