//! The same consumer and description sent again through another affiliate's
//! key within the history window: a lead sold twice. The first copy has
//! already reached trades, so refusing the second loses the homeowner nothing,
//! while letting it through makes trades pay twice for one job.

use super::{Reason, Signal, SpamInput, SpamScreen};

// Decisive alone: a resold lead is refused whatever its text.
const _: () = assert!(RepeatAcrossKeys::WEIGHT >= SpamScreen::DEFAULT_THRESHOLD);

/// Flags a job whose consumer (e-mail or phone) and description fingerprint
/// were already submitted through a different key (`ContactHistory::same_text_other_keys`).
/// A repeat through the same key is a retry, not a resale: it is left to
/// idempotency and to [`super::ContactBurst`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RepeatAcrossKeys;

impl RepeatAcrossKeys {
    /// Weight of a resubmission through another key.
    pub const WEIGHT: f64 = 1.0;
}

impl Signal for RepeatAcrossKeys {
    fn name(&self) -> &'static str {
        "repeat_across_keys"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let times = input.history.same_text_other_keys;
        if times == 0 {
            return;
        }
        reasons.push(Reason {
            signal: self.name(),
            weight: Self::WEIGHT,
            detail: format!(
                "the same consumer and description came through another key {times} time{} in the last {} minutes",
                if times == 1 { "" } else { "s" },
                intake_core::history::WINDOW.whole_minutes()
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons_with_history;
    use intake_core::history::ContactHistory;

    #[test]
    fn a_first_submission_has_no_repeat() {
        assert!(reasons_with_history(&RepeatAcrossKeys, ContactHistory::default()).is_empty());
    }

    #[test]
    fn many_jobs_from_the_same_consumer_are_not_a_repeat_across_keys() {
        let history = ContactHistory {
            by_email: 4,
            by_phone: 4,
            same_text_other_keys: 0,
        };
        assert!(reasons_with_history(&RepeatAcrossKeys, history).is_empty());
    }

    #[test]
    fn the_same_text_through_another_key_rejects_alone_and_says_how_often() {
        let history = ContactHistory {
            by_email: 2,
            by_phone: 0,
            same_text_other_keys: 2,
        };
        let reasons = reasons_with_history(&RepeatAcrossKeys, history);
        assert_eq!(
            reasons,
            [Reason {
                signal: "repeat_across_keys",
                weight: 1.0,
                detail: "the same consumer and description came through another key 2 times in the last 60 minutes".to_owned(),
            }]
        );
    }
}
