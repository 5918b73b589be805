use crate::helpers::{api, spawn_app, Signed};
use intake_signature::Algorithm;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[tokio::test]
async fn a_request_in_flight_when_shutdown_begins_still_gets_its_answer() {
    let mut app = spawn_app().await;
    let key = app.staging_key().await;
    let path = api("/preferred-start-options");
    let body = vec![b'x'; 1000];
    let request = Signed::get(&app, &path).with_body(&body);
    let authorization = request.authorization(
        &key,
        Algorithm::HmacSha256,
        &["(request-target)", "host", "date", "digest"],
        &path,
    );
    let mut head =
        format!("GET {path} HTTP/1.1\r\nConnection: close\r\nAuthorization: {authorization}\r\n");
    for (name, value) in &request.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");

    // Send the head and half the body, then ask the server to stop.
    let mut socket = tokio::net::TcpStream::connect(app.address).await.unwrap();
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(&body[..500]).await.unwrap();
    socket.flush().await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    app.begin_shutdown();
    tokio::time::sleep(Duration::from_millis(100)).await;

    // New connections are no longer accepted...
    let refused = tokio::time::timeout(Duration::from_secs(2), async {
        match tokio::net::TcpStream::connect(app.address).await {
            Err(_) => true,
            Ok(mut other) => {
                let _ = other
                    .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    .await;
                let mut buf = [0u8; 16];
                matches!(other.read(&mut buf).await, Ok(0) | Err(_))
            }
        }
    })
    .await
    .unwrap_or(true);
    assert!(refused, "a new connection was served after shutdown began");

    // ...while the one in flight finishes and is answered.
    socket.write_all(&body[500..]).await.unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let finished = app.finished.take().unwrap();
    tokio::time::timeout(Duration::from_secs(5), finished)
        .await
        .expect("the server stopped")
        .unwrap()
        .unwrap();
}
