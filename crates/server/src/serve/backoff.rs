//! What the accept loop does when `accept` fails.
//!
//! Out of descriptors (`EMFILE`, `ENFILE`) or of kernel memory, accepting
//! again at once fails again at once: the loop would spin and log the same
//! line thousands of times a second while the connections it serves starve.
//! Instead it pauses, longer after each failure in a row up to a second, and
//! logs once per burst of failures (failures with less than a quiet minute
//! between them), and once a minute while a burst lasts. At the descriptor
//! limit, every connection that closes lets one accept through before the
//! next failure: those successes neither end the burst nor log again.

use std::io;
use std::time::Duration;
use tokio::time::Instant;

/// The first pause after a failed accept.
const FIRST_PAUSE: Duration = Duration::from_millis(10);

/// The longest pause: a descriptor freed is used within this.
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// How long without a failure ends a burst, and how often a long one is logged.
const QUIET: Duration = Duration::from_secs(60);

/// What to do after a failed accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pause {
    /// Failed accepts to report in the log now (this one included); 0 for none.
    pub log_failures: u64,
    /// How long to wait before accepting again.
    pub wait: Duration,
}

/// The failures of the current burst.
#[derive(Debug, Default)]
pub struct Backoff {
    in_a_row: u32,
    last_failure: Option<Instant>,
    last_log: Option<Instant>,
    unlogged: u64,
}

impl Backoff {
    /// The pause after `error`, failed at `now`; `None` for an error of one
    /// connection (its client left before it was accepted), after which
    /// accepting goes on at once.
    pub fn failed(&mut self, error: &io::Error, now: Instant) -> Option<Pause> {
        if is_connection_error(error) {
            return None;
        }
        let new_burst = self
            .last_failure
            .is_none_or(|last| now.duration_since(last) >= QUIET);
        let log_due = self
            .last_log
            .is_none_or(|last| now.duration_since(last) >= QUIET);
        self.last_failure = Some(now);
        self.unlogged += 1;
        let log_failures = if new_burst || log_due {
            self.last_log = Some(now);
            std::mem::take(&mut self.unlogged)
        } else {
            0
        };
        let doublings = self.in_a_row.min(16);
        self.in_a_row = self.in_a_row.saturating_add(1);
        let wait = FIRST_PAUSE
            .saturating_mul(1 << doublings)
            .min(LONGEST_PAUSE);
        Some(Pause { log_failures, wait })
    }

    /// An accept worked: the next failure pauses briefly again.
    pub fn accepted(&mut self) {
        self.in_a_row = 0;
    }
}

/// Whether the descriptors or memory ran out, for the log.
pub fn out_of_resources(error: &io::Error) -> bool {
    use rustix::io::Errno;
    matches!(
        Errno::from_io_error(error),
        Some(Errno::MFILE | Errno::NFILE | Errno::NOBUFS | Errno::NOMEM)
    )
}

fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emfile() -> io::Error {
        io::Error::from_raw_os_error(rustix::io::Errno::MFILE.raw_os_error())
    }

    fn millis(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn failures_in_a_row_pause_longer_each_time_up_to_a_second() {
        let mut backoff = Backoff::default();
        let start = Instant::now();
        let waits: Vec<Duration> = (0..20)
            .map(|n| backoff.failed(&emfile(), start + millis(n)).unwrap().wait)
            .collect();
        assert!(out_of_resources(&emfile()));
        assert_eq!(waits[0], FIRST_PAUSE);
        assert!(waits.windows(2).all(|pair| pair[0] <= pair[1]));
        assert!(waits.windows(2).any(|pair| pair[0] < pair[1]));
        assert_eq!(waits[19], LONGEST_PAUSE);
        backoff.accepted();
        let after = backoff.failed(&emfile(), start + millis(30)).unwrap();
        assert_eq!(after.wait, FIRST_PAUSE, "a freed descriptor is used soon");
    }

    #[test]
    fn a_burst_is_logged_once_though_accepts_work_between_its_failures() {
        let mut backoff = Backoff::default();
        let start = Instant::now();
        let mut logged = Vec::new();
        // At the limit: each closed connection lets one accept through.
        for n in 0..1000 {
            let pause = backoff.failed(&emfile(), start + millis(n * 20)).unwrap();
            logged.push(pause.log_failures);
            backoff.accepted();
        }
        assert_eq!(logged[0], 1);
        assert!(logged[1..].iter().all(|&count| count == 0), "{logged:?}");
    }

    #[test]
    fn a_long_burst_is_logged_once_a_minute_and_a_new_one_at_once() {
        let mut backoff = Backoff::default();
        let start = Instant::now();
        let mut logs = Vec::new();
        for n in 0..150 {
            let pause = backoff.failed(&emfile(), start + millis(n * 1000)).unwrap();
            if pause.log_failures > 0 {
                logs.push((n, pause.log_failures));
            }
        }
        assert_eq!(logs, [(0, 1), (60, 60), (120, 60)]);
        let quiet = start + millis(149_000) + QUIET;
        let pause = backoff.failed(&emfile(), quiet).unwrap();
        assert_eq!(
            pause.log_failures, 30,
            "the rest of the last burst, and this one"
        );
    }

    #[test]
    fn a_client_that_left_before_its_accept_costs_no_pause() {
        let mut backoff = Backoff::default();
        let reset = io::Error::from(io::ErrorKind::ConnectionAborted);
        assert_eq!(backoff.failed(&reset, Instant::now()), None);
    }
}
