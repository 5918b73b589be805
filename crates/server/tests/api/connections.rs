// Connection hygiene (issue 13): slow and idle clients are cut off, and
// open connections are capped. Short timeouts are configured and every
// wait is bounded by DEADLINE; no test asserts how fast anything is.

use crate::helpers::raw::{closed_within, connect, exchange, get, read_answer, DEADLINE};
use crate::helpers::spawn_app_with;
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
