//! A multinomial naive Bayes model of descriptions, trained on the corpus in
//! `data/spam/corpus/` and embedded in the binary.
//!
//! The model keeps integer counts only, in a sorted map, so training twice on
//! the same examples writes the same JSON byte for byte; log-probabilities are
//! derived from the counts when scoring.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, OnceLock};

use arc_swap::ArcSwap;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The committed model, trained by `intake spam train` on the whole corpus.
const EMBEDDED: &str = include_str!("../../../data/spam/model.json");

/// How often each token was seen in spam and in ham descriptions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NaiveBayes {
    /// Spam descriptions trained on.
    pub spam_documents: u32,
    /// Ham descriptions trained on.
    pub ham_documents: u32,
    /// Tokens counted in spam descriptions.
    pub spam_tokens: u32,
    /// Tokens counted in ham descriptions.
    pub ham_tokens: u32,
    /// Each token with its `[spam, ham]` counts, in sorted order.
    pub vocabulary: BTreeMap<String, [u32; 2]>,
}

impl NaiveBayes {
    /// Counts the tokens of each `(description, is_spam)` example.
    pub fn train(examples: &[(&str, bool)]) -> NaiveBayes {
        let mut model = NaiveBayes {
            spam_documents: 0,
            ham_documents: 0,
            spam_tokens: 0,
            ham_tokens: 0,
            vocabulary: BTreeMap::new(),
        };
        for &(text, is_spam) in examples {
            let class = usize::from(!is_spam);
            if is_spam {
                model.spam_documents += 1;
            } else {
                model.ham_documents += 1;
            }
            each_token(text, |token| {
                match model.vocabulary.get_mut(token) {
                    Some(counts) => counts[class] += 1,
                    None => {
                        let mut counts = [0, 0];
                        counts[class] = 1;
                        model.vocabulary.insert(token.to_owned(), counts);
                    }
                }
                if is_spam {
                    model.spam_tokens += 1;
                } else {
                    model.ham_tokens += 1;
                }
            });
        }
        model
    }

    /// The natural log of the odds that `text` is spam: positive leans spam.
    ///
    /// Laplace (add-one) smoothing over the vocabulary. Tokens never seen in
    /// training are skipped rather than smoothed: they say nothing about
    /// either class, and counting them would let length alone move the odds.
    pub fn log_odds(&self, text: &str) -> f64 {
        self.log_odds_by(text, |token| self.vocabulary.get(token).copied())
    }

    /// [`NaiveBayes::log_odds`] with the counts of a token found by `lookup`.
    fn log_odds_by(&self, text: &str, lookup: impl Fn(&str) -> Option<[u32; 2]>) -> f64 {
        if self.spam_documents == 0 || self.ham_documents == 0 {
            return 0.0;
        }
        let size = self.vocabulary.len() as f64;
        let spam_total = f64::from(self.spam_tokens) + size;
        let ham_total = f64::from(self.ham_tokens) + size;
        let mut odds = (f64::from(self.spam_documents) / f64::from(self.ham_documents)).ln();
        each_token(text, |token| {
            if let Some([spam, ham]) = lookup(token) {
                let p_spam = (f64::from(spam) + 1.0) / spam_total;
                let p_ham = (f64::from(ham) + 1.0) / ham_total;
                odds += p_spam.ln() - p_ham.ln();
            }
        });
        odds
    }

    /// The model as pretty JSON with a final newline, as committed.
    pub fn to_json(&self) -> String {
        let mut json = serde_json::to_string_pretty(self).expect("counts always serialise");
        json.push('\n');
        json
    }

    /// Reads a model written by [`NaiveBayes::to_json`].
    pub fn from_json(json: &str) -> Result<NaiveBayes, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// The model's version: the first 12 hex digits of the SHA-256 of its
    /// JSON. Training is reproducible, so the same examples give the same
    /// version on every machine, and a quarantine entry's version names the
    /// exact counts that judged it.
    pub fn version(&self) -> String {
        let digest = Sha256::digest(self.to_json().as_bytes());
        hex::encode(&digest[..6])
    }
}

/// The model in `data/spam/model.json`, parsed once.
pub fn embedded_model() -> &'static NaiveBayes {
    &embedded().model
}

fn embedded() -> &'static Arc<LoadedModel> {
    static MODEL: OnceLock<Arc<LoadedModel>> = OnceLock::new();
    MODEL.get_or_init(|| {
        let model = NaiveBayes::from_json(EMBEDDED).expect("the embedded model is valid");
        Arc::new(LoadedModel::new(model, ModelOrigin::Embedded))
    })
}

/// Where the model in use came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelOrigin {
    /// Built into the binary from `data/spam/model.json`: the default and the
    /// fallback.
    Embedded,
    /// Trained with operators' decisions (`intake spam train
    /// --with-decisions`) and read from the store.
    Stored,
}

impl fmt::Display for ModelOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ModelOrigin::Embedded => "embedded",
            ModelOrigin::Stored => "stored",
        })
    }
}

/// A model with its version and origin, as a screen uses it.
#[derive(Debug, PartialEq)]
pub struct LoadedModel {
    /// [`NaiveBayes::version`], computed once.
    pub version: String,
    /// Where it came from.
    pub origin: ModelOrigin,
    /// The counts.
    pub model: NaiveBayes,
    /// The vocabulary again, hashed: looking each token up in the sorted map
    /// compared strings a dozen times a token, the screen's largest cost.
    index: HashMap<String, [u32; 2]>,
}

impl LoadedModel {
    /// `model` from `origin`, with its version.
    pub fn new(model: NaiveBayes, origin: ModelOrigin) -> Self {
        LoadedModel {
            version: model.version(),
            origin,
            index: model
                .vocabulary
                .iter()
                .map(|(token, counts)| (token.clone(), *counts))
                .collect(),
            model,
        }
    }

    /// [`NaiveBayes::log_odds`], through the hashed vocabulary.
    pub fn log_odds(&self, text: &str) -> f64 {
        self.model
            .log_odds_by(text, |token| self.index.get(token).copied())
    }
}

/// The model a screen uses, replaceable while requests are screened: every
/// clone sees a replacement at once. Reading it is a lock-free atomic load,
/// so the screen stays cheap; a process swaps in a stored model when it finds
/// a newer one (docs/spam.md, "Learning from operators").
#[derive(Clone)]
pub struct ModelHandle(Arc<ArcSwap<LoadedModel>>);

impl ModelHandle {
    /// A handle over the embedded model.
    pub fn embedded() -> Self {
        ModelHandle(Arc::new(ArcSwap::new(Arc::clone(embedded()))))
    }

    /// A handle over `model`.
    pub fn new(model: LoadedModel) -> Self {
        ModelHandle(Arc::new(ArcSwap::from_pointee(model)))
    }

    /// The model in use now.
    pub fn current(&self) -> Arc<LoadedModel> {
        self.0.load_full()
    }

    /// Uses `model` from now on, in every clone of this handle.
    pub fn replace(&self, model: LoadedModel) {
        self.0.store(Arc::new(model));
    }

    /// Goes back to the embedded model.
    pub fn reset(&self) {
        self.0.store(Arc::clone(embedded()));
    }

    /// Calls `f` with the model in use, without taking a reference count.
    pub(crate) fn with<T>(&self, f: impl FnOnce(&LoadedModel) -> T) -> T {
        f(&self.0.load())
    }
}

impl fmt::Debug for ModelHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with(|model| {
            f.debug_struct("ModelHandle")
                .field("version", &model.version)
                .field("origin", &model.origin)
                .finish()
        })
    }
}

/// Word unigrams and bigrams of the lowercased text, as [`each_token`] gives
/// them, owned (for training).
#[cfg(test)]
fn tokens(text: &str) -> impl Iterator<Item = String> {
    let mut found = Vec::new();
    each_token(text, |token| found.push(token.to_owned()));
    found.into_iter()
}

/// Calls `f` with each word unigram of the lowercased text, then each
/// bigram. Digits are folded to `0` so "3m" and "12m" count as one token:
/// sizes and prices say "a real job", whatever the number. The words are
/// written once into one buffer, a space apart, so that a bigram is a slice
/// of it and no token is allocated.
fn each_token(text: &str, mut f: impl FnMut(&str)) {
    let mut buffer = String::with_capacity(text.len() + 8);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for word in text
        .split(|c: char| !c.is_alphanumeric() && c != '£' && c != '$')
        .filter(|word| !word.is_empty())
    {
        if !buffer.is_empty() {
            buffer.push(' ');
        }
        let start = buffer.len();
        buffer.extend(word.chars().flat_map(char::to_lowercase).map(|c| {
            if c.is_numeric() {
                '0'
            } else {
                c
            }
        }));
        spans.push((start, buffer.len()));
    }
    for &(start, end) in &spans {
        f(&buffer[start..end]);
    }
    for pair in spans.windows(2) {
        f(&buffer[pair[0].0..pair[1].1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLES: &[(&str, bool)] = &[
        ("cheap SEO services, first page of Google", true),
        ("earn bitcoin profit fast", true),
        ("boiler not working, no hot water", false),
        ("leaking tap in the kitchen", false),
    ];

    #[test]
    fn tokens_are_lowercased_unigrams_then_bigrams_with_digits_folded() {
        let found: Vec<String> = tokens("Fit 12m cable, £500").collect();
        assert_eq!(
            found,
            [
                "fit",
                "00m",
                "cable",
                "£000",
                "fit 00m",
                "00m cable",
                "cable £000"
            ]
        );
    }

    #[test]
    fn training_twice_writes_identical_json() {
        let first = NaiveBayes::train(EXAMPLES).to_json();
        let second = NaiveBayes::train(EXAMPLES).to_json();
        assert_eq!(first, second);
        assert_eq!(NaiveBayes::from_json(&first).unwrap().to_json(), first);
    }

    #[test]
    fn spam_words_lean_spam_and_job_words_lean_ham() {
        let model = NaiveBayes::train(EXAMPLES);
        assert!(model.log_odds("SEO for your page on Google") > 0.0);
        assert!(model.log_odds("hot water tap leaking") < 0.0);
    }

    #[test]
    fn the_version_names_the_counts_and_a_handle_swaps_in_every_clone() {
        let model = NaiveBayes::train(EXAMPLES);
        assert_eq!(model.version(), NaiveBayes::train(EXAMPLES).version());
        assert_eq!(model.version().len(), 12);
        assert_ne!(model.version(), embedded_model().version());
        let handle = ModelHandle::embedded();
        let clone = handle.clone();
        assert_eq!(clone.current().origin, ModelOrigin::Embedded);
        handle.replace(LoadedModel::new(model.clone(), ModelOrigin::Stored));
        assert_eq!(clone.current().version, model.version());
        assert_eq!(clone.current().origin, ModelOrigin::Stored);
        handle.reset();
        assert_eq!(clone.current().version, embedded_model().version());
    }

    #[test]
    fn the_hashed_vocabulary_scores_as_the_sorted_one() {
        let model = embedded_model();
        let loaded = LoadedModel::new(model.clone(), ModelOrigin::Embedded);
        for text in [
            "Boiler not working, no hot water since Monday, £120 budget",
            "We help plumbing firms get 3x more leads, £49 a month",
            "Ça coûte 12€ — überprüfen Sie es",
        ] {
            assert_eq!(loaded.log_odds(text), model.log_odds(text), "{text}");
        }
    }

    #[test]
    fn unseen_words_leave_only_the_prior() {
        let model = NaiveBayes::train(EXAMPLES);
        assert_eq!(model.log_odds("zzz qqq"), 0.0);
    }
}
