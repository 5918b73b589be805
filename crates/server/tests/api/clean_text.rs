//! Clean text: a control character is refused in every member of a job but
//! the description, whose CRLF and lone CR are kept as LF; the same on every
//! job endpoint, and nothing is kept. Image file names lose theirs. What a
//! client sent is logged escaped (`clean_text/logs.rs`).

mod logs;

use crate::helpers::forms::job_form;
use crate::helpers::photos::png;
use crate::helpers::{api, job_body, problem, spawn_app, trade, TestApp, TestKey};
use intake_core::StoreCounts;
use serde_json::{json, Value};

const JOBS: &str = "/jobs";
const WITH_ATTACHMENTS: &str = "/jobs/with-attachments";
const VERIFY: &str = "/verify/jobs/with-attachments";

/// A boiler-repair trade covering Westminster, and a key.
async fn app_with_trade() -> (TestApp, TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    (app, key)
}

/// Sends `job` as each endpoint takes it: the JSON body of `/jobs`, the
/// `data` field of the multipart endpoints (with a photo).
async fn send(app: &TestApp, key: &TestKey, endpoint: &str, job: &Value) -> reqwest::Response {
    if endpoint == JOBS {
        app.post_json(key, endpoint, job, &[]).await
    } else {
        let form = job_form(job, &[("boiler.png", png(8, 8))]);
        app.post_form(key, endpoint, &form, &[]).await
    }
}

/// What the hostile client sent, and more: a control character in every
/// text member, of every kind (C0 with tab and line breaks, DEL, C1).
pub fn hostile_job() -> Value {
    json!({
        "categoryId": "13\u{0}35",
        "description": "Boiler not working,\u{7} no hot water since Monday.",
        "email": "sam.jones@example.com\r\nBcc: everyone@example.com",
        "phone": "07900\t000000",
        "firstName": "Sam\u{1b}[31m",
        "lastName": "Jones\r",
        "postcode": "Z\nZ FORGED-LINE\u{1b}[31m",
        "address": {
            "line1": "1 High St\u{0}",
            "line2": "Flat\u{85}2",
            "line3": "\u{9f}",
            "city": "London\n",
            "postcode": "SW1A\t1AA"
        },
        "preferredStart": {"id": "URGENT\u{7f}", "date": "2026-12-01\n"}
    })
}

/// Every member [`hostile_job`] spoils.
const MEMBERS: [&str; 14] = [
    "categoryId",
    "description",
    "email",
    "phone",
    "firstName",
    "lastName",
    "postcode",
    "address.line1",
    "address.line2",
    "address.line3",
    "address.city",
    "address.postcode",
    "preferredStart.id",
    "preferredStart.date",
];

#[tokio::test]
async fn control_characters_are_a_400_naming_every_member_on_every_job_endpoint_and_nothing_is_kept(
) {
    let (app, key) = app_with_trade().await;
    for endpoint in [JOBS, WITH_ATTACHMENTS, VERIFY] {
        let response = send(&app, &key, endpoint, &hostile_job()).await;
        let answer = problem(response, 400, &api(endpoint)).await;
        let detail = answer["detail"].as_str().unwrap();
        for member in MEMBERS {
            assert!(
                detail.contains(&format!("`{member}` must not contain control characters")),
                "{endpoint}: {member} missing from {detail}"
            );
        }
        // Named by code point and place; the text itself is never echoed.
        assert!(
            !detail.contains("FORGED") && !detail.chars().any(char::is_control),
            "{endpoint}: {detail:?}"
        );
    }
    assert_eq!(app.counts().await, StoreCounts::default());
    assert!(app.stored_files().is_empty(), "{:?}", app.stored_files());
}

#[tokio::test]
async fn a_description_sent_with_crlf_is_stored_and_answered_with_lf() {
    let (app, key) = app_with_trade().await;
    let sent = "Boiler not working.\r\nNo hot water since Monday.\rPlease call\tafter 5.\r\n";
    let kept = "Boiler not working.\nNo hot water since Monday.\nPlease call\tafter 5.";
    for (n, endpoint) in [JOBS, WITH_ATTACHMENTS].into_iter().enumerate() {
        let mut job = job_body();
        job["description"] = json!(sent);
        job["email"] = json!(format!("homeowner.{n}@example.com"));
        let response = send(&app, &key, endpoint, &job).await;
        assert_eq!(response.status(), 201, "{endpoint}");
        let id = response.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let stored = app.client(&key).get_job(&id).await.unwrap();
        assert_eq!(stored.description, kept, "{endpoint}");
    }
    let mut job = job_body();
    job["description"] = json!(sent);
    let response = send(&app, &key, VERIFY, &job).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["body"]["description"], kept);
}

#[tokio::test]
async fn a_tab_or_a_line_break_for_the_space_of_a_postcode_is_refused_though_the_published_pattern_allows_it(
) {
    let (app, key) = app_with_trade().await;
    for postcode in ["SW1A\t1AA", "SW1A\n1AA", "SW1A\r1AA"] {
        for member in ["postcode", "address"] {
            let mut job = job_body();
            if member == "address" {
                job["address"] =
                    json!({"line1": "1 High St", "city": "London", "postcode": postcode});
            } else {
                job["postcode"] = json!(postcode);
            }
            let answer = problem(app.post_json(&key, JOBS, &job, &[]).await, 400, &api(JOBS)).await;
            let expected = if member == "address" {
                "address.postcode"
            } else {
                "postcode"
            };
            assert!(
                answer["detail"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("`{expected}` must not contain control characters")),
                "{postcode:?}: {answer}"
            );
        }
    }
    assert_eq!(app.counts().await, StoreCounts::default());
}

#[tokio::test]
async fn image_file_names_lose_their_control_characters_where_they_are_shown_and_kept() {
    let (app, key) = app_with_trade().await;
    // A tab and C1 characters travel in a part's header; the name keeps the rest.
    let name = "kit\tchen\u{85}\u{9f}.png";
    let form = job_form(&job_body(), &[(name, png(8, 8))]);
    let response = app.post_form(&key, VERIFY, &form, &[]).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["images"], json!(["kitchen.png"]));

    let response = app.post_form(&key, WITH_ATTACHMENTS, &form, &[]).await;
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let stored = app.client(&key).get_job(&id).await.unwrap();
    assert_eq!(stored.images[0].file_name, "kitchen.png");

    // An escape cannot be in a part's header at all: the body is malformed.
    let form = job_form(&job_body(), &[("kitchen\u{1b}[31m.png", png(8, 8))]);
    let answer = problem(
        app.post_form(&key, VERIFY, &form, &[]).await,
        400,
        &api(VERIFY),
    )
    .await;
    assert!(
        answer["detail"].as_str().unwrap().contains("malformed"),
        "{answer}"
    );
}
