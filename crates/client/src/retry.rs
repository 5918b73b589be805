//! When a failed call is worth another attempt, and how long to wait first.
//!
//! A retry only ever repeats the same request: for `POST /jobs` that means the
//! same body and the same `Idempotency-Key`, so the service answers a repeat
//! with the job it already made instead of making a second one.

#[cfg(test)]
mod tests;

use crate::error::ClientError;
use rand::Rng;
use std::future::Future;
use std::time::{Duration, Instant};

/// How many times, and how patiently, a call is attempted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first one included; 1 means never retry.
    pub max_attempts: u32,
    /// The backoff before the first retry when the service names no `Retry-After`.
    pub base_delay: Duration,
    /// The longest wait before one retry, `Retry-After` included.
    pub max_delay: Duration,
    /// No retry starts once this long has passed since the first attempt.
    pub max_elapsed: Duration,
}

impl Default for RetryPolicy {
    /// 5 attempts, 200 ms base backoff, at most 10 s per wait, 60 s in all.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
            max_elapsed: Duration::from_secs(60),
        }
    }
}

/// What one failed attempt came to, as far as retrying is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The service (or a proxy before it) answered with this error status.
    Status {
        /// The HTTP status.
        status: u16,
        /// The `Retry-After` of the answer, if any.
        retry_after: Option<Duration>,
    },
    /// The exchange failed in transport: connect, timeout, connection reset,
    /// an answer cut off. For a `POST` the service may have acted on it.
    Transport,
    /// Anything else (the client's own configuration, an undecodable 2xx body):
    /// repeating the same request cannot help.
    Final,
}

impl From<&ClientError> for Outcome {
    fn from(error: &ClientError) -> Self {
        match error {
            ClientError::Problem {
                problem,
                retry_after,
                ..
            } => Outcome::Status {
                status: problem.status,
                retry_after: *retry_after,
            },
            ClientError::Status {
                status,
                retry_after,
                ..
            } => Outcome::Status {
                status: *status,
                retry_after: *retry_after,
            },
            // A builder or redirect error repeats identically; everything else
            // reqwest reports is the connection or the answer failing.
            ClientError::Network(error) if !(error.is_builder() || error.is_redirect()) => {
                Outcome::Transport
            }
            _ => Outcome::Final,
        }
    }
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Try again after this wait.
    Retry(Duration),
    /// Return the error.
    GiveUp,
}

impl RetryPolicy {
    /// One attempt, no retries.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// Decides after attempt number `attempt` (from 1) ended in `outcome`.
    ///
    /// Retried: transport failures, 429, 502, 503, 504, and a 409 carrying
    /// `Retry-After` (the same key still in flight; a 409 without it means the
    /// key was used for a different body, which no retry fixes). Never retried:
    /// any other status. A `Retry-After` is honoured up to `max_delay`;
    /// otherwise the wait is exponential backoff with full jitter.
    pub fn decide(&self, outcome: &Outcome, attempt: u32) -> Decision {
        if attempt >= self.max_attempts {
            return Decision::GiveUp;
        }
        match *outcome {
            Outcome::Transport => Decision::Retry(self.backoff(attempt)),
            Outcome::Status {
                status: 429 | 502 | 503 | 504,
                retry_after,
            } => Decision::Retry(self.wait(retry_after, attempt)),
            Outcome::Status {
                status: 409,
                retry_after: Some(after),
            } => Decision::Retry(self.wait(Some(after), attempt)),
            Outcome::Status { .. } | Outcome::Final => Decision::GiveUp,
        }
    }

    /// Whether a retry after `delay` still starts within `max_elapsed` of the first attempt.
    pub fn within_budget(&self, elapsed: Duration, delay: Duration) -> bool {
        elapsed.saturating_add(delay) <= self.max_elapsed
    }

    fn wait(&self, retry_after: Option<Duration>, attempt: u32) -> Duration {
        match retry_after {
            Some(after) => after.min(self.max_delay),
            None => self.backoff(attempt),
        }
    }

    /// Full jitter: uniform in `[0, min(max_delay, base_delay * 2^(attempt-1))]`.
    fn backoff(&self, attempt: u32) -> Duration {
        let cap = self.backoff_cap(attempt);
        let nanos = u64::try_from(cap.as_nanos()).unwrap_or(u64::MAX);
        Duration::from_nanos(rand::thread_rng().gen_range(0..=nanos))
    }

    fn backoff_cap(&self, attempt: u32) -> Duration {
        let factor = 1u32
            .checked_shl(attempt.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }
}

/// Runs `attempt` until it succeeds or the policy gives up; returns the
/// result and how many attempts were made.
pub(crate) async fn run<T, F, Fut>(
    policy: &RetryPolicy,
    mut attempt: F,
) -> (Result<T, ClientError>, u32)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, ClientError>>,
{
    let started = Instant::now();
    let mut attempts = 0;
    loop {
        attempts += 1;
        let error = match attempt().await {
            Ok(value) => return (Ok(value), attempts),
            Err(error) => error,
        };
        match policy.decide(&Outcome::from(&error), attempts) {
            Decision::Retry(delay) if policy.within_budget(started.elapsed(), delay) => {
                tokio::time::sleep(delay).await;
            }
            Decision::Retry(_) | Decision::GiveUp => return (Err(error), attempts),
        }
    }
}
