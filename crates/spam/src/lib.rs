//! The spam screen: decides whether a submitted job is spam, and says why.
//!
//! A job is screened by a list of independent [`Signal`]s. Each signal looks at
//! the job and may add weighted [`Reason`]s; the job is spam when the weights
//! add up to the screen's threshold. Scoring by summed weights (rather than
//! letting any one rule reject) lets a weak hint such as a run of `!!!!!!` stay
//! harmless alone while still tipping a job that is also suspicious in another
//! way. Callers only see [`SpamScreen::assess`], so later signals (gibberish,
//! disposable e-mail domains, velocity, a trained model) slot in as more
//! `Signal`s without changing them.
//!
//! The first rules look at the description only:
//! [`ThinDescription`], [`Links`] and [`RepeatedCharacters`].
//! Screening does no I/O; patterns are compiled once, and a clean job costs no
//! allocation beyond the empty list of reasons.

mod burst;
mod contact;
mod disposable;
mod gibberish;
mod job_content;
pub mod labelled;
mod language;
mod links;
mod marketing;
mod misdirected;
mod model;
mod names;
mod offer;
mod repeat;
mod repeats;
mod standard;
mod stuffing;
mod test_submission;
mod text_model;
mod thin;
mod words;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod tests;

/// What one signal says of a description sent by an ordinary homeowner (the
/// other members fixed), for the signals' own tests.
#[cfg(test)]
pub(crate) fn reasons_of(signal: &dyn Signal, description: &str) -> Vec<Reason> {
    let input = SpamInput {
        description,
        first_name: "Sam",
        last_name: "Jones",
        email: "sam@example.co.uk",
        phone: "07700 900123",
        postcode: "LS1 4AP",
        history: ContactHistory::default(),
    };
    let mut reasons = Vec::new();
    signal.assess(&input, &mut reasons);
    reasons
}

/// What one signal says of an ordinary submission with this contact history,
/// for the history signals' own tests.
#[cfg(test)]
pub(crate) fn reasons_with_history(signal: &dyn Signal, history: ContactHistory) -> Vec<Reason> {
    let input = SpamInput {
        description: "Boiler not working, no hot water since Monday.",
        first_name: "Sam",
        last_name: "Jones",
        email: "sam@example.co.uk",
        phone: "07700 900123",
        postcode: "LS1 4AP",
        history,
    };
    let mut reasons = Vec::new();
    signal.assess(&input, &mut reasons);
    reasons
}

use std::fmt;

#[cfg(test)]
use intake_core::history::ContactHistory;

pub use burst::ContactBurst;
pub use contact::{redact_contact_details, ContactDetails};
pub use disposable::DisposableEmail;
pub use gibberish::Gibberish;
pub use job_content::NoJobContent;
pub use language::NotEnglish;
pub use links::Links;
pub use marketing::Marketing;
pub use misdirected::Misdirected;
pub use model::{embedded_model, LoadedModel, ModelHandle, ModelOrigin, NaiveBayes};
pub use names::ImplausibleName;
pub use offer::UnsolicitedOffer;
pub use repeat::RepeatAcrossKeys;
pub use repeats::RepeatedCharacters;
pub use stuffing::KeywordStuffing;
pub use test_submission::TestSubmission;
pub use text_model::TextModel;
pub use thin::ThinDescription;

pub use intake_core::spam::{Assessment, Reason, SpamInput};

/// One independent way of spotting spam. A signal adds zero or more reasons
/// and never decides alone: the screen sums the weights, so signals stay small
/// and can be tuned, added or removed one at a time.
pub trait Signal: Send + Sync {
    /// A short stable name, used as [`Reason::signal`].
    fn name(&self) -> &'static str;

    /// Looks at `input` and pushes a reason for each thing found. Must not do
    /// I/O: screening runs inside the request.
    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>);
}

/// The configured list of signals and the threshold they are judged against.
/// Built once at start and shared by every request.
pub struct SpamScreen {
    signals: Vec<Box<dyn Signal>>,
    threshold: f64,
    model: Option<ModelHandle>,
}

impl intake_core::spam::Screen for SpamScreen {
    fn assess(&self, input: &SpamInput<'_>) -> Assessment {
        SpamScreen::assess(self, input)
    }
}

impl SpamScreen {
    /// The weight at which a job counts as spam. The strong rules weigh this
    /// much alone; weak ones weigh less so they only reject in combination.
    pub const DEFAULT_THRESHOLD: f64 = 1.0;

    /// A screen with no signals, to build up with [`SpamScreen::with_signal`].
    ///
    /// # Panics
    ///
    /// When `threshold` is not a finite positive number: a threshold of zero
    /// or below would reject every job, which is a configuration mistake to
    /// catch at start rather than a policy.
    pub fn new(threshold: f64) -> Self {
        assert!(
            threshold.is_finite() && threshold > 0.0,
            "the spam threshold must be a finite positive number, not {threshold}"
        );
        SpamScreen {
            signals: Vec::new(),
            threshold,
            model: None,
        }
    }

    /// The first rules: thin or low-information descriptions, links, and
    /// repeated characters.
    ///
    /// # Panics
    ///
    /// As [`SpamScreen::new`].
    pub fn with_first_rules(threshold: f64) -> Self {
        SpamScreen::new(threshold)
            .with_signal(ThinDescription)
            .with_signal(Links)
            .with_signal(RepeatedCharacters)
    }

    /// Adds a signal after the existing ones.
    pub fn with_signal(mut self, signal: impl Signal + 'static) -> Self {
        self.signals.push(Box::new(signal));
        self
    }

    /// Adds the [`TextModel`] over `handle`, and names the handle's model in
    /// every [`Assessment::model_version`].
    pub fn with_model(mut self, handle: ModelHandle) -> Self {
        self.model = Some(handle.clone());
        self.with_signal(TextModel::new(handle))
    }

    /// The handle of the text model, if the screen has one: a process
    /// replaces the model through it.
    pub fn model(&self) -> Option<&ModelHandle> {
        self.model.as_ref()
    }

    /// The score at or above which a job is spam.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// The names of the signals, in the order they run.
    pub fn signal_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.signals.iter().map(|signal| signal.name())
    }

    /// Runs every signal over `input` and sums their weights.
    pub fn assess(&self, input: &SpamInput<'_>) -> Assessment {
        let model_version = self.model.as_ref().map(|m| m.with(|m| m.version.clone()));
        let mut reasons = Vec::new();
        for signal in &self.signals {
            signal.assess(input, &mut reasons);
        }
        // A fold from +0.0, because an empty `f64` sum is -0.0 and would read
        // oddly in logs.
        let score = reasons.iter().fold(0.0, |sum, reason| sum + reason.weight);
        Assessment {
            score,
            is_spam: score >= self.threshold,
            reasons,
            model_version,
        }
    }
}

impl Default for SpamScreen {
    /// The first rules at [`SpamScreen::DEFAULT_THRESHOLD`].
    fn default() -> Self {
        SpamScreen::with_first_rules(SpamScreen::DEFAULT_THRESHOLD)
    }
}

impl fmt::Debug for SpamScreen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpamScreen")
            .field("signals", &self.signal_names().collect::<Vec<_>>())
            .field("threshold", &self.threshold)
            .finish()
    }
}
