use super::*;
use serde_json::json;

fn tree() -> &'static CategoryTree {
    CategoryTree::embedded()
}

fn job() -> Value {
    json!({
        "categoryId": 1335,
        "description": "Boiler not working, no hot water since Monday.",
        "email": "sam.jones@example.com",
        "phone": "07900 000000",
        "firstName": "Sam",
        "lastName": "Jones",
        "postcode": "sw1a1aa"
    })
}

fn with(member: &str, value: Value) -> Value {
    let mut body = job();
    body[member] = value;
    body
}

fn fields(result: Result<ValidatedJob, Vec<FieldError>>) -> Vec<String> {
    result.unwrap_err().into_iter().map(|e| e.field).collect()
}

#[test]
fn a_category_id_is_any_json_number_that_is_a_whole_number() {
    // JSON does not tell 1335 from 1335.0 or 1.335e3; Python writes a float id as 1335.0.
    for id in [
        json!(1335),
        json!(1335.0),
        json!(1.335e3),
        json!("1335"),
        json!("01335"),
    ] {
        let valid = validate(&with("categoryId", id.clone()), tree());
        assert_eq!(valid.map(|j| j.category_id), Ok(1335), "{id}");
    }
    for id in [
        json!(1335.5),
        json!(-1335),
        json!(0),
        json!(0.0),
        json!(1e300),
        json!("13 35"),
        json!("1335.0"),
        json!(""),
        json!(true),
    ] {
        assert_eq!(
            fields(validate(&with("categoryId", id.clone()), tree())),
            ["categoryId"],
            "{id}"
        );
    }
}

#[test]
fn the_documented_phone_pattern_accepts_exactly_what_parse_accepts() {
    let documented = regex::Regex::new(rules::PHONE_PATTERN).unwrap();
    let spec = regex::Regex::new(rules::SPEC_PHONE_PATTERN).unwrap();
    let inputs = [
        "12345",
        "+12345",
        "1234",
        "+1234",
        "123456789012345",
        "+123456789012345",
        "1234567890123456",
        "+1234567890123456",
        "07900 000000",
        "+44 (0) 7900-000.000",
        "(0161) 496-0000",
        " 07900000000 ",
        "++447900000000",
        "44+7900000000",
        "0790000000a",
        "07900\t000000",
        "",
        "+",
        "- ( ) .",
        "1 2 3 4 5",
        "١٢٣٤٥٦",
    ];
    for input in inputs {
        let parsed = Phone::parse(input);
        assert_eq!(
            documented.is_match(input),
            parsed.is_some(),
            "{input:?}: the documented pattern and parse disagree"
        );
        if let Some(phone) = parsed {
            assert!(spec.is_match(phone.as_str()), "{input:?} kept as {phone:?}");
        }
    }
}

#[test]
fn the_description_is_more_than_ten_characters_once_trimmed() {
    let accepted = validate(&with("description", json!("Fix the tap")), tree()).unwrap();
    assert_eq!(accepted.description, "Fix the tap");
    for short in ["Fix the ta", "  Fix the ta  ", "           "] {
        assert_eq!(
            fields(validate(&with("description", json!(short)), tree())),
            ["description"],
            "{short:?}"
        );
    }
    let documented = regex::Regex::new(rules::DESCRIPTION_PATTERN).unwrap();
    assert!(documented.is_match("Fix the tap") && documented.is_match("  Fix the tap\n"));
    assert!(!documented.is_match("  Fix the ta  "));
}

#[test]
fn optional_members_may_be_absent_or_null() {
    let mut body = job();
    body["address"] = Value::Null;
    body["preferredStart"] = Value::Null;
    let valid = validate(&body, tree()).unwrap();
    assert_eq!((valid.address, valid.preferred_start), (None, None));

    body["address"] = json!({"line1": "1 High St", "line2": null, "line3": "", "city": "London", "postcode": "SW1A 1AA"});
    body["preferredStart"] = json!({"id": "FLEXIBLE", "date": null});
    let valid = validate(&body, tree()).unwrap();
    let address = valid.address.unwrap();
    assert_eq!((address.line2, address.line3), (None, None));
    assert_eq!(valid.preferred_start.unwrap().date, None);
}

#[test]
fn a_preferred_start_date_is_a_calendar_date_or_an_rfc_3339_date_time() {
    let documented = regex::Regex::new(rules::DATE_PATTERN).unwrap();
    for (text, date) in [
        ("2026-12-01", Some("2026-12-01")),
        (" 2026-12-01 ", Some("2026-12-01")),
        ("2026-12-01T09:30:00Z", Some("2026-12-01")),
        ("2026-12-01T09:30:00.123+01:00", Some("2026-12-01")),
        ("2026-12-01 09:30:00z", Some("2026-12-01")),
        ("01/12/2026", None),
        ("2026-13-01", None),
        ("next week", None),
        ("2026-12-01T09:30", None),
    ] {
        let body = with("preferredStart", json!({"id": "URGENT", "date": text}));
        let result = validate(&body, tree());
        match date {
            Some(date) => {
                let kept = result.unwrap().preferred_start.unwrap().date.unwrap();
                assert_eq!(kept.to_string(), date, "{text:?}");
                assert!(documented.is_match(text), "{text:?}");
            }
            None => {
                assert_eq!(fields(result), ["preferredStart.date"], "{text:?}");
            }
        }
    }
}
