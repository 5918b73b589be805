// Connection hygiene (issue 13): slow, idle and stalling clients are cut
// off, open connections are capped, and answers the HTTP layer would give
// with an empty body carry the problem body. Short timeouts are configured
// and every wait is bounded by DEADLINE; no test asserts how fast anything is.

use crate::helpers::raw::{
    closed_within, connect, exchange, get, read_answer, signed_post_head, DEADLINE,
};
use crate::helpers::{api, job_body, problem, spawn_app, spawn_app_with};
use intake_server::{ConnectionLimits, ServerConfig};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

fn with(connections: ConnectionLimits) -> ServerConfig {
    ServerConfig {
        connections,
        ..ServerConfig::default()
    }
}

const SECOND: Duration = Duration::from_secs(1);
const MINUTE: Duration = Duration::from_secs(60);

#[tokio::test]
async fn a_head_sent_a_byte_at_a_time_is_cut_off_after_the_header_read_timeout() {
    let app = spawn_app_with(with(ConnectionLimits {
        header_read_timeout: SECOND,
        idle_timeout: MINUTE,
        ..ConnectionLimits::default()
    }))
    .await;
    let mut slow = Vec::new();
    for _ in 0..10 {
        let (mut reader, mut writer) = connect(app.address).await.into_split();
        // A head that never ends, a byte every 200 ms (at most 100 bytes).
        let dribble = tokio::spawn(async move {
            let head = format!("GET /healthz HTTP/1.1\r\nX-Slow: {}", "a".repeat(100));
            for byte in head.bytes().take(100) {
                if writer.write_all(&[byte]).await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        slow.push(tokio::spawn(async move {
            let closed = closed_within(&mut reader, DEADLINE).await;
            dribble.abort();
            closed
        }));
    }
    for connection in slow {
        assert!(
            connection.await.unwrap(),
            "a slow head kept its connection, or got an answer"
        );
    }
    let answer = exchange(&mut connect(app.address).await, &get("/healthz")).await;
    assert_eq!(answer.map(|answer| answer.status), Some(200));
}

#[tokio::test]
async fn connections_that_send_nothing_are_closed_after_the_header_read_timeout() {
    let app = spawn_app_with(with(ConnectionLimits {
        header_read_timeout: SECOND,
        idle_timeout: MINUTE,
        ..ConnectionLimits::default()
    }))
    .await;
    let mut idle = Vec::new();
    for _ in 0..50 {
        idle.push(connect(app.address).await);
    }
    let closed = futures::future::join_all(
        idle.iter_mut()
            .map(|socket| closed_within(socket, DEADLINE)),
    )
    .await;
    assert!(closed.iter().all(|closed| *closed), "{closed:?}");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_idle_timeout() {
    // The header timeout is longer than the deadline: only the idle timeout can close it.
    let app = spawn_app_with(with(ConnectionLimits {
        header_read_timeout: MINUTE,
        idle_timeout: SECOND,
        ..ConnectionLimits::default()
    }))
    .await;
    let mut socket = connect(app.address).await;
    let answer = exchange(&mut socket, &get("/healthz")).await.unwrap();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, br#"{"status":"ok"}"#);
    assert_eq!(answer.header("connection"), None, "kept alive");
    assert!(closed_within(&mut socket, DEADLINE).await);
}

#[tokio::test]
async fn a_keep_alive_connection_idle_longer_than_the_header_timeout_still_serves_its_next_request()
{
    let app = spawn_app_with(with(ConnectionLimits {
        header_read_timeout: SECOND,
        idle_timeout: MINUTE,
        ..ConnectionLimits::default()
    }))
    .await;
    let mut socket = connect(app.address).await;
    assert_eq!(
        exchange(&mut socket, &get("/healthz"))
            .await
            .unwrap()
            .status,
        200
    );
    // Idle for three header timeouts: only the idle timeout applies between requests.
    tokio::time::sleep(3 * SECOND).await;
    assert_eq!(
        exchange(&mut socket, &get("/readyz")).await.unwrap().status,
        200
    );
}

#[tokio::test]
async fn past_the_connection_cap_new_connections_wait_and_are_served_once_others_close() {
    let app = spawn_app_with(with(ConnectionLimits {
        header_read_timeout: MINUTE,
        idle_timeout: MINUTE,
        max_connections: 20,
        ..ConnectionLimits::default()
    }))
    .await;
    // Twenty kept-alive connections, each served once: the cap is full.
    let mut held = Vec::new();
    for _ in 0..20 {
        let mut socket = connect(app.address).await;
        assert_eq!(
            exchange(&mut socket, &get("/healthz"))
                .await
                .unwrap()
                .status,
            200
        );
        held.push(socket);
    }
    // More connections than the cap: they connect (the backlog holds them) but are not served.
    let mut waiting = Vec::new();
    for _ in 0..10 {
        let mut socket = connect(app.address).await;
        socket.write_all(get("/healthz").as_bytes()).await.unwrap();
        waiting.push(socket);
    }
    assert!(
        read_answer(&mut waiting[0], SECOND).await.is_none(),
        "a connection past the cap was served while the cap was full"
    );

    drop(held);
    for socket in &mut waiting {
        let answer = read_answer(socket, DEADLINE).await;
        assert_eq!(answer.map(|answer| answer.status), Some(200));
    }
    // The server is still whole.
    let health = app.http.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
}

#[tokio::test]
async fn a_body_that_stalls_is_a_408_problem_and_the_connection_is_closed() {
    let app = spawn_app_with(with(ConnectionLimits {
        body_read_timeout: SECOND,
        ..ConnectionLimits::default()
    }))
    .await;
    let key = app.staging_key().await;
    let path = api("/jobs");
    let body = serde_json::to_vec(&job_body()).unwrap();
    let head = signed_post_head(
        &app,
        &key,
        &path,
        Some(&body),
        &[("content-type", "application/json")],
    );
    let mut socket = connect(app.address).await;
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(b"\r\n").await.unwrap();
    socket.write_all(&body[..10]).await.unwrap();

    let answer = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    let problem = answer.problem(408, &path);
    assert_eq!(problem["title"], "Request Timeout");
    assert_eq!(answer.header("connection"), Some("close"));
    assert!(closed_within(&mut socket, DEADLINE).await);
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn a_malformed_chunk_size_is_a_400_problem_not_a_413() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let path = api("/jobs");
    let head = signed_post_head(
        &app,
        &key,
        &path,
        None,
        &[
            ("content-type", "application/json"),
            ("transfer-encoding", "chunked"),
        ],
    );
    let mut socket = connect(app.address).await;
    let request = format!("{head}\r\nzz\r\n{{}}\r\n0\r\n\r\n");
    let answer = exchange(&mut socket, &request).await.expect("an answer");
    let problem = answer.problem(400, &path);
    assert!(
        problem["detail"].as_str().unwrap().contains("chunk"),
        "{problem}"
    );
}

#[tokio::test]
async fn a_header_section_over_the_limit_is_a_431_problem() {
    let app = spawn_app().await;
    let big = app
        .http
        .get(app.url("/healthz"))
        .header("x-big", "a".repeat(20 * 1024))
        .send()
        .await
        .unwrap();
    let body = problem(big, 431, "/healthz").await;
    assert_eq!(body["title"], "Request Header Fields Too Large");

    let mut many = app.http.get(app.url("/healthz"));
    for n in 0..80 {
        many = many.header(format!("x-header-{n}"), "1");
    }
    problem(many.send().await.unwrap(), 431, "/healthz").await;
}

#[tokio::test]
async fn a_request_target_over_the_limit_is_a_414_problem() {
    let app = spawn_app().await;
    let path = api("/trades/search");
    let url = app.url(&format!("{path}?postcode={}", "A".repeat(10 * 1024)));
    let body = problem(app.http.get(url).send().await.unwrap(), 414, &path).await;
    assert_eq!(body["title"], "URI Too Long");
}
