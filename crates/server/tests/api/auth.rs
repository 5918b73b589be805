use crate::helpers::{api, problem, spawn_app, Signed, TestKey};
use intake_core::Environment;
use intake_signature::Algorithm;
use std::time::{Duration, SystemTime};
use time::OffsetDateTime;

const FULL: &[&str] = &[
    "(request-target)",
    "host",
    "date",
    "digest",
    "content-length",
];

fn options() -> String {
    api("/preferred-start-options")
}

#[tokio::test]
async fn every_algorithm_and_both_target_forms_are_accepted() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    for algorithm in Algorithm::ALL {
        for target in [options(), "/preferred-start-options".to_owned()] {
            for covered in [&["date"][..], &["(request-target)", "host", "date"][..]] {
                let request = Signed::get(&app, &options());
                let authorization = request.authorization(&key, algorithm, covered, &target);
                let response = request.send(&app, &authorization).await;
                assert_eq!(response.status(), 200, "{algorithm} {target} {covered:?}");
            }
        }
        let request = Signed::get(&app, &options()).with_body(b"{\"hello\": \"world\"}");
        let authorization = request.authorization(&key, algorithm, FULL, &options());
        assert_eq!(
            request.send(&app, &authorization).await.status(),
            200,
            "{algorithm} full coverage"
        );
    }
}

#[tokio::test]
async fn an_unsigned_request_gets_401_with_www_authenticate_and_how_to_sign() {
    let app = spawn_app().await;
    let response = app.http.get(app.url(&options())).send().await.unwrap();
    assert_eq!(response.headers()["www-authenticate"], "Signature");
    let body = problem(response, 401, &options()).await;
    assert_eq!(body["title"], "Unauthorized");
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .contains("Authorization: Signature keyId="));
}

#[tokio::test]
async fn a_wrong_secret_gets_the_signing_string_but_never_the_expected_signature() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let wrong = TestKey {
        key_id: key.key_id.clone(),
        secret: "not-the-secret".into(),
    };
    let request = Signed::get(&app, &options());
    let date = request
        .headers
        .iter()
        .find(|(n, _)| n == "date")
        .unwrap()
        .1
        .clone();
    let right = request.authorization(
        &key,
        Algorithm::HmacSha256,
        &["(request-target)", "host", "date"],
        &options(),
    );
    let authorization = request.authorization(
        &wrong,
        Algorithm::HmacSha256,
        &["(request-target)", "host", "date"],
        &options(),
    );
    let response = request.send(&app, &authorization).await;
    assert_eq!(response.headers()["www-authenticate"], "Signature");
    let body = problem(response, 401, &options()).await;
    let detail = body["detail"].as_str().unwrap();
    let expected_lines = format!(
        "(request-target): get {}\\nhost: {}\\ndate: {date}",
        options(),
        app.address
    );
    assert!(detail.contains(&expected_lines), "{detail}");
    let right_signature = right
        .split("signature=\"")
        .nth(1)
        .unwrap()
        .trim_end_matches('"');
    assert!(
        !detail.contains(right_signature),
        "the expected signature leaked: {detail}"
    );
}

#[tokio::test]
async fn an_unknown_key_and_a_wrong_secret_get_the_same_answer() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let request = Signed::get(&app, &options());
    let wrong_secret = request.authorization(
        &TestKey {
            key_id: key.key_id.clone(),
            secret: "nope".into(),
        },
        Algorithm::HmacSha256,
        &["date"],
        &options(),
    );
    let unknown_key = request.authorization(
        &TestKey {
            key_id: "stg_doesnotexist".into(),
            secret: "nope".into(),
        },
        Algorithm::HmacSha256,
        &["date"],
        &options(),
    );
    let first = problem(
        Signed::get(&app, &options())
            .set("date", &request.headers[1].1)
            .send(&app, &wrong_secret)
            .await,
        401,
        &options(),
    )
    .await;
    let second = problem(request.send(&app, &unknown_key).await, 401, &options()).await;
    assert_eq!(first, second);
}

#[tokio::test]
async fn a_revoked_key_is_refused_from_the_next_request() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let client = app.client(&key);
    assert!(client.preferred_start_options().await.is_ok());
    app.store
        .revoke_key(&key.key_id, OffsetDateTime::now_utc())
        .await
        .unwrap();
    let error = client.preferred_start_options().await.unwrap_err();
    assert_eq!(error.status(), Some(401));
}

#[tokio::test]
async fn a_key_of_the_other_environment_is_refused_with_a_clear_reason() {
    let app = spawn_app().await;
    let production = app.key(Environment::Production, "").await;
    let request = Signed::get(&app, &options());
    let authorization =
        request.authorization(&production, Algorithm::HmacSha256, &["date"], &options());
    let body = problem(request.send(&app, &authorization).await, 401, &options()).await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("production") && detail.contains("staging"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_date_outside_the_skew_is_refused_and_an_iso_date_inside_it_is_accepted() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let stale = httpdate::fmt_http_date(SystemTime::now() - Duration::from_secs(600));
    let request = Signed::get(&app, &options()).set("date", &stale);
    let authorization = request.authorization(
        &key,
        Algorithm::HmacSha256,
        &["(request-target)", "date"],
        &options(),
    );
    let body = problem(request.send(&app, &authorization).await, 401, &options()).await;
    assert!(body["detail"].as_str().unwrap().contains("300"), "{body}");

    let iso = OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let request = Signed::get(&app, &options()).set("date", &iso);
    let authorization = request.authorization(
        &key,
        Algorithm::HmacSha512,
        &["(request-target)", "date"],
        &options(),
    );
    assert_eq!(request.send(&app, &authorization).await.status(), 200);
}

#[tokio::test]
async fn a_tampered_path_or_query_is_refused() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let covered = &["(request-target)", "host", "date"];
    let request = Signed::get(&app, &format!("{}?page=2", options()));
    let authorization = request.authorization(&key, Algorithm::HmacSha256, covered, &options());
    problem(request.send(&app, &authorization).await, 401, &options()).await;

    let request = Signed::get(&app, &options());
    let authorization = request.authorization(&key, Algorithm::HmacSha256, covered, &api("/jobs"));
    problem(request.send(&app, &authorization).await, 401, &options()).await;
}

#[tokio::test]
async fn a_body_changed_while_the_digest_is_signed_is_refused() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let mut request = Signed::get(&app, &options()).with_body(b"{\"hello\": \"world\"}");
    let authorization = request.authorization(&key, Algorithm::HmacSha256, FULL, &options());
    request.body = b"{\"hello\": \"World\"}".to_vec();
    let body = problem(request.send(&app, &authorization).await, 401, &options()).await;
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("digest"),
        "{body}"
    );
}

#[tokio::test]
async fn a_key_policy_demands_its_coverage() {
    let app = spawn_app().await;
    let key = app
        .key(Environment::Staging, "(request-target) host date digest")
        .await;
    let request = Signed::get(&app, &options());
    let authorization = request.authorization(&key, Algorithm::HmacSha256, &["date"], &options());
    let body = problem(request.send(&app, &authorization).await, 401, &options()).await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("(request-target)") && detail.contains("digest"),
        "{detail}"
    );

    let request = Signed::get(&app, &options()).with_body(b"");
    let authorization = request.authorization(&key, Algorithm::HmacSha256, FULL, &options());
    assert_eq!(request.send(&app, &authorization).await.status(), 200);
}

#[tokio::test]
async fn a_malformed_signature_header_is_refused_with_what_is_wrong() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    for (header, hint) in [
        (
            format!(
                "Signature keyId=\"{}\",algorithm=\"hmac-sha256\",signature=\"\"",
                key.key_id
            ),
            "signature",
        ),
        (
            format!(
                "Signature keyId=\"{}\",algorithm=\"hmac-md5\",signature=\"AAAA\"",
                key.key_id
            ),
            "algorithm",
        ),
        (
            "Signature algorithm=\"hmac-sha256\",signature=\"AAAA\"".to_owned(),
            "keyId",
        ),
        ("Bearer abc".to_owned(), "Signature"),
    ] {
        let request = Signed::get(&app, &options());
        let body = problem(request.send(&app, &header).await, 401, &options()).await;
        assert!(
            body["detail"].as_str().unwrap().contains(hint),
            "{header}: {body}"
        );
    }
}

#[tokio::test]
async fn a_signature_header_may_stand_in_for_authorization() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let request = Signed::get(&app, &options());
    let authorization = request.authorization(
        &key,
        Algorithm::HmacSha1,
        &["(request-target)", "host", "date"],
        &options(),
    );
    let value = authorization.trim_start_matches("Signature ").to_owned();
    let mut builder = app.http.get(app.url(&options())).header("signature", value);
    for (name, v) in &request.headers {
        if name != "host" {
            builder = builder.header(name.as_str(), v.as_str());
        }
    }
    assert_eq!(builder.send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn repeated_empty_and_padded_headers_are_canonicalised_over_raw_tcp() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let target = format!("{}?a=1&b=%2F", options());
    let date = httpdate::fmt_http_date(SystemTime::now());
    let covered = [
        "(request-target)",
        "host",
        "date",
        "cache-control",
        "x-emptyheader",
        "x-example",
    ];
    let message = intake_signature::Message::new("GET", &target)
        .header("Host", &app.address.to_string())
        .header("Date", &date)
        .header("Cache-Control", "max-age=60")
        .header("Cache-Control", "must-revalidate")
        .header("X-EmptyHeader", "")
        .header("X-Example", "Example header with some whitespace.");
    let signature = intake_signature::sign(
        &message,
        &key.key_id,
        Algorithm::HmacSha256,
        key.secret.as_bytes(),
        &covered,
    )
    .unwrap();
    let raw = format!(
        "GET {target} HTTP/1.1\r\nHost: {}\r\nDate: {date}\r\nCache-Control: max-age=60\r\nCache-Control:    must-revalidate\r\nX-EmptyHeader:\r\nX-Example:    Example header with some whitespace.   \r\nAuthorization: {}\r\nConnection: close\r\n\r\n",
        app.address,
        signature.to_authorization()
    );
    let mut socket = tokio::net::TcpStream::connect(app.address).await.unwrap();
    socket.write_all(raw.as_bytes()).await.unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("PLANNING_AND_BUDGETING"));
}
