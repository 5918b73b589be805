//! What one attempt came to, and the [`Outcome`] the store records for it.

use intake_core::delivery::{Delivery, Outcome, RetrySchedule};
use time::OffsetDateTime;

/// The result of one attempt over one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The channel took the lead.
    Delivered,
    /// The receiver said the channel is gone for good (HTTP 410).
    Gone(String),
    /// Anything else: worth another attempt while the window lasts.
    Failed(String),
}

impl Attempt {
    /// The outcome to record: a failure is retried per `schedule`, or dead
    /// once the next attempt would fall outside the window.
    pub fn outcome(
        self,
        delivery: &Delivery,
        schedule: &RetrySchedule,
        now: OffsetDateTime,
    ) -> Outcome {
        match self {
            Attempt::Delivered => Outcome::Delivered,
            Attempt::Gone(error) => Outcome::Gone { error },
            Attempt::Failed(error) => {
                let next = schedule.next_attempt(
                    delivery.attempts,
                    delivery.window_from,
                    now,
                    &mut rand::thread_rng(),
                );
                match next {
                    Some(at) => Outcome::Retry { at, error },
                    None => Outcome::Dead { error },
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_core::delivery::{Channel, DeliveryState};
    use std::time::Duration;

    fn delivery(created_at: OffsetDateTime) -> Delivery {
        Delivery {
            id: "j.1.webhook".into(),
            job_id: "j".into(),
            company_id: 1,
            channel: Channel::Webhook,
            target: "http://127.0.0.1:9/".into(),
            state: DeliveryState::Pending,
            attempts: 1,
            next_attempt_at: created_at,
            created_at,
            window_from: created_at,
            last_error: None,
            delivered_at: None,
        }
    }

    #[test]
    fn a_failure_is_retried_inside_the_window_and_dead_after_it() {
        let schedule = RetrySchedule::default();
        let now = OffsetDateTime::now_utc();
        let fresh = Attempt::Failed("500".into()).outcome(&delivery(now), &schedule, now);
        assert!(matches!(fresh, Outcome::Retry { at, .. } if at > now));
        let old = delivery(now - Duration::from_secs(24 * 3600));
        let late = Attempt::Failed("500".into()).outcome(&old, &schedule, now);
        assert_eq!(
            late,
            Outcome::Dead {
                error: "500".into()
            }
        );
        // An operator's retry gives the old lead a whole window again.
        let retried = Delivery {
            window_from: now,
            ..old.clone()
        };
        let again = Attempt::Failed("500".into()).outcome(&retried, &schedule, now);
        assert!(matches!(again, Outcome::Retry { at, .. } if at > now));
        assert_eq!(
            Attempt::Gone("410".into()).outcome(&old, &schedule, now),
            Outcome::Gone {
                error: "410".into()
            }
        );
        assert_eq!(
            Attempt::Delivered.outcome(&old, &schedule, now),
            Outcome::Delivered
        );
    }
}
