//! Submissions classified as spam: kept with their reasons rather than lost,
//! so an operator can review them and release a real job that was caught.

use super::record::CreationSource;
use crate::environment::Environment;
use crate::spam::Verdict;
use time::OffsetDateTime;

/// A submission held back as spam.
#[derive(Debug, Clone, PartialEq)]
pub struct Quarantined {
    /// Id of the quarantine entry (a UUID).
    pub id: String,
    /// Environment of the server and key.
    pub environment: Environment,
    /// The key that signed it.
    pub key_id: String,
    /// The affiliate application (the key's name).
    pub application: String,
    /// How it arrived.
    pub creation_source: CreationSource,
    /// The request's `x-request-id`.
    pub request_id: String,
    /// When it was received.
    pub received_at: OffsetDateTime,
    /// The job's JSON as sent (photos are not kept).
    pub submission: String,
    /// The spam score.
    pub score: f64,
    /// The reasons, as JSON (an array of `{signal, weight, detail}`).
    pub reasons: String,
    /// The job made from it by `intake spam release`, if released.
    pub released_job_id: Option<String>,
    /// The version of the text model that judged it, if one took part.
    pub model_version: Option<String>,
    /// An operator's decision on it, if any (read from the store; not
    /// written by [`JobStore::quarantine`](crate::store::JobStore::quarantine)).
    pub decision: Option<Verdict>,
}
