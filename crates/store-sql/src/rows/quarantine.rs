//! A row of `quarantine`.

use super::bad;
use intake_core::jobs::{CreationSource, Quarantined};
use intake_core::spam::Verdict;
use intake_core::store::StoreError;
use time::OffsetDateTime;

/// The columns of `quarantine`, in this order, for statements that name them.
pub const QUARANTINE_COLUMNS: &str = "id, environment, key_id, application, creation_source, request_id, received_at, submission, score, reasons, released_job_id, model_version";

/// A row of `quarantine`.
#[derive(Debug, sqlx::FromRow)]
pub struct QuarantineRow {
    pub id: String,
    pub environment: String,
    pub key_id: String,
    pub application: String,
    pub creation_source: String,
    pub request_id: String,
    pub received_at: OffsetDateTime,
    pub submission: String,
    pub score: f64,
    pub reasons: String,
    pub released_job_id: Option<String>,
    pub model_version: Option<String>,
    /// The operator's verdict, from `spam_decisions`.
    pub decision: Option<String>,
}

impl QuarantineRow {
    /// The entry as stored.
    pub fn into_entry(self) -> Result<Quarantined, StoreError> {
        let bad = |what| bad("a quarantine entry", what);
        Ok(Quarantined {
            environment: self.environment.parse().map_err(|_| bad("environment"))?,
            creation_source: CreationSource::parse(&self.creation_source)
                .ok_or_else(|| bad("creation source"))?,
            id: self.id,
            key_id: self.key_id,
            application: self.application,
            request_id: self.request_id,
            received_at: self.received_at,
            submission: self.submission,
            score: self.score,
            reasons: self.reasons,
            released_job_id: self.released_job_id,
            model_version: self.model_version,
            decision: self
                .decision
                .map(|verdict| Verdict::parse(&verdict).ok_or_else(|| bad("decision")))
                .transpose()?,
        })
    }
}
