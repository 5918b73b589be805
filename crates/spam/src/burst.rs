//! Too many jobs from one e-mail address or one phone number within the
//! history window. A homeowner sends one or two jobs at a time, sometimes a
//! handful when moving house; a script or a lead farm sends dozens. The weight
//! starts below the threshold so that a busy but real sender is refused only
//! when something else is also wrong, and rises with every further job.

use super::{Reason, Signal, SpamInput, SpamScreen};

/// Flags the sixth and later job from one e-mail address or phone number
/// within [`intake_core::history::WINDOW`] (an hour): 0.5 for the sixth, 0.25 more
/// for each further one, so the eighth is refused alone; at most 1.5.
#[derive(Debug, Clone, Copy, Default)]
pub struct ContactBurst;

impl ContactBurst {
    /// Jobs from one contact within the window that count as normal.
    pub const ALLOWED: u32 = 5;
    /// Weight of the first job over [`ContactBurst::ALLOWED`].
    pub const FIRST_WEIGHT: f64 = 0.5;
    /// Weight added by each further job.
    pub const STEP: f64 = 0.25;
    /// The most the signal weighs.
    pub const MAX_WEIGHT: f64 = 1.5;

    /// The weight of job number `n` (counting this one) within the window.
    pub fn weight(n: u32) -> f64 {
        if n <= Self::ALLOWED {
            return 0.0;
        }
        let over = f64::from(n - Self::ALLOWED - 1);
        (Self::FIRST_WEIGHT + Self::STEP * over).min(Self::MAX_WEIGHT)
    }
}

// The first job over the limit only tips a job that is already doubted.
const _: () = assert!(ContactBurst::FIRST_WEIGHT < SpamScreen::DEFAULT_THRESHOLD);

impl Signal for ContactBurst {
    fn name(&self) -> &'static str {
        "contact_burst"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let history = input.history;
        // Both counts usually include the same jobs: the larger one decides,
        // they are never added.
        let (earlier, contact) = if history.by_email >= history.by_phone {
            (history.by_email, "e-mail address")
        } else {
            (history.by_phone, "phone number")
        };
        let n = earlier.saturating_add(1);
        let weight = Self::weight(n);
        if weight == 0.0 {
            return;
        }
        reasons.push(Reason {
            signal: self.name(),
            weight,
            detail: format!(
                "{n} jobs from this {contact} in the last {} minutes (more than {} is unusual)",
                intake_core::history::WINDOW.whole_minutes(),
                Self::ALLOWED
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons_with_history;
    use intake_core::history::ContactHistory;

    fn by_email(n: u32) -> ContactHistory {
        ContactHistory {
            by_email: n,
            ..ContactHistory::default()
        }
    }

    #[test]
    fn up_to_five_jobs_in_the_window_are_normal() {
        for earlier in 0..5 {
            assert!(reasons_with_history(&ContactBurst, by_email(earlier)).is_empty());
        }
    }

    #[test]
    fn the_weight_rises_with_the_count_and_the_eighth_job_is_refused_alone() {
        let weights: Vec<f64> = (5..12)
            .map(|earlier| reasons_with_history(&ContactBurst, by_email(earlier))[0].weight)
            .collect();
        assert_eq!(weights, [0.5, 0.75, 1.0, 1.25, 1.5, 1.5, 1.5]);
        assert!(ContactBurst::weight(7) < SpamScreen::DEFAULT_THRESHOLD);
        assert!(ContactBurst::weight(8) >= SpamScreen::DEFAULT_THRESHOLD);
    }

    #[test]
    fn the_reason_names_the_contact_and_the_count() {
        let reasons = reasons_with_history(
            &ContactBurst,
            ContactHistory {
                by_email: 2,
                by_phone: 6,
                same_text_other_keys: 0,
            },
        );
        assert_eq!(
            reasons,
            [Reason {
                signal: "contact_burst",
                weight: 0.75,
                detail:
                    "7 jobs from this phone number in the last 60 minutes (more than 5 is unusual)"
                        .to_owned(),
            }]
        );
    }

    #[test]
    fn e_mail_and_phone_counts_are_not_added() {
        let history = ContactHistory {
            by_email: 4,
            by_phone: 4,
            same_text_other_keys: 0,
        };
        assert!(reasons_with_history(&ContactBurst, history).is_empty());
    }
}
