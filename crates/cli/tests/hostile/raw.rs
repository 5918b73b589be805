//! HTTP/1.1 by hand over TCP: what a hostile client sends is often nothing
//! a library would build, and what matters is exactly what comes back,
//! including nothing at all.

use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longest the server may take to answer or close: far beyond any timeout
/// the tests set, so that only a server that holds on fails.
pub const ANSWER_DEADLINE: Duration = Duration::from_secs(30);

/// One answer, as it came.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    /// The header section, names lowercased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }

    /// The problem body, checked to be one: `application/problem+json`
    /// with exactly the five members and the answer's own status.
    pub fn problem(&self) -> Value {
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "{self:?}"
        );
        let body: Value = serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("a problem body that is not JSON ({e}): {self:?}"));
        let mut members: Vec<&str> = body
            .as_object()
            .expect("a JSON object")
            .keys()
            .map(String::as_str)
            .collect();
        members.sort_unstable();
        assert_eq!(
            members,
            ["detail", "instance", "status", "title", "type"],
            "{body}"
        );
        assert_eq!(body["status"], self.status, "{body}");
        body
    }

    /// The problem's `detail`.
    pub fn detail(&self) -> String {
        self.problem()["detail"].as_str().unwrap().to_owned()
    }
}

/// What came back on a connection.
#[derive(Debug)]
pub enum Reply {
    Answered(Answer),
    /// The server closed the connection (or reset it) before a whole answer.
    Closed {
        bytes: usize,
    },
}

impl Reply {
    pub fn answer(self) -> Answer {
        match self {
            Reply::Answered(answer) => answer,
            Reply::Closed { bytes } => {
                panic!("the server closed the connection after {bytes} bytes of answer")
            }
        }
    }
}

/// Sends `request` on a new connection and reads one answer. A server that
/// closes while the request is still being written may have answered first,
/// so the answer is still read.
pub async fn exchange(address: SocketAddr, request: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let _ = stream.write_all(request).await;
    read_answer(&mut stream).await
}

/// Reads one answer from `stream`; panics after [`ANSWER_DEADLINE`].
pub async fn read_answer(stream: &mut TcpStream) -> Reply {
    match tokio::time::timeout(ANSWER_DEADLINE, read(stream)).await {
        Ok(reply) => reply,
        Err(_) => panic!("the server neither answered nor closed within {ANSWER_DEADLINE:?}"),
    }
}

async fn read(stream: &mut TcpStream) -> Reply {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(answer) = parse(&bytes) {
            return Reply::Answered(answer);
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return Reply::Closed { bytes: bytes.len() },
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// A whole answer at the start of `bytes` (a body of `Content-Length`
/// bytes, none without one); `None` while incomplete.
fn parse(bytes: &[u8]) -> Option<Answer> {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&bytes[..end]).expect("an ASCII head");
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .map_or(0, |(_, value)| value.parse::<usize>().unwrap());
    let body = bytes.get(end + 4..end + 4 + length)?.to_vec();
    Some(Answer {
        status,
        headers,
        body,
    })
}

/// A request's bytes: `method target`, `headers` in order (with a
/// `Content-Length` added for a body when they have none), then `body`;
/// the connection is to close.
pub fn request(method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("{method} {target} HTTP/1.1\r\n");
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    let has_length = headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("content-length"));
    if !body.is_empty() && !has_length {
        out.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    out.push_str("connection: close\r\n\r\n");
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// `GET /healthz` on a new connection: its status, or `None` when the
/// server closed without answering.
pub async fn healthz(address: SocketAddr) -> Option<u16> {
    let request = request("GET", "/healthz", &[("host", "hostile")], b"");
    match exchange(address, &request).await {
        Reply::Answered(answer) => Some(answer.status),
        Reply::Closed { .. } => None,
    }
}
