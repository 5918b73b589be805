//! `POST /verify/jobs/with-attachments`: the service's reading of a job with
//! photos, answered without creating anything.

use crate::helpers::forms::job_form;
use crate::helpers::photos::{jpeg_with_gps, png};
use crate::helpers::{api, job_body, problem, spawn_app, trade, TestApp, TestKey};
use serde_json::{json, Value};

const PATH: &str = "/verify/jobs/with-attachments";

async fn app_with_trades() -> (TestApp, TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![
        trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0),
        trade(2, &[1335], "SE1 7PB", Some(10.0), &[], 9.5),
    ])
    .await;
    (app, key)
}

#[tokio::test]
async fn verify_answers_the_breakdown_without_credentials_and_creates_nothing() {
    let (app, key) = app_with_trades().await;
    let before = app.counts().await;
    let form = job_form(
        &job_body(),
        &[
            ("../boiler.jpg", jpeg_with_gps(32, 24)),
            ("plan.png", png(8, 8)),
        ],
    );
    let headers = [
        ("idempotency-key", "verify-1"),
        ("cookie", "session=abc"),
        ("x-api-key", "secret-key"),
        ("proxy-authorization", "Basic eDp5"),
        ("x-affiliate-ref", "ABC-1"),
    ];
    let response = app.post_form(&key, PATH, &form, &headers).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(
        answer["body"],
        json!({
            "categoryId": 1335,
            "description": "Boiler not working, no hot water since Monday.",
            "postcode": "SW1A 1AA",
            "creationSource": "api-with-attachments"
        })
    );
    assert_eq!(
        answer["consumer"],
        json!({"email": "sam.jones@example.com", "firstName": "Sam", "lastName": "Jones", "phone": "07900000000"})
    );
    let found = answer["foundTrades"].as_array().unwrap();
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].as_object().unwrap().len(), 2);
    assert!(found
        .iter()
        .all(|t| t["companyId"].is_u64() && t["name"].is_string()));
    assert_eq!(answer["images"], json!(["boiler.jpg", "plan.png"]));

    let echoed = answer["headers"].as_object().unwrap();
    for name in [
        "date",
        "digest",
        "host",
        "content-type",
        "idempotency-key",
        "x-affiliate-ref",
    ] {
        assert!(echoed.contains_key(name), "{name} missing from {echoed:?}");
    }
    for name in [
        "authorization",
        "signature",
        "cookie",
        "x-api-key",
        "proxy-authorization",
    ] {
        assert!(!echoed.contains_key(name), "{name} echoed: {echoed:?}");
    }
    let text = answer.to_string();
    assert!(
        !text.contains("secret-key")
            && !text.contains("session=abc")
            && !text.contains(&key.key_id)
    );

    assert_eq!(app.counts().await, before);
    assert!(app.stored_files().is_empty(), "{:?}", app.stored_files());
    // No idempotency record and no in-flight marker: the real endpoint takes the key afresh.
    let created = app
        .post_form(
            &key,
            "/jobs/with-attachments",
            &form,
            &[("idempotency-key", "verify-1")],
        )
        .await;
    assert_eq!(created.status(), 201);
    assert!(created.headers().get("idempotency-replayed").is_none());
}

#[tokio::test]
async fn verify_answers_no_trades_rather_than_a_404() {
    let (app, key) = app_with_trades().await;
    let mut job = job_body();
    job["postcode"] = json!("BT1 1AA");
    let response = app.post_form(&key, PATH, &job_form(&job, &[]), &[]).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["foundTrades"], json!([]));
    assert_eq!(answer["images"], json!([]));
}

#[tokio::test]
async fn verify_answers_422_for_spam() {
    let (app, key) = app_with_trades().await;
    let mut job = job_body();
    job["description"] = json!("Cheap SEO backlinks at http://spam.example.com/offer now");
    let response = app.post_form(&key, PATH, &job_form(&job, &[]), &[]).await;
    let answer = problem(response, 422, &api(PATH)).await;
    assert_eq!(answer["detail"], "Job classified as spam");
}

#[tokio::test]
async fn verify_answers_400_for_invalid_data_or_a_bad_image() {
    let (app, key) = app_with_trades().await;
    let mut job = job_body();
    job["phone"] = json!("12");
    let response = app.post_form(&key, PATH, &job_form(&job, &[]), &[]).await;
    let answer = problem(response, 400, &api(PATH)).await;
    assert!(
        answer["detail"].as_str().unwrap().contains("phone"),
        "{answer}"
    );

    let form = job_form(&job_body(), &[("notes.jpg", b"plain text".to_vec())]);
    let answer = problem(app.post_form(&key, PATH, &form, &[]).await, 400, &api(PATH)).await;
    let detail = answer["detail"].as_str().unwrap();
    assert!(
        detail.contains("`notes.jpg`") && detail.contains("JPEG, PNG, WebP and GIF"),
        "{detail}"
    );
}

#[tokio::test]
async fn verify_needs_a_signature() {
    let (app, _key) = app_with_trades().await;
    let form = job_form(&job_body(), &[]);
    let response = app
        .http
        .post(app.url(&api(PATH)))
        .header("content-type", form.content_type())
        .body(form.body)
        .send()
        .await
        .unwrap();
    problem(response, 401, &api(PATH)).await;
}

#[tokio::test]
async fn the_client_reads_the_verify_answer() {
    let (app, key) = app_with_trades().await;
    let result = app
        .client(&key)
        .verify_job_with_images(
            serde_json::to_vec(&job_body()).unwrap(),
            vec![("a.png".to_owned(), png(4, 4))],
        )
        .await
        .unwrap();
    assert_eq!(result.body.postcode, "SW1A 1AA");
    assert_eq!(result.images, ["a.png"]);
    assert_eq!(result.found_trades.len(), 2);
    assert!(!result.headers.contains_key("authorization"));
}

#[tokio::test]
async fn verify_echoes_the_request_id_only_when_the_client_sent_one() {
    let (app, key) = app_with_trades().await;
    let form = job_form(&job_body(), &[]);

    let response = app.post_form(&key, PATH, &form, &[]).await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers().contains_key("x-request-id"),
        "the answer still carries the id the server made"
    );
    let answer: Value = response.json().await.unwrap();
    assert!(
        !answer["headers"]
            .as_object()
            .unwrap()
            .contains_key("x-request-id"),
        "{answer}"
    );

    let sent = [("x-request-id", "affiliate-trace-7")];
    let response = app.post_form(&key, PATH, &form, &sent).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["headers"]["x-request-id"], "affiliate-trace-7");
}

/// `POST /verify/jobs`: the JSON twin, beyond the specification.
const JSON_PATH: &str = "/verify/jobs";

#[tokio::test]
async fn the_json_verify_answers_the_breakdown_of_post_jobs_and_creates_nothing() {
    let (app, key) = app_with_trades().await;
    let before = app.counts().await;
    let headers = [
        ("idempotency-key", "verify-json-1"),
        ("x-api-key", "secret-key"),
    ];
    let response = app.post_json(&key, JSON_PATH, &job_body(), &headers).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(
        answer["body"],
        json!({
            "categoryId": 1335,
            "description": "Boiler not working, no hot water since Monday.",
            "postcode": "SW1A 1AA",
            "creationSource": "api"
        })
    );
    assert_eq!(
        answer["consumer"],
        json!({"email": "sam.jones@example.com", "firstName": "Sam", "lastName": "Jones", "phone": "07900000000"})
    );
    assert_eq!(answer["foundTrades"].as_array().unwrap().len(), 2);
    assert_eq!(answer["images"], json!([]));
    let echoed = answer["headers"].as_object().unwrap();
    assert_eq!(echoed["content-type"], "application/json");
    assert_eq!(echoed["idempotency-key"], "verify-json-1");
    assert!(!echoed.contains_key("authorization") && !echoed.contains_key("x-api-key"));

    // Nothing kept: no job, no idempotency record; the real endpoint takes the key afresh.
    assert_eq!(app.counts().await, before);
    let created = app
        .post_json(
            &key,
            "/jobs",
            &job_body(),
            &[("idempotency-key", "verify-json-1")],
        )
        .await;
    assert_eq!(created.status(), 201);
    assert!(created.headers().get("idempotency-replayed").is_none());
}

#[tokio::test]
async fn the_json_verify_refuses_what_post_jobs_refuses() {
    let (app, key) = app_with_trades().await;
    let before = app.counts().await;
    let path = api(JSON_PATH);

    let mut invalid = job_body();
    invalid["phone"] = json!("12");
    let answer = problem(
        app.post_json(&key, JSON_PATH, &invalid, &[]).await,
        400,
        &path,
    )
    .await;
    assert!(
        answer["detail"].as_str().unwrap().contains("phone"),
        "{answer}"
    );

    let broken = app
        .post_raw(
            &key,
            JSON_PATH,
            "application/json",
            b"{\"categoryId\":".to_vec(),
            &[],
        )
        .await;
    let answer = problem(broken, 400, &path).await;
    assert!(
        answer["detail"]
            .as_str()
            .unwrap()
            .contains("not valid JSON"),
        "{answer}"
    );

    let form = job_form(&job_body(), &[]);
    let wrong_type = app
        .post_raw(&key, JSON_PATH, &form.content_type(), form.body, &[])
        .await;
    problem(wrong_type, 415, &path).await;

    let mut spam = job_body();
    spam["description"] = json!("Cheap SEO backlinks at http://spam.example.com/offer now");
    let answer = problem(app.post_json(&key, JSON_PATH, &spam, &[]).await, 422, &path).await;
    assert_eq!(answer["detail"], "Job classified as spam");

    let mut nowhere = job_body();
    nowhere["postcode"] = json!("BT1 1AA");
    let response = app.post_json(&key, JSON_PATH, &nowhere, &[]).await;
    assert_eq!(
        response.status(),
        200,
        "verify reports no trades rather than refusing"
    );
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["foundTrades"], json!([]));

    let unsigned = app
        .http
        .post(app.url(&path))
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&job_body()).unwrap())
        .send()
        .await
        .unwrap();
    problem(unsigned, 401, &path).await;
    // Nothing kept, not even the spam in quarantine.
    assert_eq!(app.counts().await, before);
    assert!(app.store.quarantined(true).await.unwrap().is_empty());
}
