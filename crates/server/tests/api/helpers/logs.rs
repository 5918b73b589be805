//! The server's log, as `intake serve` writes it (`crates/cli/src/logging.rs`,
//! text and JSON, without colours as in a file or a collector), captured for
//! one test.
//!
//! One subscriber serves the whole test binary: a scoped one (`set_default`)
//! misses events, because while a single subscriber is registered tracing
//! caches each callsite's interest from the first thread that reaches it,
//! which may be another test's thread that has none. Every event is written
//! to the buffers of the thread it happened on, if that thread captures: a
//! test on a current-thread runtime (`#[tokio::test]`) runs its server's
//! tasks on its own thread.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, Once};
use tracing_subscriber::layer::SubscriberExt;

#[derive(Clone, Default)]
struct Buffers {
    text: Arc<Mutex<Vec<u8>>>,
    json: Arc<Mutex<Vec<u8>>>,
}

thread_local! {
    static CAPTURING: RefCell<Option<Buffers>> = const { RefCell::new(None) };
}

/// Writes to the capturing thread's buffer of one format, or nowhere.
struct ThreadWriter {
    json: bool,
}

impl std::io::Write for ThreadWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURING.with(|capturing| {
            if let Some(buffers) = &*capturing.borrow() {
                let buffer = if self.json {
                    &buffers.json
                } else {
                    &buffers.text
                };
                buffer.lock().unwrap().extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// This thread's log from [`Capture::start`] until the value is dropped.
pub struct Capture {
    buffers: Buffers,
}

impl Capture {
    /// Starts capturing this thread's events, debug included.
    pub fn start() -> Capture {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| {
            let subscriber = tracing_subscriber::registry()
                .with(tracing_subscriber::filter::LevelFilter::DEBUG)
                .with(
                    tracing_subscriber::fmt::layer()
                        .with_ansi(false)
                        .with_writer(|| ThreadWriter { json: false }),
                )
                .with(
                    tracing_subscriber::fmt::layer()
                        .json()
                        .with_writer(|| ThreadWriter { json: true }),
                );
            tracing::subscriber::set_global_default(subscriber)
                .expect("no other test of this binary installs a subscriber");
        });
        let buffers = Buffers::default();
        CAPTURING.with(|capturing| *capturing.borrow_mut() = Some(buffers.clone()));
        Capture { buffers }
    }

    /// The text log so far.
    pub fn text(&self) -> Vec<u8> {
        self.buffers.text.lock().unwrap().clone()
    }

    /// The JSON log so far, one object a line.
    pub fn json(&self) -> Vec<u8> {
        self.buffers.json.lock().unwrap().clone()
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        CAPTURING.with(|capturing| *capturing.borrow_mut() = None);
    }
}
