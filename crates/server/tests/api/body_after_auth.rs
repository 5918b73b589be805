// The body is read only once the signature is good (issue 13): a request
// without a valid signature is answered from its head, before its body is
// sent, and the connection closed rather than drained; bodies read are held
// under a process-wide budget. Raw TCP where the order of bytes matters;
// every wait bounded by DEADLINE; nothing here asserts how fast anything is.

use crate::helpers::raw::{closed_within, connect, read_answer, signed_post_head, DEADLINE};
use crate::helpers::{api, job_body, problem, spawn_app, spawn_app_with, Signed, TestKey};
use intake_server::ServerConfig;
use intake_signature::Algorithm;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// A Content-Length no test ever sends in full.
const FORTY_MB: &str = "40000000";

fn jobs() -> String {
    api("/jobs")
}

/// A key id of the shape of a real one that the store does not have.
fn unknown_key() -> TestKey {
    TestKey {
        key_id: "stg_NoSuchKeyNoSuchKeyNoSuch".to_owned(),
        secret: "anything".to_owned(),
    }
}

#[tokio::test]
async fn an_unknown_or_wrongly_signed_large_body_is_refused_401_before_it_is_sent_and_the_connection_closed(
) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let wrong_secret = TestKey {
        key_id: key.key_id.clone(),
        secret: "not the secret".to_owned(),
    };
    for signer in [unknown_key(), wrong_secret] {
        let head = signed_post_head(
            &app,
            &signer,
            &jobs(),
            None,
            &[
                ("content-type", "application/json"),
                ("content-length", FORTY_MB),
            ],
        );
        let mut socket = connect(app.address).await;
        socket.write_all(head.as_bytes()).await.unwrap();
        socket.write_all(b"\r\n{\"description\": ").await.unwrap();

        let answer = read_answer(&mut socket, DEADLINE)
            .await
            .expect("an answer before the body");
        answer.problem(401, &jobs());
        assert_eq!(answer.header("www-authenticate"), Some("Signature"));
        assert!(
            closed_within(&mut socket, DEADLINE).await,
            "the server waited for the rest of the body"
        );
    }
    let budget = &app.state.body_budget;
    assert_eq!(budget.available_bytes(), budget.budget_bytes());
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn a_client_that_expects_100_continue_gets_its_401_without_being_asked_for_the_body() {
    let app = spawn_app().await;
    let head = signed_post_head(
        &app,
        &unknown_key(),
        &jobs(),
        None,
        &[
            ("content-type", "application/json"),
            ("content-length", FORTY_MB),
            ("expect", "100-continue"),
        ],
    );
    let mut socket = connect(app.address).await;
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(b"\r\n").await.unwrap();
    // The first answer is the final one: no `100 Continue` came before it.
    let answer = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    answer.problem(401, &jobs());
}

#[tokio::test]
async fn a_client_that_expects_100_continue_with_a_good_signature_is_asked_for_the_body() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let body = serde_json::to_vec(&job_body()).unwrap();
    let head = signed_post_head(
        &app,
        &key,
        &jobs(),
        Some(&body),
        &[
            ("content-type", "application/json"),
            ("expect", "100-continue"),
        ],
    );
    let mut socket = connect(app.address).await;
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(b"\r\n").await.unwrap();
    let go_on = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    assert_eq!(go_on.status, 100);
    socket.write_all(&body).await.unwrap();
    // Signed, read and checked: the job is judged (no trade covers it here).
    let answer = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    answer.problem(404, &jobs());
}

#[tokio::test]
async fn a_body_that_does_not_match_its_signed_digest_is_a_401_and_creates_nothing() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let signed_body = serde_json::to_vec(&job_body()).unwrap();
    let mut request = Signed {
        method: "POST".to_owned(),
        ..Signed::get(&app, &jobs())
    }
    .with_body(&signed_body)
    .set("content-type", "application/json");
    let covered = ["(request-target)", "host", "date", "digest"];
    let authorization = request.authorization(&key, Algorithm::HmacSha256, &covered, &jobs());
    // The same length, one byte changed.
    let mut sent = signed_body.clone();
    let at = sent.iter().position(|b| *b == b'B').unwrap();
    sent[at] = b'b';
    request.body = sent;

    let response = request.send(&app, &authorization).await;
    assert_eq!(response.headers()["www-authenticate"], "Signature");
    let body = problem(response, 401, &jobs()).await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("does not match the request body"),
        "{detail}"
    );
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn a_content_length_over_the_limit_is_a_413_before_the_body_is_sent() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let head = signed_post_head(
        &app,
        &key,
        &jobs(),
        None,
        &[
            ("content-type", "application/json"),
            ("content-length", FORTY_MB),
        ],
    );
    let mut socket = connect(app.address).await;
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(b"\r\n").await.unwrap();
    let answer = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    let problem = answer.problem(413, &jobs());
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains(FORTY_MB), "{detail}");
    assert!(closed_within(&mut socket, DEADLINE).await);
}

#[tokio::test]
async fn a_body_that_finds_the_budget_full_waits_then_gets_a_503_with_retry_after() {
    const BUDGET: usize = 64 * 1024;
    let app = spawn_app_with(ServerConfig {
        body_budget: BUDGET,
        body_limit: BUDGET,
        multipart_body_limit: BUDGET,
        ..ServerConfig::default()
    })
    .await;
    let key = app.staging_key().await;

    // A signed body that takes the whole budget, sent in part and held.
    let mut held_body = serde_json::to_vec(&job_body()).unwrap();
    held_body.resize(BUDGET - 200, b' ');
    let head = signed_post_head(
        &app,
        &key,
        &jobs(),
        Some(&held_body),
        &[("content-type", "application/json")],
    );
    let mut holder = connect(app.address).await;
    holder.write_all(head.as_bytes()).await.unwrap();
    holder.write_all(b"\r\n").await.unwrap();
    holder.write_all(&held_body[..1024]).await.unwrap();
    let budget = app.state.body_budget.clone();
    let deadline = tokio::time::Instant::now() + DEADLINE;
    while budget.available_bytes() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the budget was never taken"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let refused = app.post_json(&key, "/jobs", &job_body(), &[]).await;
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1);
    let body = problem(refused, 503, &jobs()).await;
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("nothing was created"), "{detail}");
    assert_eq!(app.counts().await.jobs, 0);

    // The held body arrives whole, its request is answered and gives its share back.
    holder.write_all(&held_body[1024..]).await.unwrap();
    let answer = read_answer(&mut holder, DEADLINE).await.expect("an answer");
    answer.problem(404, &jobs());
    assert_eq!(budget.available_bytes(), BUDGET);
    let again = app.post_json(&key, "/jobs", &job_body(), &[]).await;
    problem(again, 404, &jobs()).await;
}

#[tokio::test]
async fn a_client_sending_a_large_body_under_a_wrong_secret_reads_its_401_while_still_sending() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let wrong_secret = TestKey {
        key_id: key.key_id.clone(),
        secret: "not the secret".to_owned(),
    };
    let path = "/jobs/with-attachments";
    for _ in 0..3 {
        // 8 MiB: far more than the server reads with the head or the socket buffers hold.
        let body = vec![b'x'; 8 * 1024 * 1024];
        let request = app
            .client(&wrong_secret)
            .signed_request(
                reqwest::Method::POST,
                path,
                Some(("multipart/form-data; boundary=b", body)),
            )
            .unwrap();
        let response = app
            .http
            .execute(request)
            .await
            .expect("an answer, not a reset");
        problem(response, 401, &api(path)).await;
    }
    assert_eq!(app.counts().await.jobs, 0);
}
