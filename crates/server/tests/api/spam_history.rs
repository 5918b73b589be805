//! The spam signals fed by the consumer's recent jobs: a lead sent again
//! through another key, and a burst of jobs from one e-mail address.

use crate::helpers::forms::job_form;
use crate::helpers::{api, job_body, problem, spawn_app, trade, Signed, TestApp, TestKey};
use intake_signature::Algorithm;
use serde_json::{json, Value};

/// Boiler trades around Westminster, and two affiliates' staging keys.
async fn app_with_two_affiliates() -> (TestApp, TestKey, TestKey) {
    let app = spawn_app().await;
    let first = app.staging_key().await;
    let second = app.staging_key().await;
    app.import(vec![
        trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0),
        trade(2, &[1335], "SE1 7PB", Some(10.0), &[], 9.5),
    ])
    .await;
    (app, first, second)
}

/// POSTs `body` to /jobs signed with an RFC 3339 date `offset_ms` from now,
/// so that the same body sent twice is two signed requests (the client's HTTP
/// date has whole seconds, and an identical signed request is a replay).
async fn post_distinct(
    app: &TestApp,
    key: &TestKey,
    body: &Value,
    offset_ms: i64,
) -> reqwest::Response {
    let date = (time::OffsetDateTime::now_utc() + time::Duration::milliseconds(offset_ms))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let mut request = Signed::get(app, &api("/jobs"))
        .set("date", &date)
        .set("content-type", "application/json")
        .with_body(&serde_json::to_vec(body).unwrap());
    request.method = "POST".into();
    let authorization = request.authorization(
        key,
        Algorithm::HmacSha256,
        &["(request-target)", "host", "date", "digest"],
        &api("/jobs"),
    );
    request.send(app, &authorization).await
}

/// The reasons kept with the only quarantined submission.
async fn quarantined_reasons(app: &TestApp) -> String {
    let kept = app.store.quarantined(false).await.unwrap();
    assert_eq!(kept.len(), 1, "{kept:?}");
    kept[0].reasons.clone()
}

#[tokio::test]
async fn the_same_consumer_and_description_through_a_second_key_is_spam_and_quarantined() {
    let (app, first, second) = app_with_two_affiliates().await;
    let response = app.post_json(&first, "/jobs", &job_body(), &[]).await;
    assert_eq!(response.status(), 201);

    // The second affiliate retypes it a little: the fingerprint ignores case
    // and punctuation.
    let mut resold = job_body();
    resold["description"] = json!("boiler not working - no hot water since Monday");
    let answer = problem(
        app.post_json(&second, "/jobs", &resold, &[]).await,
        422,
        &api("/jobs"),
    )
    .await;
    assert_eq!(answer["detail"], "Job classified as spam");
    assert_eq!(app.counts().await.jobs, 1);
    let kept = app.store.quarantined(false).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].key_id, second.key_id);
    assert!(
        kept[0].reasons.contains("repeat_across_keys")
            && kept[0].reasons.contains("through another key 1 time"),
        "{}",
        kept[0].reasons
    );
}

#[tokio::test]
async fn the_same_consumer_with_another_job_through_a_second_key_is_accepted() {
    let (app, first, second) = app_with_two_affiliates().await;
    assert_eq!(
        app.post_json(&first, "/jobs", &job_body(), &[])
            .await
            .status(),
        201
    );
    let mut other = job_body();
    other["description"] = json!("Radiators in the back bedroom stay cold, the rest are fine.");
    assert_eq!(
        app.post_json(&second, "/jobs", &other, &[]).await.status(),
        201
    );
    assert_eq!(app.counts().await.jobs, 2);
}

#[tokio::test]
async fn the_multipart_and_verify_endpoints_refuse_a_resold_lead_too() {
    let (app, first, second) = app_with_two_affiliates().await;
    assert_eq!(
        app.post_json(&first, "/jobs", &job_body(), &[])
            .await
            .status(),
        201
    );

    let form = job_form(&job_body(), &[]);
    let verify = "/verify/jobs/with-attachments";
    let answer = problem(
        app.post_form(&second, verify, &form, &[]).await,
        422,
        &api(verify),
    )
    .await;
    assert_eq!(answer["detail"], "Job classified as spam");
    assert!(
        app.store.quarantined(false).await.unwrap().is_empty(),
        "verify keeps nothing"
    );

    let path = "/jobs/with-attachments";
    let answer = problem(
        app.post_form(&second, path, &form, &[]).await,
        422,
        &api(path),
    )
    .await;
    assert_eq!(answer["detail"], "Job classified as spam");
    assert!(quarantined_reasons(&app)
        .await
        .contains("repeat_across_keys"));
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn a_same_key_repeat_is_no_resale_but_counts_towards_a_burst() {
    let (app, first, _) = app_with_two_affiliates().await;
    // Without an Idempotency-Key each signed request is a new job: the seventh
    // (weight 0.75) still passes.
    for n in 0..7 {
        let response = post_distinct(&app, &first, &job_body(), n).await;
        assert_eq!(response.status(), 201, "job {}", n + 1);
    }
    assert!(app.store.quarantined(false).await.unwrap().is_empty());
    assert_eq!(app.counts().await.jobs, 7);

    problem(
        post_distinct(&app, &first, &job_body(), 7).await,
        422,
        &api("/jobs"),
    )
    .await;
    let reasons = quarantined_reasons(&app).await;
    assert!(reasons.contains("contact_burst"), "{reasons}");
    assert!(
        reasons.contains("8 jobs from this e-mail address"),
        "{reasons}"
    );
    assert!(!reasons.contains("repeat_across_keys"), "{reasons}");
}

#[tokio::test]
async fn a_burst_of_different_jobs_from_one_email_tips_over() {
    let (app, first, second) = app_with_two_affiliates().await;
    let jobs = [
        "Boiler not working, no hot water since Monday.",
        "Radiators in the back bedroom stay cold, the rest are fine.",
        "Boiler pressure keeps dropping, needs topping up every day.",
        "Thermostat on the wall does nothing, heating stays on.",
        "Annual boiler service due, gas combi about six years old.",
        "Noisy boiler, loud banging when the heating comes on.",
        "Pilot light keeps going out on the old back boiler.",
        "Want a quote to replace a twenty year old boiler.",
    ];
    for (n, description) in jobs.iter().enumerate() {
        let mut body = job_body();
        body["description"] = json!(description);
        // A different phone each time: only the e-mail address is shared.
        body["phone"] = json!(format!("0790000000{n}"));
        let key = if n % 2 == 0 { &first } else { &second };
        let response = app.post_json(key, "/jobs", &body, &[]).await;
        if n < 7 {
            assert_eq!(response.status(), 201, "job {}", n + 1);
        } else {
            problem(response, 422, &api("/jobs")).await;
        }
    }
    assert_eq!(app.counts().await.jobs, 7);
    let reasons = quarantined_reasons(&app).await;
    assert!(
        reasons.contains("8 jobs from this e-mail address"),
        "{reasons}"
    );
}

#[tokio::test]
async fn with_the_store_gone_verify_gets_503_rather_than_an_unscreened_answer() {
    let (app, first, _) = app_with_two_affiliates().await;
    app.close_store().await;
    let verify = "/verify/jobs/with-attachments";
    let form = job_form(&job_body(), &[]);
    let response = app.post_form(&first, verify, &form, &[]).await;
    assert!(response.headers().contains_key("retry-after"));
    problem(response, 503, &api(verify)).await;
}
