//! Asking image work that nobody waits for any more to stop.
//!
//! Cleaning an image runs on a thread of its own, which cannot be cancelled
//! from outside; the request that started it may be answered by its timeout,
//! or its client may go away. The work looks at a shared flag between steps
//! (each GIF frame, each band of PNG rows, between decoding and encoding)
//! and gives up when it is raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared between whoever waits for image work and the work itself.
/// Clones share the flag; a new one is down.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    raised: Arc<AtomicBool>,
    /// Tests raise the flag at a given check, to stop work at a known step.
    #[cfg(test)]
    checks: Arc<std::sync::Mutex<(u32, Option<u32>)>>,
}

impl Stop {
    /// Asks the work sharing this flag to stop at its next check.
    pub fn raise(&self) {
        self.raised.store(true, Ordering::Relaxed);
    }

    /// Whether the work should stop.
    pub fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed)
    }

    /// A guard that raises the flag when dropped: held by the future that
    /// waits for the work, it stops the work when that future is dropped.
    pub fn raise_on_drop(&self) -> RaiseOnDrop {
        RaiseOnDrop(self.clone())
    }

    /// `Err(Stopped)` once the flag is raised.
    pub(super) fn check(&self) -> Result<(), super::ImageError> {
        #[cfg(test)]
        {
            let mut checks = self.checks.lock().unwrap();
            checks.0 += 1;
            if checks.1 == Some(checks.0) {
                self.raise();
            }
        }
        if self.is_raised() {
            Err(super::ImageError::Stopped)
        } else {
            Ok(())
        }
    }

    /// A flag that raises itself at its `check`th check.
    #[cfg(test)]
    pub(super) fn raised_at_check(check: u32) -> Self {
        let stop = Stop::default();
        stop.checks.lock().unwrap().1 = Some(check);
        stop
    }

    /// How many times the work looked at the flag.
    #[cfg(test)]
    pub(super) fn checks(&self) -> u32 {
        self.checks.lock().unwrap().0
    }
}

/// Raises its [`Stop`] flag when dropped.
#[derive(Debug)]
pub struct RaiseOnDrop(Stop);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.raise();
    }
}
