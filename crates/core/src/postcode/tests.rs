use super::{Postcode, PostcodeError};

fn normal(input: &str) -> String {
    Postcode::parse(input)
        .unwrap_or_else(|e| panic!("{input:?} should parse: {e}"))
        .to_string()
}

fn rejected(input: &str) -> bool {
    Postcode::parse(input).is_err()
}

#[test]
fn every_outward_shape_of_the_pattern_is_accepted() {
    for (input, expected) in [
        ("M1 1AE", "M1 1AE"),     // A9 9AA
        ("M60 1NW", "M60 1NW"),   // A99 9AA
        ("W1A 0AX", "W1A 0AX"),   // A9A 9AA
        ("CR2 6XH", "CR2 6XH"),   // AA9 9AA
        ("DN55 1PT", "DN55 1PT"), // AA99 9AA
        ("EC1A 1BB", "EC1A 1BB"), // AA9A 9AA
        ("SW1A 1AA", "SW1A 1AA"), // AA9A 9AA
        ("GIR 0AA", "GIR 0AA"),   // the special case
        ("BT1 1AA", "BT1 1AA"),   // Northern Ireland
        ("JE2 3AB", "JE2 3AB"),   // Jersey
        ("GY1 1AA", "GY1 1AA"),   // Guernsey
        ("IM1 1AA", "IM1 1AA"),   // Isle of Man
    ] {
        assert_eq!(normal(input), expected);
    }
}

#[test]
fn case_and_spacing_are_normalised_to_upper_case_with_one_space() {
    assert_eq!(normal("sw1a1aa"), "SW1A 1AA");
    assert_eq!(normal("Sw1A 1aA"), "SW1A 1AA");
    assert_eq!(normal("  SW1A   1AA \n"), "SW1A 1AA");
    assert_eq!(normal("sw1a\t1aa"), "SW1A 1AA");
    assert_eq!(normal("GIR0aa"), "GIR 0AA");
    assert_eq!(normal("gir  0AA"), "GIR 0AA");
    assert_eq!(normal("m11ae"), "M1 1AE");
}

#[test]
fn the_pattern_is_anchored_as_a_whole() {
    assert!(rejected("XSW1A 1AA"));
    assert!(rejected("SW1A 1AAX"));
    assert!(rejected("GIR 0AAjunk"));
    assert!(rejected("junkGIR 0AA"));
    assert!(rejected("SW1A 1AA SW1A 1AA"));
}

#[test]
fn blank_input_is_reported_as_missing() {
    assert_eq!(Postcode::parse(""), Err(PostcodeError::Empty));
    assert_eq!(Postcode::parse("   "), Err(PostcodeError::Empty));
}

#[test]
fn text_that_is_not_shaped_like_a_postcode_is_rejected() {
    for input in [
        "SWIA",      // letters only / outward only
        "POSTCODE",  // letters only
        "12345",     // digits only
        "SW1A",      // outward code alone
        "1AA",       // inward code alone
        "SW1A 1A",   // short inward code
        "SW1A 11A",  // inward code must be digit letter letter
        "SW1A AAA",  // inward code must start with a digit
        "SWA1 1AA",  // three letters before the digit
        "SW123 1AA", // three digits
        "S W1A 1AA", // space inside the outward code
        "SW1A 1 AA", // space inside the inward code
        "SW1A-1AA",  // other separators
        "ŚW1A 1AA",  // non-ASCII letter
    ] {
        assert!(rejected(input), "{input:?} should be rejected");
    }
}

#[test]
fn the_second_letter_may_be_anything_but_i_or_z() {
    assert!(rejected("AI1 1AA"));
    assert!(rejected("AZ1 1AA"));
    assert!(rejected("AI1A 1AA"));
    assert!(rejected("AZ1A 1AA"));
    assert_eq!(normal("aj1 1aa"), "AJ1 1AA");
    assert_eq!(normal("AY1A 1AA"), "AY1A 1AA");
}

#[test]
fn the_published_pattern_allows_any_first_letter() {
    // Q, V and X never start a real postcode, but the government pattern the
    // contract names lets them through; matching is left to the geography.
    assert_eq!(normal("QA1 1AA"), "QA1 1AA");
    assert_eq!(normal("X1 1AA"), "X1 1AA");
}

#[test]
fn accessors_split_the_postcode_into_its_parts() {
    let p = Postcode::parse("sw1a 1aa").unwrap();
    assert_eq!(p.as_str(), "SW1A 1AA");
    assert_eq!(p.outward(), "SW1A");
    assert_eq!(p.district(), "SW1A");
    assert_eq!(p.inward(), "1AA");
    assert_eq!(p.sector(), "SW1A 1");
    assert_eq!(p.area(), "SW");

    let m = Postcode::parse("M60 1NW").unwrap();
    assert_eq!((m.outward(), m.sector(), m.area()), ("M60", "M60 1", "M"));

    let gir = Postcode::parse("GIR 0AA").unwrap();
    assert_eq!(
        (gir.outward(), gir.inward(), gir.area()),
        ("GIR", "0AA", "GIR")
    );
}

#[test]
fn the_error_message_names_the_input_and_shows_an_example() {
    let err = Postcode::parse(" XYZ ").unwrap_err();
    assert_eq!(
        err.to_string(),
        "`XYZ` is not a UK postcode (expected e.g. SW1A 1AA)"
    );
}

#[test]
fn a_long_rejected_input_is_shortened_in_the_error() {
    let err = Postcode::parse(&"A".repeat(1000)).unwrap_err();
    assert!(err.to_string().len() < 100, "{err}");
}

#[test]
fn serde_writes_a_string_and_reads_through_parse() {
    let p: Postcode = serde_json::from_str(r#""ec1a1bb""#).unwrap();
    assert_eq!(serde_json::to_string(&p).unwrap(), r#""EC1A 1BB""#);

    let err = serde_json::from_str::<Postcode>(r#""nope""#).unwrap_err();
    assert!(err.to_string().contains("is not a UK postcode"), "{err}");
}

#[test]
fn from_str_and_ordering_follow_the_normal_form() {
    let a: Postcode = "b1 1aa".parse().unwrap();
    let b: Postcode = "B1  1AA".parse().unwrap();
    let c: Postcode = "B2 1AA".parse().unwrap();
    assert_eq!(a, b);
    assert!(a < c);
    assert_eq!(String::from(c), "B2 1AA");
}
