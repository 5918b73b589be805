//! HTTP/1.1 spoken by hand over TCP, for what a well-behaved client cannot
//! do: send slowly, stall, go quiet, break the framing. Every wait is bounded.

use super::{assert_problem_body, TestApp, TestKey};
use intake_signature::{digest_header, sign, Algorithm, Message};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest any test here waits for something to happen.
pub const DEADLINE: Duration = Duration::from_secs(15);

/// An answer read off the wire.
#[derive(Debug)]
pub struct RawAnswer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawAnswer {
    /// The value of header `name`, if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Checks that this is a problem answer of `status` for `path`; returns its body.
    pub fn problem(&self, status: u16, path: &str) -> serde_json::Value {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json")
        );
        let body: serde_json::Value = serde_json::from_slice(&self.body).unwrap();
        assert_problem_body(&body, status, path);
        body
    }
}

/// A connection to `address`.
pub async fn connect(address: SocketAddr) -> TcpStream {
    TcpStream::connect(address).await.unwrap()
}

/// Reads one answer (framed by its Content-Length); `None` if none came
/// within `within` or the connection closed first.
pub async fn read_answer(
    socket: &mut (impl AsyncRead + Unpin),
    within: Duration,
) -> Option<RawAnswer> {
    tokio::time::timeout(within, read_answer_now(socket))
        .await
        .ok()
        .flatten()
}

async fn read_answer_now(socket: &mut (impl AsyncRead + Unpin)) -> Option<RawAnswer> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let read = socket.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        bytes.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8(bytes[..head_end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .map_or(0, |(_, value)| value.parse().unwrap());
    let mut body = bytes[head_end + 4..].to_vec();
    while body.len() < length {
        let read = socket.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..read]);
    }
    body.truncate(length);
    Some(RawAnswer {
        status,
        headers,
        body,
    })
}

/// Whether the server closes `socket` within `within`, sending nothing
/// more: a read then ends (or fails, for a reset) without bytes.
pub async fn closed_within(socket: &mut (impl AsyncRead + Unpin), within: Duration) -> bool {
    let mut byte = [0u8; 1];
    matches!(
        tokio::time::timeout(within, socket.read(&mut byte)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// A keep-alive `GET path`.
pub fn get(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n")
}

/// Sends `request` and reads its answer.
pub async fn exchange(socket: &mut TcpStream, request: &str) -> Option<RawAnswer> {
    socket.write_all(request.as_bytes()).await.ok()?;
    read_answer(socket, DEADLINE).await
}

/// The head of a signed `POST path` (without its blank line), signed over
/// `(request-target) host date` and, when `body` is given, its digest with
/// its Content-Length; `extra` headers are added unsigned.
pub fn signed_post_head(
    app: &TestApp,
    key: &TestKey,
    path: &str,
    body: Option<&[u8]>,
    extra: &[(&str, &str)],
) -> String {
    let mut headers = vec![
        ("host".to_owned(), app.address.to_string()),
        (
            "date".to_owned(),
            httpdate::fmt_http_date(std::time::SystemTime::now()),
        ),
    ];
    let mut covered = vec!["(request-target)", "host", "date"];
    if let Some(body) = body {
        headers.push(("digest".to_owned(), digest_header(body)));
        headers.push(("content-length".to_owned(), body.len().to_string()));
        covered.push("digest");
    }
    let mut message = Message::new("POST", path);
    for (name, value) in &headers {
        message.push_header(name, value);
    }
    let authorization = sign(
        &message,
        &key.key_id,
        Algorithm::HmacSha256,
        key.secret.as_bytes(),
        &covered,
    )
    .unwrap()
    .to_authorization();
    let mut head = format!("POST {path} HTTP/1.1\r\nAuthorization: {authorization}\r\n");
    for (name, value) in headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .chain(extra.iter().copied())
    {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head
}
