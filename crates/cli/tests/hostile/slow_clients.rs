//! Slow and silent clients: a hundred connections that send a request head
//! a byte a second, say nothing at all, or keep a connection alive and idle
//! after one request. The server closes every one of them by itself, without
//! an answer, once the configured timeout has passed, and `/healthz` answers
//! while they are held.

use crate::raw::{healthz, read_answer};
use crate::target::Target;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{interval, sleep, sleep_until, Instant};

/// Connections of one attack.
const ATTACKERS: usize = 100;

/// The header read and idle timeouts the server is given (10 s and 75 s in
/// production).
const TIMEOUT: Duration = Duration::from_secs(3);

/// Settings for [`TIMEOUT`].
const SETTINGS: [(&str, &str); 2] = [
    ("INTAKE_HEADER_READ_TIMEOUT_SECONDS", "3"),
    ("INTAKE_IDLE_TIMEOUT_SECONDS", "3"),
];

/// How long past the timeout a connection may still be open before it
/// counts as held by the server: room for a loaded machine, far less than
/// any client would hold a connection without the timeouts.
const MARGIN: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attacker {
    /// Sends a request head one byte a second, never finishing it.
    SlowHead,
    /// Connects and sends nothing.
    Silent,
    /// Sends one request, reads its answer, then keeps the connection idle.
    IdleKeepAlive,
}

/// How an attacker's connection ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// The server closed it, after sending `bytes` (beyond the answer an
    /// idle keep-alive connection asked for).
    ClosedByServer { bytes: usize },
    /// Still open at the deadline.
    Held,
}

/// Connections opened so far, and open now.
#[derive(Default)]
struct Tally {
    connected: AtomicUsize,
    open: AtomicUsize,
}

async fn attack(address: SocketAddr, kind: Attacker, tally: Arc<Tally>, deadline: Instant) -> End {
    let mut stream = TcpStream::connect(address).await.unwrap();
    if kind == Attacker::IdleKeepAlive {
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: hostile\r\n\r\n")
            .await
            .unwrap();
        let answer = read_answer(&mut stream).await.answer();
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_ne!(answer.header("connection"), Some("close"), "{answer:?}");
    }
    tally.connected.fetch_add(1, Ordering::SeqCst);
    tally.open.fetch_add(1, Ordering::SeqCst);
    let (mut reader, mut writer) = stream.into_split();
    let head = b"GET /healthz HTTP/1.1\r\nHost: hostile\r\nX-Slow: ";
    let (mut sent, mut received) = (0, 0);
    let mut buffer = [0u8; 1024];
    let mut trickle = interval(Duration::from_secs(1));
    let end = loop {
        tokio::select! {
            read = reader.read(&mut buffer) => match read {
                Ok(0) | Err(_) => break End::ClosedByServer { bytes: received },
                Ok(n) => received += n,
            },
            _ = trickle.tick(), if kind == Attacker::SlowHead => {
                let byte = head.get(sent).copied().unwrap_or(b'a');
                sent += 1;
                // Once the server has closed, the read above says so.
                let _ = writer.write_all(&[byte]).await;
            }
            () = sleep_until(deadline) => break End::Held,
        }
    };
    tally.open.fetch_sub(1, Ordering::SeqCst);
    end
}

/// Runs [`ATTACKERS`] connections of `kind` against a fresh server and
/// asserts what the module says.
async fn attack_and_check(kind: Attacker) {
    let target = Target::start(&SETTINGS);
    let address = target.address();
    let tally = Arc::new(Tally::default());
    let deadline = Instant::now() + TIMEOUT + MARGIN;
    let attackers: Vec<_> = (0..ATTACKERS)
        .map(|_| tokio::spawn(attack(address, kind, tally.clone(), deadline)))
        .collect();
    while tally.connected.load(Ordering::SeqCst) < ATTACKERS {
        assert!(Instant::now() < deadline, "the attackers could not connect");
        sleep(Duration::from_millis(10)).await;
    }

    assert_eq!(healthz(address).await, Some(200), "{kind:?}: /healthz");
    let open = tally.open.load(Ordering::SeqCst);
    assert!(
        open > 0,
        "{kind:?}: every attacker was already gone when /healthz answered, so it proved nothing"
    );

    for attacker in attackers {
        assert_eq!(
            attacker.await.unwrap(),
            End::ClosedByServer { bytes: 0 },
            "{kind:?}: a connection not closed, or answered, within {TIMEOUT:?} and a margin of {MARGIN:?}"
        );
    }
    assert_eq!(
        healthz(address).await,
        Some(200),
        "{kind:?}: /healthz after"
    );
    target.assert_peak_rss_within_budget(&format!("{ATTACKERS} {kind:?} connections"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_heads_sent_a_byte_a_second_are_closed_after_the_header_read_timeout_while_healthz_answers(
) {
    attack_and_check(Attacker::SlowHead).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_silent_connections_are_closed_after_the_header_read_timeout_while_healthz_answers(
) {
    attack_and_check(Attacker::Silent).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_idle_keep_alive_connections_are_closed_after_the_idle_timeout_while_healthz_answers(
) {
    attack_and_check(Attacker::IdleKeepAlive).await;
}
