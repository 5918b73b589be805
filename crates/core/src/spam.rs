//! The spam screen as the intake pipeline sees it: what it is shown, what it
//! answers, and the port ([`Screen`]) a screen implements. The screen itself,
//! its signals and its model, live in `intake-spam`; the pipeline needs only
//! this much, so core depends on no screen.

use crate::history::ContactHistory;
use serde::Serialize;

/// What the screen looks at. The caller has already validated each field's
/// syntax, so signals judge content, not shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpamInput<'a> {
    /// The homeowner's description of the job, as submitted.
    pub description: &'a str,
    /// The homeowner's first name.
    pub first_name: &'a str,
    /// The homeowner's last name.
    pub last_name: &'a str,
    /// The homeowner's e-mail address.
    pub email: &'a str,
    /// The homeowner's phone number.
    pub phone: &'a str,
    /// The job's postcode.
    pub postcode: &'a str,
    /// The consumer's earlier jobs, fetched by the caller before screening
    /// (`Store::contact_history`) so that the screen itself does no I/O.
    /// All zeros when unknown: the history signals then stay silent.
    pub history: ContactHistory,
}

/// One reason a job looks like spam, for logs and the quarantine. Never sent to
/// the affiliate: telling spammers which rule fired teaches them to dodge it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    /// The name of the signal that found it, e.g. `"link"`, so reasons can be
    /// counted per signal when tuning weights.
    pub signal: &'static str,
    /// How much this reason counts towards the threshold. Usually positive; a
    /// signal may add a negative weight to vouch for a job.
    pub weight: f64,
    /// What was found, for a person reviewing the quarantine.
    pub detail: String,
}

/// The verdict on one job, with everything needed to explain it later.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    /// The sum of the reasons' weights.
    pub score: f64,
    /// Every reason found, in the order of the screen's signals.
    pub reasons: Vec<Reason>,
    /// Whether `score` reached the screen's threshold.
    pub is_spam: bool,
    /// The version of the trained text model that took part, if one did: kept
    /// with a quarantine entry so that an operator's decision on it can be
    /// traced to the model it corrects.
    pub model_version: Option<String>,
}

/// A spam screen: judges one job, with no I/O (it runs inside the request).
pub trait Screen: Send + Sync {
    /// The verdict on `input`.
    fn assess(&self, input: &SpamInput<'_>) -> Assessment;
}

/// An operator's verdict on a quarantined submission (`intake spam release`
/// says legitimate, `intake spam confirm` says spam).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Spam: the screen was right.
    Spam,
    /// A legitimate job the screen caught: it was released.
    Ham,
}

impl Verdict {
    /// The stored form: `"spam"` or `"ham"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Spam => "spam",
            Verdict::Ham => "ham",
        }
    }

    /// Reads the stored form.
    pub fn parse(text: &str) -> Option<Verdict> {
        match text {
            "spam" => Some(Verdict::Spam),
            "ham" => Some(Verdict::Ham),
            _ => None,
        }
    }
}

/// An operator's decision on a quarantined submission, kept as a labelled
/// example for training (`intake spam train --with-decisions`). It holds the
/// description and the verdict only: the caller removes e-mail addresses and
/// phone numbers from the text, and no contact field is kept, so a decision
/// outlives the submission's personal data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpamDecision {
    /// The quarantine entry decided on (one decision an entry).
    pub quarantine_id: String,
    /// What the operator said.
    pub verdict: Verdict,
    /// The description, with contact details removed.
    pub description: String,
    /// The version of the text model that judged the submission, if known.
    pub model_version: Option<String>,
    /// When the operator decided.
    pub decided_at: time::OffsetDateTime,
}

/// A text model trained with operators' decisions, kept in the store so that
/// every process screens with it (docs/spam.md, "Learning from operators").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSpamModel {
    /// The model's version (a hash of its JSON).
    pub version: String,
    /// The model as JSON.
    pub model: String,
    /// What it was trained on and its out-of-family figures, as JSON.
    pub report: String,
    /// When it was stored.
    pub created_at: time::OffsetDateTime,
}
