//! The labelled set in `data/spam/labelled.jsonl`, and measuring a screen
//! against it. Shared by `intake spam train|eval` and the eval test, so both
//! read the data and count the errors the same way.

use serde::Deserialize;

use super::{Assessment, SpamInput, SpamScreen};

/// One labelled submission, as a line of the JSON Lines file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Labelled {
    /// The job description.
    pub description: String,
    /// The first name.
    pub first_name: String,
    /// The last name.
    pub last_name: String,
    /// The e-mail address.
    pub email: String,
    /// The phone number.
    pub phone: String,
    /// The postcode.
    pub postcode: String,
    /// `"spam"` or `"ham"`.
    pub label: Label,
    /// `"train"` or `"test"` (held out).
    pub split: Split,
}

/// Whether a labelled submission is spam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// Junk to reject.
    Spam,
    /// A real job.
    Ham,
}

/// Which part of the set a submission belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    /// Used to train the text model.
    Train,
    /// Held out to measure the screen.
    Test,
}

impl Labelled {
    /// Parses a JSON Lines file, skipping blank lines. The error names the
    /// line (from 1).
    pub fn parse_all(text: &str) -> Result<Vec<Labelled>, String> {
        text.lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1)))
            .collect()
    }

    /// The submission as the screen sees it.
    pub fn input(&self) -> SpamInput<'_> {
        SpamInput {
            description: &self.description,
            first_name: &self.first_name,
            last_name: &self.last_name,
            email: &self.email,
            phone: &self.phone,
            postcode: &self.postcode,
            history: Default::default(),
        }
    }

    /// Whether it is labelled spam.
    pub fn is_spam(&self) -> bool {
        self.label == Label::Spam
    }
}

/// The `(description, is_spam)` pairs of the train split, for
/// [`NaiveBayes::train`](super::NaiveBayes::train).
pub fn training_examples(set: &[Labelled]) -> Vec<(&str, bool)> {
    set.iter()
        .filter(|example| example.split == Split::Train)
        .map(|example| (example.description.as_str(), example.is_spam()))
        .collect()
}

/// A screen's results on the test split.
#[derive(Debug, Default)]
pub struct Evaluation<'a> {
    /// Spam rejected.
    pub true_positives: usize,
    /// Ham rejected.
    pub false_positives: usize,
    /// Ham accepted.
    pub true_negatives: usize,
    /// Spam accepted.
    pub false_negatives: usize,
    /// Every wrongly judged example, with the screen's assessment.
    pub mistakes: Vec<(&'a Labelled, Assessment)>,
}

impl<'a> Evaluation<'a> {
    /// Runs `screen` over the test split of `set`.
    pub fn run(screen: &SpamScreen, set: &'a [Labelled]) -> Evaluation<'a> {
        let mut evaluation = Evaluation::default();
        for example in set.iter().filter(|example| example.split == Split::Test) {
            let assessment = screen.assess(&example.input());
            let count = match (example.is_spam(), assessment.is_spam) {
                (true, true) => &mut evaluation.true_positives,
                (false, true) => &mut evaluation.false_positives,
                (false, false) => &mut evaluation.true_negatives,
                (true, false) => &mut evaluation.false_negatives,
            };
            *count += 1;
            if example.is_spam() != assessment.is_spam {
                evaluation.mistakes.push((example, assessment));
            }
        }
        evaluation
    }

    /// Share of rejected jobs that were spam (1 when none was rejected).
    pub fn precision(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_positives,
        )
    }

    /// Share of spam rejected.
    pub fn recall(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_negatives,
        )
    }

    /// Share of real jobs rejected.
    pub fn false_positive_rate(&self) -> f64 {
        1.0 - ratio(
            self.true_negatives,
            self.true_negatives + self.false_positives,
        )
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    match whole {
        0 => 1.0,
        _ => part as f64 / whole as f64,
    }
}
