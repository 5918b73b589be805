// Hostile signature headers (issue 13): refused by their size with a 401 that names the limit,
// before anything is looked up or written.

use crate::helpers::{api, job_body, problem, spawn_app, TestApp, TestKey};
use intake_signature::{MAX_COVERED_HEADERS, MAX_HEADER_BYTES, MAX_PARAMETERS};
use reqwest::header::{HeaderValue, AUTHORIZATION};
use serde_json::Value;

/// A correctly signed POST /jobs whose Authorization header is then changed by `tamper`.
async fn post_job_with(
    app: &TestApp,
    key: &TestKey,
    tamper: impl FnOnce(&str) -> String,
) -> reqwest::Response {
    try_post_job_with(app, key, tamper).await.unwrap()
}

/// [`post_job_with`], for a request the server may cut off while it is sent.
async fn try_post_job_with(
    app: &TestApp,
    key: &TestKey,
    tamper: impl FnOnce(&str) -> String,
) -> reqwest::Result<reqwest::Response> {
    let body = serde_json::to_vec(&job_body()).unwrap();
    let mut request = app
        .client(key)
        .signed_request(
            reqwest::Method::POST,
            "/jobs",
            Some(("application/json", body)),
        )
        .unwrap();
    let signed = request.headers()[AUTHORIZATION]
        .to_str()
        .unwrap()
        .to_owned();
    let value = HeaderValue::from_str(&tamper(&signed)).unwrap();
    request.headers_mut().insert(AUTHORIZATION, value);
    app.http.execute(request).await
}

/// Checks a 401 problem with `WWW-Authenticate: Signature` and returns its detail.
async fn refused(response: reqwest::Response) -> String {
    assert_eq!(response.headers()["www-authenticate"], "Signature");
    let body: Value = problem(response, 401, &api("/jobs")).await;
    body["detail"].as_str().unwrap().to_owned()
}

/// The `n`th of distinct four-letter names.
fn name(n: usize) -> String {
    (0..4)
        .map(|place| char::from(b'a' + (n / 26usize.pow(place) % 26) as u8))
        .collect()
}

#[tokio::test]
async fn an_authorization_header_over_8_kib_is_refused_naming_the_limit_and_creates_nothing() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let before = app.counts().await;
    // 12 KiB: within the HTTP layer's 16 KiB for all headers, so the signature layer answers.
    let size = 12 * 1024;
    let detail = refused(
        post_job_with(&app, &key, |signed| {
            // Correctly signed, but padded with an unknown parameter.
            let pad = size - signed.len() - r#",pad="""#.len();
            format!(r#"{signed},pad="{}""#, "p".repeat(pad))
        })
        .await,
    )
    .await;
    assert!(
        detail.contains(&format!(
            "{size} bytes, over the limit of {MAX_HEADER_BYTES} bytes"
        )),
        "{detail}"
    );
    assert_eq!(app.counts().await, before);
}

#[tokio::test]
async fn a_400_kb_header_or_forty_thousand_parameters_are_refused_before_the_signature_is_read() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let before = app.counts().await;
    let padded = |signed: &str| {
        let pad = 400 * 1024 - signed.len() - r#",pad="""#.len();
        format!(r#"{signed},pad="{}""#, "p".repeat(pad))
    };
    let many = |signed: &str| {
        let extra: String = (0..40_000).map(|n| format!(r#",{}="""#, name(n))).collect();
        format!("{signed}{extra}")
    };
    for tamper in [&padded as &dyn Fn(&str) -> String, &many] {
        // The HTTP layer refuses a head this size (431) and may close the
        // connection while the client is still writing it: either way, refused.
        match try_post_job_with(&app, &key, tamper).await {
            Ok(response) => assert_eq!(response.status(), 431),
            Err(error) => assert!(!error.is_timeout(), "{error}"),
        }
    }
    assert_eq!(app.counts().await, before);
}

#[tokio::test]
async fn one_parameter_or_covered_name_over_its_limit_is_refused_naming_the_limit() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let before = app.counts().await;

    let detail = refused(
        post_job_with(&app, &key, |signed| {
            // The client signs four parameters.
            let extra: String = (4..=MAX_PARAMETERS)
                .map(|n| format!(r#",{}="""#, name(n)))
                .collect();
            format!("{signed}{extra}")
        })
        .await,
    )
    .await;
    assert!(
        detail.contains(&format!("more than {MAX_PARAMETERS} parameters")),
        "{detail}"
    );

    let detail = refused(
        post_job_with(&app, &key, |signed| {
            // Added in front of the names the client signs.
            let names: String = (0..MAX_COVERED_HEADERS)
                .map(|n| format!("x-{} ", name(n)))
                .collect();
            assert!(signed.contains("headers=\"(request-target) "), "{signed}");
            signed.replacen("headers=\"", &format!("headers=\"{names}"), 1)
        })
        .await,
    )
    .await;
    assert!(
        detail.contains(&format!("more than {MAX_COVERED_HEADERS} names")),
        "{detail}"
    );
    assert_eq!(app.counts().await, before);
}
