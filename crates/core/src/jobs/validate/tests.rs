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

/// Control characters of every kind: C0 (tab and line breaks included), DEL and C1.
const CONTROLS: [char; 12] = [
    '\t', '\n', '\r', '\0', '\u{7}', '\u{b}', '\u{c}', '\u{1b}', '\u{7f}', '\u{80}', '\u{85}',
    '\u{9f}',
];

/// The job with `value` at `path` (`address.city`, `preferredStart.date`),
/// and the members around it valid.
fn with_at(path: &str, value: &str) -> Value {
    let mut body = job();
    body["address"] = json!({"line1": "1 High St", "line2": "Flat 2", "line3": "Westminster", "city": "London", "postcode": "SW1A 1AA"});
    body["preferredStart"] = json!({"id": "URGENT", "date": "2026-12-01"});
    match path.split_once('.') {
        Some((outer, inner)) => body[outer][inner] = json!(value),
        None => body[path] = json!(value),
    }
    body
}

/// Each text member but the description, with a valid value.
const SINGLE_LINE_MEMBERS: [(&str, &str); 13] = [
    ("categoryId", "1335"),
    ("email", "sam.jones@example.com"),
    ("phone", "07900 000000"),
    ("firstName", "Sam"),
    ("lastName", "Jones"),
    ("postcode", "SW1A 1AA"),
    ("address.line1", "1 High St"),
    ("address.line2", "Flat 2"),
    ("address.line3", "Westminster"),
    ("address.city", "London"),
    ("address.postcode", "SW1A 1AA"),
    ("preferredStart.id", "URGENT"),
    ("preferredStart.date", "2026-12-01"),
];

#[test]
fn a_control_character_in_any_member_but_the_description_is_refused_naming_the_member() {
    for (path, valid) in SINGLE_LINE_MEMBERS {
        assert!(validate(&with_at(path, valid), tree()).is_ok(), "{path}");
        let middle = valid.len() / 2;
        for control in CONTROLS {
            // In the middle, and at the end where trimming would have hidden a line break.
            for sent in [
                format!("{}{control}{}", &valid[..middle], &valid[middle..]),
                format!("{valid}{control}"),
            ] {
                let errors = validate(&with_at(path, &sent), tree()).unwrap_err();
                let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
                assert_eq!(fields, [path], "{sent:?}");
                assert!(
                    errors[0]
                        .message
                        .starts_with("must not contain control characters")
                        && errors[0]
                            .message
                            .contains(&format!("U+{:04X}", u32::from(control))),
                    "{path} {sent:?}: {}",
                    errors[0].message
                );
            }
        }
    }
}

#[test]
fn a_refused_member_is_never_echoed_so_a_forged_line_reaches_no_message() {
    let forged = "Z\nZ FORGED-LINE\u{1b}[31m";
    let errors = validate(&with_at("postcode", forged), tree()).unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "`postcode` must not contain control characters (tabs and line breaks included) (found U+000A at character 2)"
    );
    let id = validate(&with_at("preferredStart.id", forged), tree()).unwrap_err();
    assert!(!id[0].message.contains("FORGED"), "{}", id[0].message);
}

#[test]
fn control_characters_in_several_members_are_all_named_in_one_answer() {
    let mut body = with_at("address.city", "Lon\u{0}don");
    body["firstName"] = json!("Sam\r");
    body["description"] = json!("Boiler not working,\u{1b}[2J no hot water.");
    body["preferredStart"]["date"] = json!("2026-12-01\n");
    assert_eq!(
        fields(validate(&body, tree())),
        [
            "description",
            "firstName",
            "address.city",
            "preferredStart.date"
        ]
    );
}

#[test]
fn the_description_keeps_line_breaks_and_tabs_with_crlf_and_a_lone_cr_as_lf() {
    let sent = "\r\nBoiler not working.\r\nNo hot water\rsince Monday.\n\n\tThanks\r\n";
    let kept = validate(&with("description", json!(sent)), tree()).unwrap();
    assert_eq!(
        kept.description,
        "Boiler not working.\nNo hot water\nsince Monday.\n\n\tThanks"
    );
    // A CRLF is one character of the eleven.
    let kept = validate(&with("description", json!("Fix the\r\ntap")), tree()).unwrap();
    assert_eq!(kept.description, "Fix the\ntap");
    assert_eq!(
        fields(validate(
            &with("description", json!("Fix th\r\ntap")),
            tree()
        )),
        ["description"]
    );
}

#[test]
fn any_other_control_character_in_the_description_is_refused() {
    for control in CONTROLS
        .into_iter()
        .filter(|c| !['\t', '\n', '\r'].contains(c))
    {
        let sent = format!("Boiler not working,{control} no hot water.");
        let errors = validate(&with("description", json!(sent)), tree()).unwrap_err();
        assert_eq!(errors.len(), 1, "{sent:?}");
        assert_eq!(errors[0].field, "description");
        assert_eq!(
            errors[0].message,
            format!(
                "must not contain control characters other than line breaks and tabs (found U+{:04X} at character 20)",
                u32::from(control)
            )
        );
    }
}

#[test]
fn the_documented_text_patterns_refuse_the_control_characters_validation_refuses() {
    let documented = |pattern: &str, text: &str| regex::Regex::new(pattern).unwrap().is_match(text);
    let description = "Boiler not working, no hot water.";
    for control in CONTROLS {
        let member = format!("Jo{control}nes");
        let description = format!("Boiler not{control} working, no hot water.");
        let date = format!("2026-12-01{control}");
        let accepted = validate(&with("description", json!(description)), tree()).is_ok();
        assert_eq!(
            documented(rules::DESCRIPTION_PATTERN, &description),
            accepted,
            "{description:?}"
        );
        assert!(!documented(rules::NOT_BLANK_PATTERN, &member), "{member:?}");
        assert!(!documented(rules::LINE_PATTERN, &member), "{member:?}");
        assert!(!documented(rules::DATE_PATTERN, &date), "{date:?}");
    }
    assert!(documented(rules::DESCRIPTION_PATTERN, description));
    assert!(documented(rules::NOT_BLANK_PATTERN, " Jo Nes "));
    assert!(!documented(rules::NOT_BLANK_PATTERN, " \u{a0} "));
    assert!(documented(rules::LINE_PATTERN, "") && documented(rules::LINE_PATTERN, "Flat 2"));
}

#[test]
fn the_documented_postcode_pattern_accepts_exactly_what_validation_accepts() {
    // The OpenAPI document states `rules::POSTCODE_PATTERN` for `postcode`
    // and `address.postcode`; an input it allows and validation refuses (or
    // the reverse) is a lie in the document.
    let documented = regex::Regex::new(rules::POSTCODE_PATTERN).unwrap();
    let outwards = [
        "M1", "M60", "W1A", "CR2", "DN55", "EC1A", "SW1A", "GIR", "AI1", "AZ1", "QA1", "X1",
        "SWA1", "SW123", "1A", "", "A", "AB1C2",
    ];
    let inwards = ["0AA", "1AE", "9ZZ", "1A", "11A", "AAA", "0AAX", ""];
    let separators = ["", " ", "  ", "\u{a0}", "\t", "-", " \n", "\r\n", "\u{85}"];
    let mut inputs: Vec<String> = Vec::new();
    for outward in outwards {
        for inward in inwards {
            for separator in separators {
                let joined = format!("{outward}{separator}{inward}");
                inputs.push(joined.to_ascii_lowercase());
                inputs.push(format!(" {joined} "));
                inputs.push(format!("{joined}\n"));
                inputs.push(joined);
            }
        }
    }
    inputs.extend(
        [
            "ŚW1A 1AA",
            "gIr 0aA",
            "GIR 0AB",
            "GIR 1AA",
            "XSW1A 1AA",
            "junkGIR 0AA",
        ]
        .map(String::from),
    );
    for input in &inputs {
        for path in ["postcode", "address.postcode"] {
            assert_eq!(
                documented.is_match(input),
                validate(&with_at(path, input), tree()).is_ok(),
                "{path} {input:?}: the documented pattern and validation disagree"
            );
        }
    }
}
