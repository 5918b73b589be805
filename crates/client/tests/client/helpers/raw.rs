//! Reads one HTTP/1.1 request off a socket the stub is about to drop, so the
//! test still sees what the client sent on the attempt that got no answer.

use super::Recorded;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// Reads the head and a `Content-Length` body (all this client ever sends).
pub async fn read_request(stream: &mut TcpStream) -> Recorded {
    let mut bytes = Vec::new();
    let head_end = loop {
        if let Some(at) = find(&bytes, b"\r\n\r\n") {
            break at;
        }
        if !read_more(stream, &mut bytes).await {
            break bytes.len();
        }
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next().unwrap_or_default().split(' ');
    let method = request_line.next().unwrap_or_default().to_owned();
    let target = request_line.next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    let body_start = (head_end + 4).min(bytes.len());
    while bytes.len() < body_start + length {
        if !read_more(stream, &mut bytes).await {
            break;
        }
    }
    let body_end = (body_start + length).min(bytes.len());
    Recorded {
        method,
        target,
        headers,
        body: bytes[body_start..body_end].to_vec(),
        dropped: true,
    }
}

async fn read_more(stream: &mut TcpStream, bytes: &mut Vec<u8>) -> bool {
    let mut chunk = [0u8; 4096];
    match stream.read(&mut chunk).await {
        Ok(0) | Err(_) => false,
        Ok(read) => {
            bytes.extend_from_slice(&chunk[..read]);
            true
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
