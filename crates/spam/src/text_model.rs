//! The trained text model as a signal: the [`NaiveBayes`] log-odds of the
//! description, turned into a weight.

use super::model::ModelHandle;
use super::{Reason, Signal, SpamInput, SpamScreen};

// The model alone may reject, but only when it is very sure.
const _: () = assert!(TextModel::MAX_WEIGHT > SpamScreen::DEFAULT_THRESHOLD);

/// Adds a reason when the model leans spam (log-odds above zero), weighing
/// `log_odds / TextModel::SCALE`, capped at [`TextModel::MAX_WEIGHT`]. With a
/// scale of 4 the model alone rejects from log-odds 4, odds of about 55 to 1;
/// below that it needs another signal to agree. The model is read through a
/// [`ModelHandle`], so a process can swap in a stored model while it serves.
#[derive(Debug, Clone)]
pub struct TextModel {
    model: ModelHandle,
}

impl TextModel {
    /// Log-odds per unit of weight.
    pub const SCALE: f64 = 4.0;
    /// The most the model can add.
    pub const MAX_WEIGHT: f64 = 1.2;

    /// The signal over the model `handle` holds.
    pub fn new(handle: ModelHandle) -> Self {
        TextModel { model: handle }
    }

    /// The weight for `log_odds`: zero when the model leans ham.
    pub fn weight(log_odds: f64) -> f64 {
        (log_odds / Self::SCALE).clamp(0.0, Self::MAX_WEIGHT)
    }
}

impl Default for TextModel {
    /// The signal over the [`embedded_model`].
    fn default() -> Self {
        TextModel::new(ModelHandle::embedded())
    }
}

impl Signal for TextModel {
    fn name(&self) -> &'static str {
        "text_model"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        self.model.with(|loaded| {
            let log_odds = loaded.log_odds(input.description);
            if log_odds > 0.0 {
                reasons.push(Reason {
                    signal: self.name(),
                    weight: Self::weight(log_odds),
                    detail: format!("log-odds {log_odds:.2} (model {})", loaded.version),
                });
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weight_grows_with_the_odds_and_is_capped() {
        assert_eq!(TextModel::weight(-3.0), 0.0);
        assert_eq!(TextModel::weight(2.0), 0.5);
        assert_eq!(TextModel::weight(60.0), TextModel::MAX_WEIGHT);
    }

    fn reasons(description: &str) -> Vec<Reason> {
        crate::reasons_of(&TextModel::default(), description)
    }

    #[test]
    fn the_embedded_model_flags_a_pitch_and_explains_with_the_log_odds() {
        let found = reasons("We offer SEO and link building to get your business more leads");
        assert_eq!(found.len(), 1);
        assert!(found[0].weight > 0.5, "{found:?}");
        assert!(found[0].detail.starts_with("log-odds "), "{found:?}");
    }

    #[test]
    fn the_embedded_model_adds_nothing_to_a_real_job() {
        assert_eq!(reasons("Boiler not working, no hot water"), []);
    }
}
