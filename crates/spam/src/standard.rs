//! The standard screen: the first rules, the content and sender signals, the
//! trained text model and the contact-history signals.

use super::{
    ContactBurst, ContactDetails, DisposableEmail, Gibberish, ImplausibleName, KeywordStuffing,
    Marketing, Misdirected, ModelHandle, NoJobContent, NotEnglish, RepeatAcrossKeys, SpamScreen,
    TestSubmission, UnsolicitedOffer,
};

impl SpamScreen {
    /// The first rules, then [`Gibberish`], [`ContactDetails`], [`Marketing`],
    /// [`UnsolicitedOffer`], [`KeywordStuffing`], [`NoJobContent`], [`Misdirected`], [`TestSubmission`], [`NotEnglish`],
    /// [`DisposableEmail`], [`ImplausibleName`], the [`TextModel`] over
    /// the embedded model, and the history signals [`RepeatAcrossKeys`] and
    /// [`ContactBurst`] (silent unless the caller filled `SpamInput::history`).
    /// Measured by `intake spam eval` out of family on `data/spam/corpus/`
    /// and on `data/spam/independent.jsonl` (single submissions, so without
    /// history); see `docs/spam.md`.
    ///
    /// # Panics
    ///
    /// As [`SpamScreen::new`].
    pub fn standard(threshold: f64) -> Self {
        SpamScreen::standard_with(threshold, ModelHandle::embedded())
    }

    /// [`SpamScreen::standard`] with the text model `handle` holds: a process
    /// keeps a clone of the handle to swap in a stored model, and evaluation
    /// passes a model trained without the family it measures.
    ///
    /// # Panics
    ///
    /// As [`SpamScreen::new`].
    pub fn standard_with(threshold: f64, handle: ModelHandle) -> Self {
        SpamScreen::with_first_rules(threshold)
            .with_signal(Gibberish)
            .with_signal(ContactDetails)
            .with_signal(Marketing)
            .with_signal(UnsolicitedOffer)
            .with_signal(KeywordStuffing)
            .with_signal(NoJobContent)
            .with_signal(Misdirected)
            .with_signal(TestSubmission)
            .with_signal(NotEnglish)
            .with_signal(DisposableEmail)
            .with_signal(ImplausibleName)
            .with_model(handle)
            .with_signal(RepeatAcrossKeys)
            .with_signal(ContactBurst)
    }
}

#[cfg(test)]
mod tests {
    use super::super::corpus_tests::REAL_JOBS;
    use super::*;
    use crate::SpamInput;

    #[test]
    fn the_standard_screen_runs_every_signal_in_order() {
        let names: Vec<_> = SpamScreen::standard(1.0).signal_names().collect();
        assert_eq!(
            names,
            [
                "thin",
                "link",
                "repeated_characters",
                "gibberish",
                "contact_details",
                "marketing",
                "unsolicited_offer",
                "keyword_stuffing",
                "no_job_content",
                "misdirected",
                "test_submission",
                "not_english",
                "disposable_email",
                "implausible_name",
                "text_model",
                "repeat_across_keys",
                "contact_burst"
            ]
        );
    }

    #[test]
    fn every_real_job_of_the_corpus_passes_the_standard_screen() {
        let screen = SpamScreen::standard(SpamScreen::DEFAULT_THRESHOLD);
        let flagged: Vec<_> = REAL_JOBS
            .iter()
            .map(|job| {
                let input = SpamInput {
                    description: job,
                    first_name: "Gareth",
                    last_name: "Evans",
                    email: "gareth.evans@example.co.uk",
                    phone: "029 2018 0123",
                    postcode: "CF10 1EP",
                    history: Default::default(),
                };
                (*job, screen.assess(&input))
            })
            .filter(|(_, assessment)| assessment.is_spam)
            .collect();
        assert!(flagged.is_empty(), "{flagged:#?}");
    }
}
