use crate::helpers::{created_body, fast_retries, spawn_stub, Answer, Recorded};
use intake_api::jobs::JobRequest;
use intake_client::{ClientError, Outcome, RetryPolicy};
use std::time::Duration;

fn job() -> JobRequest {
    serde_json::from_value(serde_json::json!({
        "categoryId": 1335,
        "description": "Boiler not working, no hot water since Monday.",
        "email": "sam.jones@example.com",
        "phone": "07900000000",
        "firstName": "Sam",
        "lastName": "Jones",
        "postcode": "SW1A 1AA"
    }))
    .unwrap()
}

/// Every request is the same submission: one key, one body, each freshly and validly signed.
fn assert_one_submission(requests: &[Recorded], key: &str) {
    for request in requests {
        assert_eq!(request.method, "POST");
        assert_eq!(request.target, "/v1/affiliate-job/jobs");
        assert_eq!(request.header("content-type"), Some("application/json"));
        assert_eq!(request.header("idempotency-key"), Some(key));
        assert_eq!(request.body, requests[0].body);
        assert!(request.header("date").is_some());
        request.verify_signature().unwrap();
    }
}

#[tokio::test]
async fn two_503s_then_201_succeed_on_the_third_attempt_with_one_key_and_body() {
    let busy = || Answer::problem_retry_after(503, "The store is unavailable.", "0");
    let stub = spawn_stub(vec![busy(), busy(), Answer::Created { replayed: false }]).await;

    let outcome = stub.client().create_job(&job()).await.unwrap();

    assert_eq!(outcome.attempts, 3);
    assert_eq!(outcome.status, 201);
    assert!(!outcome.replayed);
    assert_eq!(
        serde_json::to_value(&outcome.created).unwrap(),
        created_body()
    );
    assert!(uuid_like(&outcome.idempotency_key));
    let requests = stub.requests();
    assert_eq!(requests.len(), 3);
    assert_one_submission(&requests, &outcome.idempotency_key);
    let sent: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(sent, serde_json::to_value(job()).unwrap());
}

#[tokio::test]
async fn a_422_is_final_after_exactly_one_request() {
    let stub = spawn_stub(vec![Answer::problem(422, "Job classified as spam")]).await;

    let error = stub.client().create_job(&job()).await.unwrap_err();

    match error {
        ClientError::Problem { problem, .. } => {
            assert_eq!(problem.status, 422);
            assert_eq!(problem.detail, "Job classified as spam");
        }
        other => panic!("expected a problem, got {other:?}"),
    }
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn client_errors_are_never_retried_even_with_retry_after() {
    for status in [400, 401, 403, 404, 413, 415] {
        let answer = Answer::problem_retry_after(status, "no", "0");
        let stub = spawn_stub(vec![answer, Answer::Created { replayed: false }]).await;

        let error = stub.client().create_job(&job()).await.unwrap_err();

        assert_eq!(error.status(), Some(status));
        assert_eq!(stub.requests().len(), 1, "status {status}");
    }
}

#[tokio::test]
async fn an_in_flight_409_with_retry_after_is_retried_and_the_replay_reported() {
    let in_flight = Answer::problem_retry_after(409, "The request is still being processed.", "0");
    let stub = spawn_stub(vec![in_flight, Answer::Created { replayed: true }]).await;

    let outcome = stub.client().create_job(&job()).await.unwrap();

    assert_eq!(outcome.attempts, 2);
    assert!(outcome.replayed);
    let requests = stub.requests();
    assert_eq!(requests.len(), 2);
    assert_one_submission(&requests, &outcome.idempotency_key);
}

#[tokio::test]
async fn a_409_without_retry_after_is_a_key_reused_for_a_different_body_and_final() {
    let mismatch = Answer::problem(409, "The Idempotency-Key was used with a different body.");
    let stub = spawn_stub(vec![mismatch, Answer::Created { replayed: false }]).await;

    let error = stub.client().create_job(&job()).await.unwrap_err();

    assert_eq!(error.status(), Some(409));
    assert!(error.to_string().contains("different body"));
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn a_connection_dropped_after_the_request_is_retried_with_the_same_key() {
    let stub = spawn_stub(vec![Answer::Drop, Answer::Created { replayed: true }]).await;

    let outcome = stub.client().create_job(&job()).await.unwrap();

    assert_eq!(outcome.attempts, 2);
    assert!(outcome.replayed);
    let requests = stub.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].dropped && !requests[1].dropped);
    assert_one_submission(&requests, &outcome.idempotency_key);
}

#[tokio::test]
async fn a_proxy_502_without_a_problem_body_is_retried() {
    let stub = spawn_stub(vec![
        Answer::Html { status: 502 },
        Answer::Created { replayed: false },
    ])
    .await;

    let outcome = stub.client().create_job(&job()).await.unwrap();

    assert_eq!(outcome.attempts, 2);
}

#[tokio::test]
async fn max_attempts_bounds_the_requests_and_the_last_error_is_returned() {
    let limited = || Answer::problem_retry_after(429, "Rate limit exceeded.", "0");
    let stub = spawn_stub((0..10).map(|_| limited()).collect()).await;

    let error = stub
        .client_with(fast_retries(3))
        .create_job(&job())
        .await
        .unwrap_err();

    assert_eq!(error.status(), Some(429));
    assert_eq!(error.retry_after(), Some(Duration::ZERO));
    assert_eq!(stub.requests().len(), 3);
}

#[tokio::test]
async fn the_none_policy_sends_one_request() {
    let busy = Answer::problem_retry_after(503, "The store is unavailable.", "0");
    let stub = spawn_stub(vec![busy, Answer::Created { replayed: false }]).await;

    let error = stub
        .client_with(RetryPolicy::none())
        .create_job(&job())
        .await
        .unwrap_err();

    assert_eq!(error.status(), Some(503));
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn a_retry_after_beyond_the_time_budget_gives_up_instead_of_waiting() {
    // Backoff alone would retry within a millisecond; the service's
    // Retry-After of 30 s is what exceeds the 1 s budget.
    let busy = Answer::problem_retry_after(503, "The store is unavailable.", "30");
    let stub = spawn_stub(vec![busy, Answer::Created { replayed: false }]).await;
    let policy = RetryPolicy {
        max_delay: Duration::from_secs(60),
        max_elapsed: Duration::from_secs(1),
        ..fast_retries(5)
    };

    let error = stub
        .client_with(policy)
        .create_job(&job())
        .await
        .unwrap_err();

    assert_eq!(error.retry_after(), Some(Duration::from_secs(30)));
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn each_call_is_its_own_submission_and_a_given_key_is_used_as_is() {
    let created = || Answer::Created { replayed: false };
    let stub = spawn_stub(vec![created(), created(), created()]).await;
    let client = stub.client();

    let first = client.create_job(&job()).await.unwrap();
    let second = client.create_job(&job()).await.unwrap();
    let third = client
        .create_job_with_key(&job(), "order-42")
        .await
        .unwrap();

    assert_ne!(first.idempotency_key, second.idempotency_key);
    assert_eq!(third.idempotency_key, "order-42");
    let keys: Vec<_> = stub
        .requests()
        .iter()
        .map(|r| r.header("idempotency-key").unwrap().to_owned())
        .collect();
    assert_eq!(
        keys,
        [
            first.idempotency_key,
            second.idempotency_key,
            "order-42".into()
        ]
    );
}

#[tokio::test]
async fn json_from_a_file_is_sent_byte_for_byte_with_unknown_members() {
    let stub = spawn_stub(vec![Answer::Created { replayed: false }]).await;
    let json = br#"{"categoryId":"1335","futureField":{"x":[1,2]},"description":"d"}"#.to_vec();

    stub.client()
        .create_job_from_json(json.clone(), "k-1")
        .await
        .unwrap();

    let requests = stub.requests();
    assert_eq!(requests[0].body, json);
    requests[0].verify_signature().unwrap();
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_failure_worth_retrying() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = listener.local_addr().unwrap();
    drop(listener);
    let client = intake_client::Client::new(&format!("http://{closed}"), "k", "s")
        .unwrap()
        .with_retry(fast_retries(2));

    let error = client.create_job(&job()).await.unwrap_err();

    assert!(
        matches!(&error, ClientError::Network(e) if e.is_connect()),
        "{error:?}"
    );
    assert_eq!(Outcome::from(&error), Outcome::Transport);
}

fn uuid_like(key: &str) -> bool {
    key.len() == 36 && key.chars().filter(|c| *c == '-').count() == 4
}
