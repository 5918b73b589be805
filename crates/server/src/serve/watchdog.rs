//! Each connection's clock: the stage it is at and since when, so that its
//! task can close it when the client takes too long at any stage.
//!
//! hyper's own `header_read_timeout` starts when hyper begins waiting for a
//! head, which on a keep-alive connection is the end of the previous answer:
//! it would close every idle keep-alive connection after the header timeout,
//! tying keep-alive (which load balancers want long) to the defence against
//! slow heads (which wants it short). The clock tells the two apart by the
//! first byte of a request.

use crate::config::ConnectionLimits;
use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// A new connection that has not finished its first head.
    Opened,
    /// Between an answer and the first byte of the next request.
    Idle,
    /// Some of a head has arrived, after an idle spell.
    ReadingHead,
    /// A request is being handled: its body read, its answer made and sent.
    Exchanging,
}

#[derive(Debug)]
struct State {
    stage: Stage,
    since: Instant,
    /// Since when the answer could not be written, while it still cannot.
    write_blocked_since: Option<Instant>,
}

/// Shared by the connection's I/O, its service and its task.
#[derive(Debug)]
pub struct Clock {
    state: Mutex<State>,
    changed: Notify,
    header_read_timeout: Duration,
    idle_timeout: Duration,
}

impl Clock {
    /// The clock of a connection opened `now`.
    pub fn new(limits: &ConnectionLimits, now: Instant) -> Arc<Self> {
        Arc::new(Clock {
            state: Mutex::new(State {
                stage: Stage::Opened,
                since: now,
                write_blocked_since: None,
            }),
            changed: Notify::new(),
            header_read_timeout: limits.header_read_timeout,
            idle_timeout: limits.idle_timeout,
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The state is a few plain fields, valid whatever a panicking holder did.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// When the connection is to be closed if nothing changes; `None` while
    /// a request is handled and its answer is being written.
    pub fn deadline(&self) -> Option<Instant> {
        let state = self.state();
        let stage = match state.stage {
            Stage::Opened | Stage::ReadingHead => Some(state.since + self.header_read_timeout),
            Stage::Idle => Some(state.since + self.idle_timeout),
            Stage::Exchanging => None,
        };
        let write = state
            .write_blocked_since
            .map(|since| since + self.idle_timeout);
        match (stage, write) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Why the connection is to be closed at `now`, if it is.
    pub fn expired(&self, now: Instant) -> Option<&'static str> {
        let state = self.state();
        if let Some(since) = state.write_blocked_since {
            if now >= since + self.idle_timeout {
                return Some("the client did not read its answer within the idle timeout");
            }
        }
        match state.stage {
            Stage::Opened | Stage::ReadingHead if now >= state.since + self.header_read_timeout => {
                Some("no complete request head within the header read timeout")
            }
            Stage::Idle if now >= state.since + self.idle_timeout => {
                Some("no new request within the idle timeout")
            }
            _ => None,
        }
    }

    /// Resolves when the deadline may have come closer.
    pub async fn changed(&self) {
        self.changed.notified().await;
    }

    /// A request's head is complete and its handling begins.
    pub fn exchange_started(&self, now: Instant) {
        let mut state = self.state();
        state.stage = Stage::Exchanging;
        state.since = now;
    }

    /// The answer has been handed over whole (or given up): the connection
    /// is idle until the next request's first byte.
    fn exchange_finished(&self, now: Instant) {
        let mut state = self.state();
        state.stage = Stage::Idle;
        state.since = now;
        drop(state);
        self.changed.notify_one();
    }

    fn bytes_arrived(&self, now: Instant) {
        let mut state = self.state();
        match state.stage {
            // The first head's time runs from the connection's opening.
            Stage::Opened => {}
            Stage::Idle => {
                state.stage = Stage::ReadingHead;
                state.since = now;
            }
            Stage::ReadingHead | Stage::Exchanging => {}
        }
    }

    fn write_blocked(&self, blocked: bool, now: Instant) {
        let mut state = self.state();
        match (blocked, state.write_blocked_since) {
            (true, None) => {
                state.write_blocked_since = Some(now);
                drop(state);
                self.changed.notify_one();
            }
            (false, Some(_)) => state.write_blocked_since = None,
            _ => {}
        }
    }
}

/// Marks the end of an exchange when dropped: hyper drops an answer's body
/// once it has taken all of it.
#[derive(Debug)]
struct Exchange(Arc<Clock>);

impl Drop for Exchange {
    fn drop(&mut self) {
        self.0.exchange_finished(Instant::now());
    }
}

/// An answer's body that tells the clock when hyper is done with it.
pub struct AnswerBody {
    inner: Body,
    _exchange: Exchange,
}

impl AnswerBody {
    /// Wraps the body of an answer on the connection of `clock`.
    pub fn new(inner: Body, clock: Arc<Clock>) -> Self {
        AnswerBody {
            inner,
            _exchange: Exchange(clock),
        }
    }
}

impl http_body::Body for AnswerBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A connection's socket, reporting to its clock what moves through it.
pub struct Watched<T> {
    inner: T,
    clock: Arc<Clock>,
}

impl<T> Watched<T> {
    /// Watches `inner` for the connection of `clock`.
    pub fn new(inner: T, clock: Arc<Clock>) -> Self {
        Watched { inner, clock }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.clock.bytes_arrived(Instant::now());
        }
        result
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.clock
            .write_blocked(result.is_pending(), Instant::now());
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.clock
            .write_blocked(result.is_pending(), Instant::now());
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(opened: Instant) -> Arc<Clock> {
        let limits = ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(75),
            ..ConnectionLimits::default()
        };
        Clock::new(&limits, opened)
    }

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn a_new_connection_has_the_header_timeout_from_its_opening() {
        let opened = Instant::now();
        let clock = clock(opened);
        clock.bytes_arrived(opened + secs(4));
        assert_eq!(clock.deadline(), Some(opened + secs(10)));
        assert_eq!(clock.expired(opened + secs(9)), None);
        assert!(clock.expired(opened + secs(10)).is_some());
    }

    #[test]
    fn a_kept_alive_connection_idles_for_the_idle_timeout_then_has_the_header_timeout() {
        let opened = Instant::now();
        let clock = clock(opened);
        clock.exchange_started(opened + secs(1));
        assert_eq!(clock.deadline(), None, "no deadline while handling");
        clock.exchange_finished(opened + secs(2));
        assert_eq!(clock.deadline(), Some(opened + secs(77)));
        assert_eq!(clock.expired(opened + secs(62)), None);
        clock.bytes_arrived(opened + secs(62));
        assert_eq!(clock.deadline(), Some(opened + secs(72)));
        assert!(clock.expired(opened + secs(72)).is_some());
    }

    #[test]
    fn an_answer_the_client_does_not_read_expires_after_the_idle_timeout() {
        let opened = Instant::now();
        let clock = clock(opened);
        clock.exchange_started(opened);
        clock.write_blocked(true, opened + secs(1));
        assert_eq!(clock.deadline(), Some(opened + secs(76)));
        clock.write_blocked(true, opened + secs(30));
        assert_eq!(
            clock.deadline(),
            Some(opened + secs(76)),
            "still blocked since 1"
        );
        clock.write_blocked(false, opened + secs(31));
        assert_eq!(clock.deadline(), None, "writing again clears it");
        clock.write_blocked(true, opened + secs(40));
        assert!(clock.expired(opened + secs(115)).is_some());
    }

    #[test]
    fn dropping_an_answer_body_ends_its_exchange() {
        let opened = Instant::now();
        let clock = clock(opened);
        clock.exchange_started(opened);
        drop(AnswerBody::new(Body::empty(), clock.clone()));
        assert!(clock.deadline().is_some());
    }
}
