use super::*;
use intake_core::directory::index::DirectoryIndex;
use std::collections::HashSet;
use std::sync::OnceLock;

mod full;
mod names;

fn tree() -> &'static CategoryTree {
    CategoryTree::embedded()
}

fn geography() -> &'static Geography {
    Geography::embedded()
}

/// The 2,000-trade directory most tests look at, made once.
fn small_directory() -> &'static [TradeRecord] {
    static DIRECTORY: OnceLock<Vec<TradeRecord>> = OnceLock::new();
    DIRECTORY.get_or_init(|| generate(&DemoOptions::new(2_000), tree(), geography()))
}

/// The directory `intake serve` loads (10,000 trades, seed 2021), made once:
/// [`generate`] is [`draft`] then [`adjust`], kept apart here to compare.
struct Full {
    /// The trades before the coverage adjustment.
    draft: Vec<TradeRecord>,
    /// The trades after it, as [`generate`] returns them.
    records: Vec<TradeRecord>,
    /// Each trade's kind of business, an index into `demand.kinds()`.
    kinds: Vec<usize>,
    demand: Demand,
    /// District and category pairs with an uncovered place before the adjustment.
    uncovered: usize,
    /// The index a server builds from the stored trades.
    index: DirectoryIndex,
}

fn full() -> &'static Full {
    static FULL: OnceLock<Full> = OnceLock::new();
    FULL.get_or_init(|| {
        let options = DemoOptions::new(MIN_TRADES_FOR_FULL_COVERAGE);
        let places = Places::new(geography());
        let demand = Demand::new(tree());
        let mut adjusted = draft(&options, tree(), &places, &demand);
        let draft = adjusted.records.clone();
        let uncovered = adjust(&mut adjusted, tree(), &places, &demand);
        let indexed = (adjusted.records.iter())
            .map(|record| {
                let valid = record.clone().validate(tree(), geography());
                valid
                    .map(|valid| valid.indexed())
                    .unwrap_or_else(|problems| panic!("trade {}: {problems:?}", record.company_id))
            })
            .collect();
        Full {
            draft,
            records: adjusted.records,
            kinds: adjusted.kinds,
            demand,
            uncovered,
            index: DirectoryIndex::new(indexed, tree()),
        }
    })
}

fn share(records: &[TradeRecord], test: impl Fn(&TradeRecord) -> bool) -> f64 {
    records.iter().filter(|record| test(record)).count() as f64 / records.len() as f64
}

#[test]
fn the_same_options_give_byte_identical_records() {
    let options = DemoOptions::new(300);
    let first = serde_json::to_string(&generate(&options, tree(), geography())).unwrap();
    let second = serde_json::to_string(&generate(&options, tree(), geography())).unwrap();
    assert_eq!(first, second);
    let prefix = serde_json::to_string(&small_directory()[..300]).unwrap();
    assert_eq!(
        first, prefix,
        "a smaller directory is the start of a larger one"
    );
}

#[test]
fn a_different_seed_gives_a_different_directory() {
    let mut options = DemoOptions::new(50);
    let first = generate(&options, tree(), geography());
    options.seed += 1;
    let second = generate(&options, tree(), geography());
    let same = first.iter().zip(&second).filter(|(a, b)| a == b).count();
    assert_eq!(same, 0);
}

#[test]
fn every_record_of_a_2000_trade_directory_validates() {
    for record in small_directory() {
        let id = record.company_id;
        let valid = record
            .clone()
            .validate(tree(), geography())
            .unwrap_or_else(|problems| panic!("trade {id}: {problems:?}"));
        assert_eq!(
            &valid.record, record,
            "trade {id} is already in normal form"
        );
        assert!(valid.base.is_some(), "trade {id} has a located base");
    }
}

#[test]
fn counts_stay_within_their_ranges() {
    for record in small_directory() {
        assert!(record.reviews.len() <= 50);
        assert!(record.images.len() <= 8);
        let radius = record.coverage.radius_miles.unwrap();
        assert!((5.0..=40.0).contains(&radius), "radius {radius}");
        assert!(record.coverage.districts.len() <= 3);
        assert!(record
            .reviews
            .iter()
            .all(|review| review.created_at.as_str() < "2026-11-01"
                && review.created_at.as_str() >= "2022-11"));
    }
}

#[test]
fn the_mix_of_trades_is_roughly_as_documented() {
    let records = small_directory();
    let between = |value: f64, low: f64, high: f64| {
        assert!(
            (low..=high).contains(&value),
            "{value} not in {low}..={high}"
        )
    };
    between(share(records, |r| r.reviews.is_empty()), 0.07, 0.13);
    between(
        share(records, |r| (5..=20).contains(&r.reviews.len())),
        0.45,
        0.65,
    );
    between(share(records, |r| r.images.is_empty()), 0.25, 0.35);
    between(share(records, |r| r.active), 0.95, 0.99);
    between(share(records, |r| r.logo_url.is_some()), 0.65, 0.75);
    between(
        share(records, |r| r.delivery.webhook_url.is_some()),
        0.55,
        0.65,
    );
    between(share(records, |r| r.delivery.email.is_some()), 0.75, 0.85);
    between(
        share(records, |r| !r.coverage.districts.is_empty()),
        0.03,
        0.07,
    );
    let scores: Vec<f64> = records
        .iter()
        .flat_map(|r| r.reviews.iter().map(|review| review.score))
        .collect();
    between(
        scores.iter().filter(|s| **s >= 8.0).count() as f64 / scores.len() as f64,
        0.75,
        0.95,
    );
    let plumbers = share(records, |r| {
        r.categories.iter().any(|c| tree().reach(20).contains(c))
    });
    let chimney_sweeps = share(records, |r| {
        r.categories.iter().any(|c| tree().reach(1109).contains(c))
    });
    assert!(
        plumbers > 5.0 * chimney_sweeps,
        "plumbers {plumbers}, sweeps {chimney_sweeps}"
    );
}

#[test]
fn company_ids_are_unique_and_sequential() {
    let mut options = DemoOptions::new(25);
    options.first_company_id = 7;
    let ids: Vec<u64> = generate(&options, tree(), geography())
        .iter()
        .map(|r| r.company_id)
        .collect();
    assert_eq!(ids, (7..32).collect::<Vec<u64>>());
    let ids: HashSet<u64> = small_directory().iter().map(|r| r.company_id).collect();
    assert_eq!(ids.len(), 2_000);
    assert!(
        ids.contains(&DEFAULT_FIRST_COMPANY_ID)
            && ids.contains(&(DEFAULT_FIRST_COMPANY_ID + 1_999))
    );
}

#[test]
fn at_the_full_coverage_size_every_common_and_busy_category_reaches_every_district() {
    let records = &full().records;
    for &category in COMMON_CATEGORIES.iter().chain(BUSY_SUB_CATEGORIES) {
        assert_eq!(
            uncovered_districts(records, category, tree(), geography()),
            Vec::<String>::new(),
            "category {category}"
        );
    }
    assert!(records.iter().all(|r| r
        .coverage
        .radius_miles
        .is_none_or(|radius| radius <= MAX_DEMO_RADIUS_MILES)));
}

#[test]
fn below_the_full_coverage_size_remote_districts_may_stay_uncovered() {
    let uncovered = uncovered_districts(small_directory(), 17, tree(), geography());
    assert!(
        uncovered.iter().any(|district| district.starts_with("HS")),
        "{uncovered:?}"
    );
}

#[test]
fn uncovered_districts_follows_the_index_rule() {
    let sw1a = Postcode::parse("SW1A 1AA").unwrap();
    let base = geography().locate(&sw1a).unwrap().point;
    let mut trade = small_directory()[0].clone();
    trade.base_postcode = "SW1A 1AA".into();
    trade.active = true;
    trade.categories = vec![88];
    trade.coverage.radius_miles = Some(5.0);
    trade.coverage.districts = vec!["ZE1".into()];
    let all = geography().district_count();

    let uncovered = uncovered_districts(std::slice::from_ref(&trade), 10, tree(), geography());
    let within = geography()
        .districts()
        .filter(|(_, point)| base.distance_miles(point) <= 5.0)
        .count();
    assert_eq!(
        uncovered.len(),
        all - within - 1,
        "a parent reaches a trade of its sub category"
    );
    assert!(!uncovered.contains(&"SW1A".to_owned()) && !uncovered.contains(&"ZE1".to_owned()));
    assert!(uncovered.contains(&"M1".to_owned()));

    assert_eq!(
        uncovered_districts(std::slice::from_ref(&trade), 1335, tree(), geography()).len(),
        all,
        "a sibling sub category does not"
    );
    trade.active = false;
    assert_eq!(
        uncovered_districts(&[trade], 10, tree(), geography()).len(),
        all,
        "an inactive trade covers nothing"
    );
}

/// Paging over a directory the size of a town's, not a hand-made one.
#[test]
fn a_search_page_is_the_same_slice_of_the_full_search_order() {
    let geography = Geography::embedded();
    let tree = CategoryTree::embedded();
    let records = generate(&DemoOptions::new(3_000), tree, geography);
    let valid: Vec<_> = records
        .into_iter()
        .map(|r| r.validate(tree, geography).unwrap())
        .collect();
    let index = DirectoryIndex::new(valid.iter().map(|t| t.indexed()).collect(), tree);
    for (postcode, category) in [
        ("SW1A 1AA", 20),
        ("M1 1AE", 10),
        ("EH1 1YZ", 12),
        ("BT1 1AA", 20),
    ] {
        let postcode = Postcode::parse(postcode).unwrap();
        let location = geography.locate(&postcode);
        let full = index.search(category, &postcode, location);
        for (offset, limit) in [
            (0, 5),
            (5, 5),
            (3, 50),
            (full.len().saturating_sub(2), 5),
            (full.len() + 10, 5),
        ] {
            let (total, page) = index.search_page(category, &postcode, location, offset, limit);
            assert_eq!(total, full.len());
            let expected: Vec<_> = full.iter().skip(offset).take(limit).cloned().collect();
            assert_eq!(page, expected, "{postcode} {category} {offset} {limit}");
        }
    }
}
