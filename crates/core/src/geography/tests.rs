use super::{Geography, GeographyError, Point, Precision, Table};
use crate::postcode::Postcode;

const SECTORS: &str = "\
sector,easting,northing,latitude,longitude,postcodes
SW1A 1,529252,180099,51.50505,-0.13909,67
m1  1,384000,398000,53.47,-2.23,10
";

const DISTRICTS: &str = "\
outcode,easting,northing,latitude,longitude,postcodes
SW1A,529735,180060,51.50459,-0.13215,146
M1,384414,397883,53.47744,-2.23630,541
";

fn postcode(text: &str) -> Postcode {
    Postcode::parse(text).unwrap()
}

fn tiny() -> Geography {
    Geography::from_csv(SECTORS, DISTRICTS).unwrap()
}

#[test]
fn the_embedded_data_loads_every_sector_and_district() {
    let geo = Geography::embedded();
    assert_eq!(geo.sector_count(), 10_848);
    assert_eq!(geo.district_count(), 2_865);
    assert!(std::ptr::eq(geo, Geography::embedded()));
}

#[test]
fn a_westminster_postcode_is_located_at_its_sector_centroid() {
    let location = Geography::embedded().locate(&postcode("SW1A 1AA")).unwrap();
    assert_eq!(location.precision, Precision::Sector);
    assert_eq!(
        location.point,
        Point {
            easting: 529_252.0,
            northing: 180_099.0
        }
    );
}

#[test]
fn a_postcode_in_an_unknown_sector_falls_back_to_its_district() {
    // SW1A has sectors 0, 1 and 2 only.
    let location = Geography::embedded().locate(&postcode("SW1A 9ZZ")).unwrap();
    assert_eq!(location.precision, Precision::District);
    assert_eq!(
        location.point,
        Geography::embedded().district("SW1A").unwrap()
    );

    let tiny = tiny();
    let m1 = tiny.locate(&postcode("M1 2AB")).unwrap();
    assert_eq!(m1.precision, Precision::District);
    assert_eq!(m1.point.easting, 384_414.0);
}

#[test]
fn postcodes_outside_great_britain_are_valid_but_have_no_location() {
    let geo = Geography::embedded();
    for text in ["BT1 1AA", "JE2 3AB", "GY1 1AA", "IM1 1AA", "GIR 0AA"] {
        assert_eq!(geo.locate(&postcode(text)), None, "{text}");
    }
}

#[test]
fn london_to_manchester_is_about_260_km() {
    let geo = Geography::embedded();
    let london = geo.district("SW1A").unwrap();
    let manchester = geo.district("M1").unwrap();
    let km = london.distance_m(&manchester) / 1000.0;
    assert!((255.0..270.0).contains(&km), "{km} km");
    let miles = london.distance_miles(&manchester);
    assert!((158.0..168.0).contains(&miles), "{miles} miles");
    assert_eq!(london.distance_m(&london), 0.0);
}

#[test]
fn districts_are_listed_in_sorted_order_with_their_centroids() {
    let tiny = tiny();
    let listed: Vec<(&str, Point)> = tiny.districts().collect();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].0, "M1");
    assert_eq!(listed[1].0, "SW1A");
    assert_eq!(Some(listed[1].1), tiny.district("SW1A"));

    let all: Vec<&str> = Geography::embedded().districts().map(|(c, _)| c).collect();
    assert_eq!(all.len(), 2_865);
    assert!(all.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn lookups_accept_codes_in_any_case_and_spacing() {
    let tiny = tiny();
    assert_eq!(tiny.district("sw1a"), tiny.district("SW1A"));
    assert!(
        tiny.sector("m1 1").is_some(),
        "the file's `m1  1` is normalised"
    );
    assert_eq!(tiny.sector_centroid("SW1A 1").unwrap().postcodes, 67);
    assert_eq!(tiny.district("ZZ9"), None);
}

#[test]
fn a_table_with_the_wrong_header_is_refused() {
    let err = Geography::from_csv("code,x,y\n", DISTRICTS).unwrap_err();
    assert!(matches!(
        err,
        GeographyError::Header {
            table: Table::Sectors,
            ..
        }
    ));
    let err = Geography::from_csv(SECTORS, "").unwrap_err();
    assert!(matches!(
        err,
        GeographyError::Header {
            table: Table::Districts,
            ..
        }
    ));
}

#[test]
fn a_bad_row_is_reported_with_its_table_and_line() {
    let sectors = format!("{SECTORS}SW1A 2,east,180045,51.5,-0.12,76\n");
    let err = Geography::from_csv(&sectors, DISTRICTS).unwrap_err();
    assert_eq!(
        err.to_string(),
        "sectors table, line 4: easting `east` is not a number"
    );

    let districts = format!("{DISTRICTS}SW1A 1,1,2,3,4,5\n");
    let err = Geography::from_csv(SECTORS, &districts).unwrap_err();
    assert_eq!(
        err.to_string(),
        "districts table, line 4: `SW1A 1` is not a postcode district"
    );
}

#[test]
fn a_code_listed_twice_is_refused() {
    let districts = format!("{DISTRICTS}m1,1,2,3,4,5\n");
    let err = Geography::from_csv(SECTORS, &districts).unwrap_err();
    assert_eq!(
        err.to_string(),
        "districts table, line 4: `M1` appears twice"
    );
}
