//! The real binary against clients that send large bodies under a key it
//! does not have (issue 13: 48 such 52 MB uploads once took the server to
//! 2.4 GB): each is answered 401 from its head, or its connection closed,
//! and the bodies are never held.

use crate::helpers::{data_dir, Server};
use intake_core::store::prelude::*;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Barrier};
use std::time::Duration;

const CLIENTS: usize = 12;
const BODY_BYTES: usize = 40 * 1000 * 1000;
const DEADLINE: Duration = Duration::from_secs(30);
/// The most the server's resident memory may grow while refusing them all.
const MOST_GROWTH_KIB: u64 = 50 * 1024;

/// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{field}:")))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// Sends a multipart upload of [`BODY_BYTES`] under an unknown key, writing
/// until the server closes or the body is all sent, then reads what came
/// back: the status, or `None` when the connection was closed (or reset)
/// without one.
fn upload(address: SocketAddr, start: &Barrier) -> Option<u16> {
    let mut socket = TcpStream::connect(address).unwrap();
    socket.set_read_timeout(Some(DEADLINE)).unwrap();
    socket.set_write_timeout(Some(DEADLINE)).unwrap();
    let date = time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let head = format!(
        "POST /v1/affiliate-job/jobs/with-attachments HTTP/1.1\r\nHost: {address}\r\nDate: {date}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {BODY_BYTES}\r\n\
         Authorization: Signature keyId=\"nobody\",algorithm=\"hmac-sha256\",\
         headers=\"(request-target) host date\",signature=\"{}\"\r\n\r\n",
        "A".repeat(43) + "="
    );
    start.wait();
    socket.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b'x'; 64 * 1024];
    let mut sent = 0;
    while sent < BODY_BYTES {
        match socket.write(&chunk[..chunk.len().min(BODY_BYTES - sent)]) {
            Ok(0) => break,
            Ok(written) => sent += written,
            Err(error) => {
                assert_ne!(
                    error.kind(),
                    ErrorKind::WouldBlock,
                    "the server neither read the body nor closed within {DEADLINE:?}"
                );
                assert_ne!(error.kind(), ErrorKind::TimedOut);
                break;
            }
        }
    }
    let mut answer = Vec::new();
    match socket.read_to_end(&mut answer) {
        Ok(_) => {}
        Err(error) if error.kind() == ErrorKind::ConnectionReset => {}
        Err(error) => panic!("neither an answer nor a close: {error}"),
    }
    let text = String::from_utf8_lossy(&answer);
    text.split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
}

#[test]
fn twelve_large_uploads_under_an_unknown_key_are_refused_without_holding_their_bodies() {
    let (_tmp, dir) = data_dir();
    let server = Server::start(&dir, &[], &[]);
    let pid = server.child.id();
    // Count the peak from here (`5` resets VmHWM to the current RSS, Linux 4.0 on).
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").unwrap();
    let before = status_kib(pid, "VmRSS");

    let start = Arc::new(Barrier::new(CLIENTS));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let start = start.clone();
            let address = server.address;
            std::thread::spawn(move || upload(address, &start))
        })
        .collect();
    let answers: Vec<Option<u16>> = clients
        .into_iter()
        .map(|client| client.join().unwrap())
        .collect();

    let peak = status_kib(pid, "VmHWM");
    assert!(
        answers
            .iter()
            .all(|answer| matches!(answer, Some(401) | None)),
        "{answers:?}"
    );
    let growth = peak.saturating_sub(before);
    assert!(
        growth < MOST_GROWTH_KIB,
        "resident memory grew by {growth} KiB (from {before} KiB to a peak of {peak} KiB)"
    );

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let url = format!("sqlite://{}", dir.join("intake.db").display());
    let jobs = runtime.block_on(async {
        let store = intake_store_sqlite::SqliteStore::open(&url).await.unwrap();
        store.counts().await.unwrap().jobs
    });
    assert_eq!(jobs, 0);
}
