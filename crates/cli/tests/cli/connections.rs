//! The real binary under a descriptor limit lower than the number of
//! connections clients hold open (issue 13): it keeps running, keeps its
//! log quiet, and serves again once they close.

use crate::helpers::{data_dir, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Descriptors the server may open: about twenty go to the runtime, the
/// store and the listener, which leaves it a cap of 16 connections, so the
/// idle connections below reach the cap or the limit itself (then `accept`
/// fails with `EMFILE`), whichever comes first.
const DESCRIPTORS: u32 = 32;

const DEADLINE: Duration = Duration::from_secs(30);

/// Waits (bounded) until `condition` holds; whether it did.
fn eventually(mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + DEADLINE;
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    condition()
}

/// The status line of `GET /healthz` on a new connection; waits at most the deadline.
fn healthz(server: &Server) -> String {
    let mut socket = TcpStream::connect(server.address).unwrap();
    socket.set_read_timeout(Some(DEADLINE)).unwrap();
    socket
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = socket.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn idle_connections_past_the_descriptor_limit_do_not_stop_the_server() {
    let (_tmp, dir) = data_dir();
    let mut server = Server::start_with_descriptor_limit(
        &dir,
        DESCRIPTORS,
        &[("INTAKE_HEADER_READ_TIMEOUT_SECONDS", "1")],
    );
    let fitted = format!("descriptor_limit={DESCRIPTORS}");
    assert!(
        eventually(|| server.log().contains(&fitted)),
        "the cap was not fitted to the limit:\n{}",
        server.log()
    );
    assert_eq!(healthz(&server), "HTTP/1.1 200 OK");

    // Twice as many connections as descriptors, held open and silent.
    let idle: Vec<TcpStream> = (0..2 * DESCRIPTORS)
        .map(|_| TcpStream::connect(server.address).unwrap())
        .collect();
    assert!(
        eventually(|| {
            let log = server.log();
            log.contains("at the cap on open connections")
                || log.contains("cannot accept connections")
        }),
        "the server never stopped taking connections:\n{}",
        server.log()
    );
    // The server closes them by itself (header read timeout) and gets to
    // the request queued behind them while the clients still hold them.
    assert_eq!(healthz(&server), "HTTP/1.1 200 OK", "{}", server.log());
    drop(idle);
    assert_eq!(healthz(&server), "HTTP/1.1 200 OK");

    let log = server.log();
    let accept_errors = log.matches("cannot accept connections").count();
    assert!(
        accept_errors <= 1,
        "the accept error was logged {accept_errors} times:\n{log}"
    );
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server died"
    );
    assert!(server.terminate(), "the server exits 0 on SIGTERM");
}

/// A supervisor may send SIGTERM the moment it reads `listening`: the server
/// is already listening for it then, so it stops gracefully (exit 0, the
/// signal logged) every time, not by the signal's default action.
#[test]
fn sigterm_right_after_listening_is_a_graceful_stop() {
    for _ in 0..5 {
        let (_tmp, dir) = data_dir();
        let mut server = Server::start(&dir, &[], &[]);
        assert!(server.terminate(), "exit 0 on SIGTERM:\n{}", server.log());
        assert!(
            server.log().contains("SIGTERM received, shutting down"),
            "{}",
            server.log()
        );
    }
}
