//! The first request head of each connection, judged before hyper sees it,
//! so that a head hyper cannot parse gets a problem body saying what is
//! wrong rather than hyper's own empty `400` (or `414`, `431`).
//!
//! hyper offers no hook for its parse errors: it writes a bare answer and
//! closes. So the connection's reads are held back until the first head is
//! whole and judged with the parser hyper uses, under hyper's own rules
//! ([`verdict`]). A head hyper will take is then handed over byte for byte;
//! one it would refuse is replaced by a stand-in request (the same method
//! and path where they can be read, `Connection: close`, no body), and the
//! verdict goes with it as a request extension, [`MalformedHead`], which the
//! head limits answer with the problem body. The client's bytes are never
//! handed to hyper then, and the connection ends after that answer, as it
//! would after hyper's.
//!
//! Only the first head of a connection is judged: once a request is under
//! way, where its body ends and the next head begins is hyper's to know
//! (chunked framing, bodies left unread), so later heads on a kept-alive
//! connection still get hyper's bare answers. Clients that write heads by
//! hand mostly open a connection per request; libraries do not write
//! malformed heads. The cost on the normal path is one parse and one copy of
//! each connection's first head.

mod verdict;

use axum::http::StatusCode;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use verdict::{judge, Verdict};

/// A connection's first head that hyper would have refused: the status and
/// what was wrong, for the problem body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MalformedHead {
    /// 400, 414 or 431, as hyper would have answered.
    pub status: StatusCode,
    /// What was wrong, for the integrator.
    pub detail: String,
}

/// Where the verdict on a connection's first head waits for the request
/// that stands in for it.
pub type VerdictSlot = Arc<Mutex<Option<MalformedHead>>>;

/// Takes the verdict, if the first head was malformed; only the stand-in
/// request finds one.
pub fn take_verdict(slot: &VerdictSlot) -> Option<MalformedHead> {
    slot.lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take()
}

enum State {
    /// Reading the first head; nothing handed to hyper yet.
    Gathering(Vec<u8>),
    /// Handing hyper `bytes` from `at`, then going on as `then`.
    Handing {
        bytes: Vec<u8>,
        at: usize,
        then: After,
    },
    /// The first head is judged and handed over: reads go straight through.
    Through,
    /// The stand-in request was handed over: hyper reads nothing more. Not
    /// the end of the stream: hyper would take that for the client going away
    /// and drop the request before answering it.
    Ended,
}

#[derive(Clone, Copy)]
enum After {
    Through,
    Ended,
}

/// A connection's socket whose first head is judged before hyper reads it.
pub struct FirstHead<T> {
    inner: T,
    state: State,
    max_head_bytes: usize,
    verdict: VerdictSlot,
}

impl<T> FirstHead<T> {
    /// Judges the first head read from `inner`, which must fit in
    /// `max_head_bytes` (hyper's read buffer); a malformed head's verdict goes to `verdict`.
    pub fn new(inner: T, max_head_bytes: usize, verdict: VerdictSlot) -> Self {
        FirstHead {
            inner,
            state: State::Gathering(Vec::new()),
            max_head_bytes,
            verdict,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for FirstHead<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            match &mut this.state {
                State::Through => return Pin::new(&mut this.inner).poll_read(cx, buf),
                // Never ready: hyper answers the stand-in and, told to close, closes.
                State::Ended => return Poll::Pending,
                State::Handing { bytes, at, then } => {
                    let count = buf.remaining().min(bytes.len() - *at);
                    buf.put_slice(&bytes[*at..*at + count]);
                    *at += count;
                    if *at == bytes.len() {
                        this.state = match then {
                            After::Through => State::Through,
                            After::Ended => State::Ended,
                        };
                    }
                    return Poll::Ready(Ok(()));
                }
                State::Gathering(head) => {
                    // Read into hyper's buffer, then take the bytes back out
                    // of it until the head is judged.
                    let before = buf.filled().len();
                    ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
                    let arrived = &buf.filled()[before..];
                    if arrived.is_empty() {
                        // The end of the stream: hyper gets what came, and the end.
                        let bytes = std::mem::take(head);
                        this.state = hand(bytes, After::Through);
                        continue;
                    }
                    head.extend_from_slice(arrived);
                    buf.set_filled(before);
                    match judge(head, this.max_head_bytes) {
                        Verdict::Incomplete => {}
                        Verdict::Fine => this.state = hand(std::mem::take(head), After::Through),
                        Verdict::Malformed {
                            status,
                            detail,
                            method,
                            path,
                        } => {
                            *this
                                .verdict
                                .lock()
                                .unwrap_or_else(|poisoned| poisoned.into_inner()) =
                                Some(MalformedHead { status, detail });
                            let request = stand_in(method.as_deref(), path.as_deref());
                            this.state = hand(request, After::Ended);
                        }
                    }
                }
            }
        }
    }
}

fn hand(bytes: Vec<u8>, then: After) -> State {
    if bytes.is_empty() {
        match then {
            After::Through => State::Through,
            After::Ended => State::Ended,
        }
    } else {
        State::Handing { bytes, at: 0, then }
    }
}

/// The request hyper is given instead of a malformed head: the client's
/// method and path where they are plain enough, else `GET /`.
fn stand_in(method: Option<&str>, path: Option<&str>) -> Vec<u8> {
    let method = method
        .filter(|method| ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method))
        .unwrap_or("GET");
    let path = path
        .filter(|path| {
            path.starts_with('/')
                && path.len() <= crate::head_limits::MAX_URI_BYTES
                && path.parse::<axum::http::uri::PathAndQuery>().is_ok()
        })
        .unwrap_or("/");
    format!("{method} {path} HTTP/1.1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n")
        .into_bytes()
}

impl<T: AsyncWrite + Unpin> AsyncWrite for FirstHead<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
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
mod tests;
