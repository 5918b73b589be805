//! What the store knows of a consumer's earlier submissions, for the two
//! signals a single submission cannot show on its own: the same consumer and
//! description sent again (often through another affiliate's key), and too
//! many jobs from one e-mail address or phone number in a short time.
//!
//! The store is asked once per submission, before screening, for the counts
//! since `now - WINDOW`; the spam screen's signals (`intake_spam`'s
//! `RepeatAcrossKeys` and `ContactBurst`) then judge the counts without I/O.

mod fingerprint;

pub use fingerprint::fingerprint;

use crate::environment::Environment;
use time::{Duration, OffsetDateTime};

/// How far back both history signals look: one query answers both. An hour
/// catches a lead blasted to several affiliates and a scripted burst, while a
/// homeowner who tries another site the next day is not held against it.
pub const WINDOW: Duration = Duration::hours(1);

/// The question `Store::contact_history` answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryQuery {
    /// The consumer's e-mail address, normalised as stored (`Email::as_str`).
    pub email: String,
    /// The consumer's phone, normalised as stored (`Phone::as_str`).
    pub phone: String,
    /// The description's fingerprint ([`fingerprint`]).
    pub fingerprint: String,
    /// The key submitting now.
    pub key_id: String,
    /// The environment of that key: only jobs of the same environment count,
    /// so an integrator's staging tests never weigh on their live submissions.
    pub environment: Environment,
    /// Only submissions received at or after this count.
    pub since: OffsetDateTime,
}

/// Counts of earlier submissions since `HistoryQuery::since`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContactHistory {
    /// Jobs with the same e-mail address.
    pub by_email: u32,
    /// Jobs with the same phone number.
    pub by_phone: u32,
    /// Jobs with the same e-mail or phone and the same description fingerprint,
    /// submitted through a different key.
    pub same_text_other_keys: u32,
}

impl HistoryQuery {
    /// The question to ask before screening `job`, received `now` through
    /// `key_id` of `environment`: everything since `now - WINDOW`.
    pub fn for_job(
        job: &crate::jobs::ValidatedJob,
        key_id: &str,
        environment: Environment,
        now: OffsetDateTime,
    ) -> Self {
        HistoryQuery {
            email: job.email.as_str().to_owned(),
            phone: job.phone.as_str().to_owned(),
            fingerprint: fingerprint(&job.description),
            key_id: key_id.to_owned(),
            environment,
            since: now - WINDOW,
        }
    }
}
