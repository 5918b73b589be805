// A signature that does not cover `(request-target)`, or a body it does not
// cover with a digest, is bound to the first request it came with: it cannot
// be moved to another method, path or body within its window.

use crate::helpers::{api, job_body, problem, spawn_app, trade, Signed, TestApp, TestKey};
use intake_signature::Algorithm;
use serde_json::Value;

/// Two boiler trades around Westminster, so `job_body()` is created.
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

fn options() -> String {
    api("/preferred-start-options")
}

/// A POST of `body` as JSON to `path` with Host and Date taken from `like`
/// (so a signature over `date` alone is the same for both), no Digest.
fn post_like(like: &Signed, path: &str, body: &Value) -> Signed {
    let mut headers: Vec<(String, String)> = like
        .headers
        .iter()
        .filter(|(name, _)| name == "host" || name == "date")
        .cloned()
        .collect();
    headers.push(("content-type".into(), "application/json".into()));
    Signed {
        method: "POST".into(),
        path: path.into(),
        headers,
        body: serde_json::to_vec(body).unwrap(),
    }
}

fn date_only(request: &Signed, key: &TestKey) -> String {
    request.authorization(key, Algorithm::HmacSha256, &["date"], &request.path)
}

async fn assert_moved_signature_refused(response: reqwest::Response, path: &str) {
    assert_eq!(response.headers()["www-authenticate"], "Signature");
    let body = problem(response, 401, path).await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("already used for another request")
            && detail.contains("(request-target)")
            && detail.contains("digest"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_date_only_signature_taken_from_a_read_is_refused_on_post_jobs_and_no_job_is_stored() {
    let (app, key) = app_with_trades().await;
    let read = Signed::get(&app, &options());
    let authorization = date_only(&read, &key);
    let moved = post_like(&read, &api("/jobs"), &job_body());
    assert_eq!(read.send(&app, &authorization).await.status(), 200);

    let response = moved.send(&app, &authorization).await;
    assert_moved_signature_refused(response, &api("/jobs")).await;
    assert_eq!(app.counts().await.jobs, 0);
    assert_eq!(app.counts().await.idempotency, 0);
}

#[tokio::test]
async fn a_date_only_signed_job_sent_twice_gets_the_first_answer_again_and_makes_one_job() {
    let (app, key) = app_with_trades().await;
    let first = post_like(&Signed::get(&app, "/"), &api("/jobs"), &job_body());
    let authorization = date_only(&first, &key);
    let again = post_like(&first, &api("/jobs"), &job_body());

    let created = first.send(&app, &authorization).await;
    assert_eq!(created.status(), 201);
    assert!(created.headers().get("idempotency-replayed").is_none());
    let created = created.text().await.unwrap();
    let replayed = again.send(&app, &authorization).await;
    assert_eq!(replayed.status(), 201);
    assert_eq!(replayed.headers()["idempotency-replayed"], "true");
    assert_eq!(replayed.text().await.unwrap(), created);
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn a_date_only_signature_sent_with_another_job_is_refused_with_401_and_creates_nothing() {
    let (app, key) = app_with_trades().await;
    let first = post_like(&Signed::get(&app, "/"), &api("/jobs"), &job_body());
    let authorization = date_only(&first, &key);
    let mut other_job = job_body();
    other_job["description"] = "Radiators cold upstairs, boiler pressure keeps dropping.".into();
    let other = post_like(&first, &api("/jobs"), &other_job);

    assert_eq!(first.send(&app, &authorization).await.status(), 201);
    let response = other.send(&app, &authorization).await;
    // 401 rather than the 409 of the stored signature scope: the binding is
    // checked with the signature, before the handler reads the job.
    assert_moved_signature_refused(response, &api("/jobs")).await;
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn a_date_only_signature_whose_first_job_was_refused_cannot_carry_another_job() {
    // A refused job leaves no idempotency record; the binding holds anyway.
    let (app, key) = app_with_trades().await;
    let mut invalid = job_body();
    invalid["phone"] = "12".into();
    let first = post_like(&Signed::get(&app, "/"), &api("/jobs"), &invalid);
    let authorization = date_only(&first, &key);
    let valid = post_like(&first, &api("/jobs"), &job_body());

    problem(first.send(&app, &authorization).await, 400, &api("/jobs")).await;
    let response = valid.send(&app, &authorization).await;
    assert_moved_signature_refused(response, &api("/jobs")).await;
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn a_read_signed_over_the_request_target_may_be_repeated_and_needs_no_entry() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let covered = &["(request-target)", "host", "date"];
    let request = Signed::get(&app, &options());
    let authorization = request.authorization(&key, Algorithm::HmacSha256, covered, &options());
    for _ in 0..3 {
        let repeat = Signed::get(&app, &options()).set("date", &request.headers[1].1);
        assert_eq!(repeat.send(&app, &authorization).await.status(), 200);
    }
    assert_eq!(app.state.bindings.held(), 0);

    // So does a job signed as the Rust client signs, over the target and a digest.
    app.post_json(&key, "/jobs", &job_body(), &[]).await;
    assert_eq!(app.state.bindings.held(), 0);
}

#[tokio::test]
async fn a_date_only_read_repeated_identically_is_answered_each_time() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let request = Signed::get(&app, &options());
    let authorization = date_only(&request, &key);
    for _ in 0..2 {
        let repeat = Signed::get(&app, &options()).set("date", &request.headers[1].1);
        assert_eq!(repeat.send(&app, &authorization).await.status(), 200);
    }
    assert_eq!(app.state.bindings.held(), 1);
}

#[tokio::test]
async fn a_signature_over_the_target_but_not_the_body_is_bound_to_its_first_body() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let covered = &["(request-target)", "host", "date"];
    let mut request = Signed::get(&app, &options());
    request.body = b"{\"hello\": \"world\"}".to_vec();
    let authorization = request.authorization(&key, Algorithm::HmacSha256, covered, &options());
    let date = request.headers[1].1.clone();
    assert_eq!(request.send(&app, &authorization).await.status(), 200);

    let mut other = Signed::get(&app, &options()).set("date", &date);
    other.body = b"{\"hello\": \"there\"}".to_vec();
    assert_moved_signature_refused(other.send(&app, &authorization).await, &options()).await;
}
