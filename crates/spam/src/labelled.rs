//! The labelled corpus in `data/spam/corpus/`, and measuring a screen
//! against it out of family. Shared by `intake spam train|eval` and the eval
//! tests, so that all of them read the data and count the errors the same way.
//!
//! Every example names its family (what kind of spam, or what kind of real
//! job), its source and its licence. The screen is measured *out of family*:
//! for each family, a text model is trained on every other family (and on
//! any extra examples, such as operators' decisions) and the screen with that
//! model judges the family's examples. A family the model never saw stands
//! for the spam, or the customers, of next month; scoring on a held-out split
//! of the same families only measures how well the model remembers them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::model::{ModelHandle, ModelOrigin};
use super::{LoadedModel, NaiveBayes, SpamInput, SpamScreen};

/// One labelled submission, as a line of a JSON Lines file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Labelled {
    /// `"spam"` or `"ham"`.
    pub label: Label,
    /// The family, e.g. `seo_links` or `plumbing_heating`.
    pub family: String,
    /// Where the example comes from (`data/spam/corpus/README.md` lists the
    /// sources).
    pub source: String,
    /// The licence it is used under.
    pub licence: String,
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
}

/// Whether a labelled submission is spam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// Junk to reject.
    Spam,
    /// A real job.
    Ham,
}

impl Labelled {
    /// Parses a JSON Lines text, skipping blank lines. The error names the
    /// line (from 1).
    pub fn parse_all(text: &str) -> Result<Vec<Labelled>, String> {
        text.lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1)))
            .collect()
    }

    /// Reads a corpus: a JSON Lines file, or every `*.jsonl` file of a
    /// folder in name order. The error names the file and the line.
    pub fn read(path: &Path) -> Result<Vec<Labelled>, String> {
        let files = if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|file| file.extension().is_some_and(|ext| ext == "jsonl"))
                .collect();
            files.sort();
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut set = Vec::new();
        for file in files {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            set.extend(Labelled::parse_all(&text).map_err(|e| format!("{}: {e}", file.display()))?);
        }
        Ok(set)
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

/// The `(description, is_spam)` pairs of every example, for
/// [`NaiveBayes::train`].
pub fn training_examples(set: &[Labelled]) -> Vec<(&str, bool)> {
    set.iter()
        .map(|example| (example.description.as_str(), example.is_spam()))
        .collect()
}

/// One judged example: its score under the screen that judged it.
#[derive(Debug, Clone)]
pub struct Judged<'a> {
    /// The example.
    pub example: &'a Labelled,
    /// The screen's assessment (at any threshold, the score decides).
    pub assessment: super::Assessment,
}

/// How one family fared.
#[derive(Debug, Clone)]
pub struct FamilyResult<'a> {
    /// The family.
    pub family: String,
    /// Its label.
    pub label: Label,
    /// Every example of it, judged.
    pub judged: Vec<Judged<'a>>,
}

impl FamilyResult<'_> {
    /// How many examples it has.
    pub fn examples(&self) -> usize {
        self.judged.len()
    }

    /// How many were refused at `threshold`.
    pub fn refused(&self, threshold: f64) -> usize {
        self.judged
            .iter()
            .filter(|judged| judged.assessment.score >= threshold)
            .count()
    }

    /// The share refused at `threshold`: recall for a spam family, the
    /// false-positive rate for a ham family.
    pub fn rate(&self, threshold: f64) -> f64 {
        ratio(self.refused(threshold), self.examples())
    }

    /// The examples judged wrongly at `threshold`.
    pub fn mistakes(&self, threshold: f64) -> impl Iterator<Item = &Judged<'_>> {
        let spam = self.label == Label::Spam;
        self.judged
            .iter()
            .filter(move |judged| (judged.assessment.score >= threshold) != spam)
    }
}

/// The out-of-family measure of the standard screen over a corpus.
#[derive(Debug, Clone)]
pub struct OutOfFamily<'a> {
    /// Every family, spam families first, each in name order.
    pub families: Vec<FamilyResult<'a>>,
}

/// The figures [`OutOfFamily`] is judged by at one threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// The threshold.
    pub threshold: f64,
    /// Mean recall over spam families.
    pub mean_recall: f64,
    /// Lowest recall of a spam family.
    pub min_recall: f64,
    /// Mean false-positive rate over ham families.
    pub mean_false_positive_rate: f64,
    /// Highest false-positive rate of a ham family.
    pub max_false_positive_rate: f64,
}

impl Figures {
    /// Whether these figures are at least as good as `other` on every count:
    /// mean and lowest recall no lower, mean and highest false-positive rate
    /// no higher. A model trained with operators' decisions replaces the one
    /// in use only when this holds.
    pub fn no_worse_than(&self, other: &Figures) -> bool {
        const EPSILON: f64 = 1e-9;
        self.mean_recall + EPSILON >= other.mean_recall
            && self.min_recall + EPSILON >= other.min_recall
            && self.mean_false_positive_rate <= other.mean_false_positive_rate + EPSILON
            && self.max_false_positive_rate <= other.max_false_positive_rate + EPSILON
    }
}

impl<'a> OutOfFamily<'a> {
    /// Judges every family of `set` with the standard screen whose text model
    /// is trained on the other families plus `extra` examples.
    pub fn run(set: &'a [Labelled], extra: &[(&str, bool)]) -> OutOfFamily<'a> {
        let mut by_family: BTreeMap<(Label, &str), Vec<&Labelled>> = BTreeMap::new();
        for example in set {
            by_family
                .entry((example.label, example.family.as_str()))
                .or_default()
                .push(example);
        }
        let families = by_family
            .into_iter()
            .map(|((label, family), examples)| {
                let mut training: Vec<(&str, bool)> = set
                    .iter()
                    .filter(|example| example.family != family)
                    .map(|example| (example.description.as_str(), example.is_spam()))
                    .collect();
                training.extend_from_slice(extra);
                let screen =
                    screen_over(NaiveBayes::train(&training), SpamScreen::DEFAULT_THRESHOLD);
                FamilyResult {
                    family: family.to_owned(),
                    label,
                    judged: examples
                        .into_iter()
                        .map(|example| Judged {
                            example,
                            assessment: screen.assess(&example.input()),
                        })
                        .collect(),
                }
            })
            .collect();
        OutOfFamily { families }
    }

    /// The spam families.
    pub fn spam(&self) -> impl Iterator<Item = &FamilyResult<'a>> {
        self.families.iter().filter(|f| f.label == Label::Spam)
    }

    /// The ham families.
    pub fn ham(&self) -> impl Iterator<Item = &FamilyResult<'a>> {
        self.families.iter().filter(|f| f.label == Label::Ham)
    }

    /// The figures at `threshold`.
    pub fn figures(&self, threshold: f64) -> Figures {
        let recalls: Vec<f64> = self.spam().map(|f| f.rate(threshold)).collect();
        let false_positives: Vec<f64> = self.ham().map(|f| f.rate(threshold)).collect();
        Figures {
            threshold,
            mean_recall: mean(&recalls),
            min_recall: recalls.iter().copied().fold(1.0, f64::min),
            mean_false_positive_rate: mean(&false_positives),
            max_false_positive_rate: false_positives.iter().copied().fold(0.0, f64::max),
        }
    }

    /// The lowest threshold, on a grid of 0.05 from 0.5 to 3.0, at which no
    /// ham family loses more than `max_false_positive_rate` of its jobs: the
    /// most spam caught for that promise to real customers.
    pub fn threshold_for(&self, max_false_positive_rate: f64) -> Option<f64> {
        (10..=60)
            .map(|step| f64::from(step) * 0.05)
            .find(|&threshold| {
                self.figures(threshold).max_false_positive_rate <= max_false_positive_rate
            })
    }
}

/// The standard screen at `threshold` with `model` (freshly trained) as its
/// text model. Scores do not depend on the threshold, so out of family one
/// screen serves every threshold measured.
pub fn screen_over(model: NaiveBayes, threshold: f64) -> SpamScreen {
    SpamScreen::standard_with(
        threshold,
        ModelHandle::new(LoadedModel::new(model, ModelOrigin::Stored)),
    )
}

/// A screen's results on a labelled set it was not trained on (such as
/// `data/spam/independent.jsonl`).
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
    pub mistakes: Vec<Judged<'a>>,
}

impl<'a> Evaluation<'a> {
    /// Runs `screen` over every example of `set`.
    pub fn run(screen: &SpamScreen, set: &'a [Labelled]) -> Evaluation<'a> {
        let mut evaluation = Evaluation::default();
        for example in set {
            let assessment = screen.assess(&example.input());
            let count = match (example.is_spam(), assessment.is_spam) {
                (true, true) => &mut evaluation.true_positives,
                (false, true) => &mut evaluation.false_positives,
                (false, false) => &mut evaluation.true_negatives,
                (true, false) => &mut evaluation.false_negatives,
            };
            *count += 1;
            if example.is_spam() != assessment.is_spam {
                evaluation.mistakes.push(Judged {
                    example,
                    assessment,
                });
            }
        }
        evaluation
    }

    /// Share of rejected jobs that were spam (1 when none was rejected).
    pub fn precision(&self) -> f64 {
        match self.true_positives + self.false_positives {
            0 => 1.0,
            rejected => self.true_positives as f64 / rejected as f64,
        }
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
        ratio(
            self.false_positives,
            self.true_negatives + self.false_positives,
        )
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    match whole {
        0 => 0.0,
        _ => part as f64 / whole as f64,
    }
}

fn mean(values: &[f64]) -> f64 {
    match values.len() {
        0 => 0.0,
        n => values.iter().sum::<f64>() / n as f64,
    }
}
