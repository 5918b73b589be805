//! The directory `intake serve` loads, asked through the index a server builds:
//! every place of the UK is served in the common categories and their busiest
//! sub categories, and the adjustment that makes it so stays small.

use super::{full, geography, tree};
use crate::local::regions;
use crate::{BUSY_SUB_CATEGORIES, COMMON_CATEGORIES, MAX_DEMO_RADIUS_MILES};
use intake_core::postcode::Postcode;
use std::collections::BTreeSet;

fn categories() -> impl Iterator<Item = u32> {
    COMMON_CATEGORIES.iter().chain(BUSY_SUB_CATEGORIES).copied()
}

/// Whether a job in `category` at `postcode` reaches a trade, the postcode
/// placed as a server places it.
fn served(postcode: &Postcode, category: u32) -> bool {
    let location = geography().locate(postcode);
    !(full().index.matches(category, postcode, location)).is_empty()
}

#[test]
fn jobs_from_northern_ireland_the_islands_and_the_far_north_are_served_in_every_common_and_busy_category(
) {
    let postcodes = [
        "BT1 5GS", "BT48 6DQ", "JE2 3AB", "GY1 2HL", "IM1 1AA", "KW15 1BX", "HS1 2BD",
    ];
    let mut unserved = Vec::new();
    for postcode in postcodes {
        let parsed = Postcode::parse(postcode).unwrap();
        unserved.extend(
            categories()
                .filter(|&category| !served(&parsed, category))
                .map(|category| format!("{postcode} in {category}")),
        );
    }
    assert_eq!(unserved, Vec::<String>::new());
}

#[test]
fn every_postcode_area_of_the_uk_is_served_in_every_common_and_busy_category() {
    let mut areas = BTreeSet::new();
    let mut unserved = Vec::new();
    let mut check = |postcode: Postcode| {
        areas.insert(postcode.area().to_owned());
        for category in categories() {
            if !served(&postcode, category) {
                unserved.push(format!("{postcode} in {category}"));
            }
        }
    };
    // In each district, a postcode of the sector furthest from the district's
    // centroid: the place a radius widened to the centroid would miss.
    for (district, centroid) in geography().districts() {
        let outlying = ('0'..='9')
            .filter_map(|digit| Some((digit, geography().sector(&format!("{district} {digit}"))?)))
            .max_by(|a, b| {
                centroid
                    .distance_m(&a.1)
                    .total_cmp(&centroid.distance_m(&b.1))
            })
            .map_or('9', |(digit, _)| digit);
        check(Postcode::parse(&format!("{district} {outlying}AA")).unwrap());
    }
    for region in regions() {
        for district in &region.districts {
            check(Postcode::parse(&format!("{district} 1AA")).unwrap());
        }
    }
    assert_eq!(unserved, Vec::<String>::new());
    let expected: BTreeSet<String> = (geography().districts())
        .map(|(district, _)| area(district))
        .chain(["BT", "GY", "IM", "JE"].map(str::to_owned))
        .collect();
    assert_eq!(areas, expected);
    assert_eq!(areas.len(), 124);
}

/// The leading letters of a district.
fn area(district: &str) -> String {
    district
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect()
}

#[test]
fn the_places_without_coordinates_have_active_local_trades_listing_their_districts() {
    let local: Vec<_> = (full().records.iter())
        .filter(|record| record.coverage.radius_miles.is_none())
        .collect();
    assert_eq!(local.len(), regions().len() * COMMON_CATEGORIES.len());
    assert_eq!(regions().len(), 9);
    for record in &local {
        let area = area(&record.base_postcode);
        assert!(
            ["BT", "GY", "IM", "JE"].contains(&area.as_str()),
            "{record:?}"
        );
        assert!(record.active);
        let district = record.base_postcode.split(' ').next().unwrap();
        let region = (regions().iter())
            .find(|region| region.homes.contains(&district))
            .unwrap_or_else(|| panic!("{} is based in a region", record.company_id));
        assert_eq!(record.coverage.districts, region.districts);
    }
    let listed: usize = regions().iter().map(|region| region.districts.len()).sum();
    assert_eq!(
        listed, 108,
        "81 in Northern Ireland, 5 in Jersey, 10 in Guernsey, 12 in Man"
    );
}

#[test]
fn the_coverage_adjustment_changes_few_trades_and_only_within_their_kind() {
    let full = full();
    let mut changed = 0;
    let (mut widened, mut widening, mut listing, mut registered) = (0u32, 0.0, 0, 0);
    for ((before, after), &kind) in full.draft.iter().zip(&full.records).zip(&full.kinds) {
        if before == after {
            continue;
        }
        changed += 1;
        if before.coverage.radius_miles != after.coverage.radius_miles {
            widened += 1;
            widening +=
                after.coverage.radius_miles.unwrap() - before.coverage.radius_miles.unwrap();
            assert!(after.coverage.radius_miles.unwrap() <= MAX_DEMO_RADIUS_MILES);
        }
        listing += usize::from(before.coverage.districts != after.coverage.districts);
        if before.categories != after.categories {
            registered += 1;
            assert_eq!(
                before.categories,
                after.categories[..before.categories.len()]
            );
            for &added in &after.categories[before.categories.len()..] {
                assert!(
                    full.demand.kinds()[kind].owns(tree(), added),
                    "{} ({}) took on {added}",
                    after.company_id,
                    after.company_name
                );
            }
        }
    }
    let figures = (
        full.uncovered,
        changed,
        widened,
        (widening / f64::from(widened)).round(),
        listing,
        registered,
    );
    // The figures documented on MIN_TRADES_FOR_FULL_COVERAGE.
    assert_eq!(figures, (3322, 292, 216, 15.0, 99, 119));
}
