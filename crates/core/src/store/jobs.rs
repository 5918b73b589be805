//! Jobs, with what decides whether one is written: idempotency records,
//! quarantine and the consumer's contact history.

use super::StoreError;
use crate::history::{ContactHistory, HistoryQuery};
use crate::jobs::{CreateOutcome, IdempotencyRecord, NewJob, Quarantined, StoredJob};
use crate::spam::SpamDecision;
use async_trait::async_trait;
use std::collections::HashMap;
use time::OffsetDateTime;

/// The answer of [`JobStore::earlier_answer_or_history`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EarlierOrHistory {
    /// The submission was written before: this is its record.
    Earlier(IdempotencyRecord),
    /// A new submission: what it is screened and routed with.
    History {
        /// The consumer's history, for the spam screen.
        history: ContactHistory,
        /// The leads of the asked trades since the asked time, for fairness
        /// (a trade with none is absent).
        recent_leads: HashMap<u64, u32>,
    },
}

/// The trades whose recent leads a new submission asks for (its shortlist),
/// and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadsQuery {
    /// The trades' company ids.
    pub company_ids: Vec<u64>,
    /// Leads from this time on count.
    pub since: OffsetDateTime,
}

/// Jobs and their recipients, idempotency records, quarantined submissions
/// and the history the spam screen reads.
#[async_trait]
pub trait JobStore: Send + Sync + 'static {
    /// Writes a job, its recipients, its images, its idempotency records and,
    /// for a production job, its deliveries (one per recipient and channel the
    /// trade's directory record names, pending and due at once; `gone` at
    /// once for a target marked gone) in one transaction. If a record of the
    /// same scope exists (a concurrent repeat won the race), writes nothing
    /// and returns that record.
    async fn create_job(&self, job: &NewJob) -> Result<CreateOutcome, StoreError>;

    /// The unexpired idempotency record of `scope`.
    async fn idempotency(
        &self,
        scope: &str,
        now: OffsetDateTime,
    ) -> Result<Option<IdempotencyRecord>, StoreError>;

    /// Forgets idempotency records expired before `now`; returns how many.
    async fn purge_idempotency(&self, now: OffsetDateTime) -> Result<u64, StoreError>;

    /// The job with this id.
    async fn job(&self, id: &str) -> Result<Option<StoredJob>, StoreError>;

    /// Leads each of these trades received since `since` (for fairness).
    async fn recent_leads(
        &self,
        company_ids: &[u64],
        since: OffsetDateTime,
    ) -> Result<HashMap<u64, u32>, StoreError>;

    /// Keeps a submission classified as spam.
    async fn quarantine(&self, entry: &Quarantined) -> Result<(), StoreError>;

    /// Quarantined submissions, oldest first; those decided on (released or
    /// confirmed as spam) only if asked.
    async fn quarantined(&self, include_decided: bool) -> Result<Vec<Quarantined>, StoreError>;

    /// Writes `job` (made from quarantine entry `id`), with its deliveries as
    /// `create_job` does, marks the entry released and records `decision`
    /// (legitimate), in one transaction. `NotFound` if there is no such
    /// entry, `Conflict` if it was released or decided on already.
    async fn release(
        &self,
        id: &str,
        job: &NewJob,
        decision: &SpamDecision,
    ) -> Result<(), StoreError>;

    /// How many rows of each kind the store holds (for operators and tests).
    async fn counts(&self) -> Result<StoreCounts, StoreError>;

    /// What the store knows of this consumer's earlier jobs (spam screening).
    async fn contact_history(&self, query: &HistoryQuery) -> Result<ContactHistory, StoreError>;

    /// What a valid submission needs from the store before it is screened
    /// and routed: the unexpired idempotency record of the first of `scopes`
    /// that has one (an earlier answer; nothing else is then needed), and
    /// else the consumer's history and the recent leads of the trades of
    /// `leads`. A backend answers it in one round trip where it can: the
    /// reads before a job is written cost its request more than its share
    /// of the group-committed write.
    async fn earlier_answer_or_history(
        &self,
        scopes: &[String],
        now: OffsetDateTime,
        query: &HistoryQuery,
        leads: &LeadsQuery,
    ) -> Result<EarlierOrHistory, StoreError> {
        for scope in scopes {
            if let Some(record) = self.idempotency(scope, now).await? {
                return Ok(EarlierOrHistory::Earlier(record));
            }
        }
        Ok(EarlierOrHistory::History {
            history: self.contact_history(query).await?,
            recent_leads: self.recent_leads(&leads.company_ids, leads.since).await?,
        })
    }
}

/// Row counts of the job tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoreCounts {
    /// Jobs.
    pub jobs: u64,
    /// Job recipients.
    pub recipients: u64,
    /// Idempotency records, expired or not.
    pub idempotency: u64,
    /// Deliveries (outbox rows), in any state.
    pub deliveries: u64,
}
