//! When to try a failed delivery again: exponential backoff with full jitter,
//! capped, inside a retry window after which the delivery is dead.

use rand::Rng;
use std::time::Duration;
use time::OffsetDateTime;

/// The retry policy of the dispatcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetrySchedule {
    /// The delay ceiling before the first retry.
    pub base: Duration,
    /// No delay ceiling grows past this.
    pub max_delay: Duration,
    /// How long after the job's creation attempts go on (24 h by default).
    pub window: Duration,
}

impl Default for RetrySchedule {
    fn default() -> Self {
        RetrySchedule {
            base: Duration::from_secs(5),
            max_delay: Duration::from_secs(30 * 60),
            window: Duration::from_secs(24 * 60 * 60),
        }
    }
}

impl RetrySchedule {
    /// When attempt `attempts + 1` is due after attempt `attempts` failed at
    /// `now`, or `None` when that would fall outside the window that began at
    /// `created_at` (the delivery is then dead).
    pub fn next_attempt(
        &self,
        attempts: u32,
        created_at: OffsetDateTime,
        now: OffsetDateTime,
        rng: &mut impl Rng,
    ) -> Option<OffsetDateTime> {
        let ceiling = self.ceiling(attempts);
        // Full jitter: anywhere up to the ceiling, but never less than half of
        // it, so a burst of failures spreads out without retrying at once.
        let half = ceiling / 2;
        let delay = half + rng.gen_range(Duration::ZERO..=half);
        let at = now + delay;
        (at <= created_at + self.window).then_some(at)
    }

    /// The delay ceiling after `attempts` failed attempts: base × 2^(attempts-1), capped.
    pub fn ceiling(&self, attempts: u32) -> Duration {
        let doublings = attempts.saturating_sub(1).min(30);
        self.base
            .saturating_mul(1u32 << doublings)
            .min(self.max_delay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_ceiling_doubles_up_to_the_cap() {
        let schedule = RetrySchedule::default();
        assert_eq!(schedule.ceiling(1), Duration::from_secs(5));
        assert_eq!(schedule.ceiling(2), Duration::from_secs(10));
        assert_eq!(schedule.ceiling(5), Duration::from_secs(80));
        assert_eq!(schedule.ceiling(40), Duration::from_secs(1800));
    }

    #[test]
    fn a_retry_falls_between_half_the_ceiling_and_the_ceiling() {
        let schedule = RetrySchedule::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let now = OffsetDateTime::now_utc();
        for attempts in 1..12 {
            let at = schedule.next_attempt(attempts, now, now, &mut rng).unwrap();
            let ceiling = schedule.ceiling(attempts);
            assert!(
                at >= now + ceiling / 2 && at <= now + ceiling,
                "attempt {attempts}"
            );
        }
    }

    #[test]
    fn no_retry_is_scheduled_past_the_window() {
        let schedule = RetrySchedule::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let created = OffsetDateTime::now_utc();
        let late = created + Duration::from_secs(24 * 60 * 60 - 1);
        assert_eq!(schedule.next_attempt(3, created, late, &mut rng), None);
        assert!(schedule
            .next_attempt(1, created, created, &mut rng)
            .is_some());
    }
}
