//! The conformance check itself: the schemas written from the specification
//! refuse what the specification does not allow, so a passing suite means
//! something. (Every answer of every test is checked by `helpers::conformance`.)

use crate::helpers::conformance::{violations, SCHEMAS};
use serde_json::{json, Value};

const BEFORE: &str =
    include_str!("../../../../tests/conformance/fixtures/trade-search-before.json");

#[test]
fn the_search_answer_of_before_the_specification_fails_the_schema_on_each_difference() {
    let before: Value = serde_json::from_str(BEFORE).unwrap();
    let found = violations(&SCHEMAS.trade_search, &before).join("\n");
    for expected in [
        "/meta",                    // `page` instead of `currentPage`
        "/items/0/logoUrl",         // null where a string is required
        "/items/0/reviewsSummary",  // an object, not a string
        "/items/0/recentReviews/0", // the old review members
        "/items/0/images/0",        // the old image members
        "/items/1/reviewScore",     // null where a number is required
    ] {
        assert!(
            found.contains(&format!("at `{expected}`")),
            "expected a violation at {expected}; found:\n{found}"
        );
    }
}

#[test]
fn the_error_schema_allows_the_five_members_and_nothing_else() {
    let good = json!({"type": "https://www.rfc-editor.org/rfc/rfc9110#status.400", "status": 400,
        "title": "Bad Request", "detail": "x", "instance": "/v1/affiliate-job/jobs"});
    assert!(violations(&SCHEMAS.error, &good).is_empty());
    let mut extra = good.clone();
    extra["trace"] = json!("at line 3");
    assert!(!violations(&SCHEMAS.error, &extra).is_empty());
    let mut relative = good.clone();
    relative["instance"] = json!("v1/affiliate-job/jobs");
    assert!(!violations(&SCHEMAS.error, &relative).is_empty());
    let mut no_title = good;
    no_title["title"] = json!("");
    assert!(!violations(&SCHEMAS.error, &no_title).is_empty());
}

#[test]
fn a_creation_result_needs_a_uuid_and_recipients_with_exactly_three_members() {
    let good = json!({"id": "0b9d6c1e-3a2f-4c5d-8e7f-9a0b1c2d3e4f",
        "trades": [{"id": 1, "name": "A", "profileURL": "https://www.example-trades.co.uk/trades/1"}]});
    assert!(violations(&SCHEMAS.job_created, &good).is_empty());
    let mut extra = good.clone();
    extra["trades"][0]["email"] = json!("a@example.com");
    assert!(!violations(&SCHEMAS.job_created, &extra).is_empty());
    let mut not_uuid = good;
    not_uuid["id"] = json!("job-1");
    assert!(!violations(&SCHEMAS.job_created, &not_uuid).is_empty());
}
