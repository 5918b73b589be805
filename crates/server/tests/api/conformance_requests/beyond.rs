//! What a job request may carry beyond the specification, each leniency with
//! what is stored for it (docs/conformance.md, "Accepted beyond the
//! specification").

use super::form;
use crate::helpers::{api, spawn_app, trade, Signed, TestApp, TestKey};
use intake_api::jobs::JobView;
use intake_signature::{sign_with_times, Algorithm, Message};
use serde_json::{json, Value};

async fn app_with_trade() -> (TestApp, TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![trade(
        1,
        &[1335],
        "SW1A 2AA",
        Some(10.0),
        &["EC1A"],
        9.0,
    )])
    .await;
    (app, key)
}

/// A job of the `n`th homeowner (contacts differ, so the spam screen's
/// per-contact counts never add up).
fn job(n: usize) -> Value {
    json!({
        "categoryId": 1335,
        "description": "Boiler not working, no hot water since Monday.",
        "email": format!("homeowner.{n}@example.com"),
        "phone": format!("07700{:06}", 900_100 + n),
        "firstName": "Sam",
        "lastName": "Jones",
        "postcode": "SW1A 1AA"
    })
}

/// POSTs `body` to /jobs, expects 201 and reads the job back as stored.
async fn created(app: &TestApp, key: &TestKey, body: &Value) -> JobView {
    let response = app.post_json(key, "/jobs", body, &[]).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, 201, "{body}: {text}");
    let id = serde_json::from_str::<Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.client(key).get_job(&id).await.unwrap()
}

#[tokio::test]
async fn unknown_members_are_ignored_at_every_level() {
    let (app, key) = app_with_trade().await;
    let mut body = job(0);
    body["accountReference"] = json!("ACC-7");
    body["consumer"] = json!({"marketingOptIn": true});
    body["address"] = json!({"line1": "12 Acacia Avenue", "city": "London", "postcode": "SW1A 1AA", "county": "Greater London"});
    body["preferredStart"] = json!({"id": "FLEXIBLE", "label": "I'm flexible on start date"});
    let stored = created(&app, &key, &body).await;
    assert_eq!(stored.address.unwrap().line1, "12 Acacia Avenue");
    assert_eq!(stored.preferred_start.unwrap().id, "FLEXIBLE");
}

#[tokio::test]
async fn a_category_id_may_be_a_string_of_digits_or_a_whole_number_with_a_fraction_part() {
    let (app, key) = app_with_trade().await;
    for (n, id) in [json!("1335"), json!("01335"), json!(1335.0), json!(1.335e3)]
        .into_iter()
        .enumerate()
    {
        let mut body = job(n);
        body["categoryId"] = id;
        assert_eq!(created(&app, &key, &body).await.category_id, 1335);
    }
}

#[tokio::test]
async fn phone_separators_are_removed_and_the_number_stored_without_them() {
    let (app, key) = app_with_trade().await;
    for (n, (sent, kept)) in [
        ("+44 (0)7700 900-111", "+4407700900111"),
        ("07700.900.222", "07700900222"),
        ("(01632) 960 333", "01632960333"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut body = job(n);
        body["phone"] = json!(sent);
        assert_eq!(created(&app, &key, &body).await.consumer.phone, kept);
    }
}

#[tokio::test]
async fn postcodes_in_any_case_and_spacing_are_stored_upper_case_with_one_space() {
    let (app, key) = app_with_trade().await;
    for (n, (sent, kept)) in [
        ("sw1a1aa", "SW1A 1AA"),
        ("  Sw1A   1aA ", "SW1A 1AA"),
        ("SW1A\u{a0}1AA", "SW1A 1AA"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut body = job(n);
        body["postcode"] = json!(sent);
        body["address"] =
            json!({"line1": "1 St Martin's Le Grand", "city": "London", "postcode": "ec1a1bb"});
        let stored = created(&app, &key, &body).await;
        assert_eq!(stored.postcode, kept);
        assert_eq!(stored.address.unwrap().postcode, "EC1A 1BB");
    }
    // The specification writes `GIR 0AA` with its space; without it is read the same.
    let mut body = job(9);
    body["postcode"] = json!("gir0aa");
    let (content_type, form) = form::form(&body.to_string(), &[]);
    let response = app
        .post_raw(
            &key,
            "/verify/jobs/with-attachments",
            &content_type,
            form,
            &[],
        )
        .await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["body"]["postcode"], "GIR 0AA");
}

#[tokio::test]
async fn a_preferred_start_date_may_be_an_rfc_3339_date_time_of_which_the_date_is_kept() {
    let (app, key) = app_with_trade().await;
    for (n, sent) in [
        "2026-12-01",
        "2026-12-01T09:30:00+01:00",
        "2026-12-01T23:30:00Z",
    ]
    .into_iter()
    .enumerate()
    {
        let mut body = job(n);
        body["preferredStart"] = json!({"id": "WITHIN_1_MONTH", "date": sent});
        let stored = created(&app, &key, &body).await.preferred_start.unwrap();
        assert_eq!(stored.date.as_deref(), Some("2026-12-01"), "{sent}");
    }
}

#[tokio::test]
async fn null_stands_for_an_absent_optional_member_and_a_blank_address_line_for_an_absent_one() {
    let (app, key) = app_with_trade().await;
    let mut body = job(0);
    body["address"] = Value::Null;
    body["preferredStart"] = Value::Null;
    let stored = created(&app, &key, &body).await;
    assert_eq!((stored.address, stored.preferred_start), (None, None));

    let mut body = job(1);
    body["address"] = json!({"line1": "12 Acacia Avenue", "line2": null, "line3": "  ", "city": "London", "postcode": "SW1A 1AA"});
    body["preferredStart"] = json!({"id": "URGENT", "date": null});
    let stored = created(&app, &key, &body).await;
    let address = stored.address.unwrap();
    assert_eq!((address.line2, address.line3), (None, None));
    assert_eq!(stored.preferred_start.unwrap().date, None);
}

#[tokio::test]
async fn whitespace_around_text_members_is_trimmed() {
    let (app, key) = app_with_trade().await;
    let mut body = job(0);
    body["description"] = json!("\n  Boiler not working, no hot water since Monday.  ");
    body["email"] = json!(" homeowner.0@example.com ");
    body["firstName"] = json!(" Sam ");
    body["lastName"] = json!("Jones\u{a0} ");
    let stored = created(&app, &key, &body).await;
    assert_eq!(
        stored.description,
        "Boiler not working, no hot water since Monday."
    );
    assert_eq!(
        (
            stored.consumer.email.as_str(),
            stored.consumer.first_name.as_str(),
            stored.consumer.last_name.as_str()
        ),
        ("homeowner.0@example.com", "Sam", "Jones")
    );
}

#[tokio::test]
async fn a_json_body_may_name_its_charset() {
    let (app, key) = app_with_trade().await;
    for (n, content_type) in ["application/json; charset=utf-8", "Application/JSON"]
        .into_iter()
        .enumerate()
    {
        let body = serde_json::to_vec(&job(n)).unwrap();
        let response = app.post_raw(&key, "/jobs", content_type, body, &[]).await;
        assert_eq!(response.status(), 201, "{content_type}");
    }
}

/// A 1x1 GIF and a 1x1 lossless WebP, the smallest of their kind.
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
const WEBP: &[u8] = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00";

#[tokio::test]
async fn webp_and_gif_photos_are_accepted_as_the_similar_formats() {
    // "Up to 5 image files (JPEG, PNG and similar)": WebP and GIF are the similar ones.
    let (app, key) = app_with_trade().await;
    let (content_type, body) = form::form(
        &job(0).to_string(),
        &[
            ("loft.gif", "image/gif", GIF.to_vec()),
            ("tank.webp", "image/webp", WEBP.to_vec()),
        ],
    );
    let path = "/jobs/with-attachments";
    let response = app.post_raw(&key, path, &content_type, body, &[]).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, 201, "{}: {text}", api(path));
    let id = serde_json::from_str::<Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let stored = app.client(&key).get_job(&id).await.unwrap();
    let types: Vec<&str> = stored
        .images
        .iter()
        .map(|i| i.content_type.as_str())
        .collect();
    assert_eq!(types, ["image/gif", "image/webp"]);
}

#[tokio::test]
async fn a_signature_may_cover_created_instead_of_date() {
    // The later drafts replace `date` with the `(created)` pseudo-header
    // (`requests-http-signature` signs that way); no Date header is sent.
    let (app, key) = app_with_trade().await;
    let body = serde_json::to_vec(&job(0)).unwrap();
    let request = Signed {
        method: "POST".into(),
        path: api("/jobs"),
        headers: vec![
            ("host".into(), app.address.to_string()),
            ("content-type".into(), "application/json".into()),
        ],
        body: Vec::new(),
    }
    .with_body(&body);
    let mut message = Message::new("POST", api("/jobs"));
    for (name, value) in &request.headers {
        message.push_header(name, value);
    }
    let created = time::OffsetDateTime::now_utc().unix_timestamp();
    let authorization = sign_with_times(
        &message,
        &key.key_id,
        Algorithm::HmacSha256,
        key.secret.as_bytes(),
        &["(request-target)", "host", "(created)", "digest"],
        Some(created),
        None,
    )
    .unwrap()
    .to_authorization();
    assert!(authorization.contains("created="), "{authorization}");
    let response = request.send(&app, &authorization).await;
    assert_eq!(response.status(), 201);
}
