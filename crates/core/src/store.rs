//! The storage contract. Each backend crate implements [`Store`] with its own
//! SQL and transactions; methods are whole operations, never CRUD pieces.

use crate::delivery::{Delivery, DeliveryFilter, Outcome};
use crate::directory::{IndexedTrade, TradeRecord, ValidTrade};
use crate::history::{ContactHistory, HistoryQuery};
use crate::jobs::{CreateOutcome, IdempotencyRecord, NewJob, Quarantined, StoredJob};
use crate::keys::ApiKey;
use async_trait::async_trait;
use std::collections::HashMap;
use std::time::Duration;
use time::OffsetDateTime;

#[cfg(feature = "sqlx")]
mod sqlx_error;

/// Why a store operation failed, in the terms the HTTP edge needs.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record does not exist.
    #[error("not found")]
    NotFound,
    /// A uniqueness rule was broken (the record exists already).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database cannot be reached or is too busy; worth retrying later.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// Anything else; logged, never shown to a client.
    #[error("store error: {0}")]
    Other(String),
}

/// The answer of [`Store::earlier_answer_or_history`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EarlierOrHistory {
    /// The submission was written before: this is its record.
    Earlier(IdempotencyRecord),
    /// A new submission: the consumer's history, to screen it with.
    History(ContactHistory),
}

/// Everything the service keeps. Implemented once per backend.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Checks that the store answers (used by `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Stores a new key; `Conflict` if the key id exists.
    async fn insert_key(&self, key: &ApiKey) -> Result<(), StoreError>;

    /// The key with this id, revoked or not.
    async fn find_key(&self, key_id: &str) -> Result<Option<ApiKey>, StoreError>;

    /// Every key, oldest first.
    async fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError>;

    /// Marks the key revoked at `at`; `NotFound` if there is no such key.
    /// Revoking a revoked key keeps its first revocation time.
    async fn revoke_key(&self, key_id: &str, at: OffsetDateTime) -> Result<ApiKey, StoreError>;

    /// Adds or replaces these trades (by company id) with their reviews and
    /// images, all in one transaction: all or nothing. Bumps the directory version.
    async fn import_trades(&self, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError>;

    /// What matching needs of every trade, for the in-memory index.
    async fn directory(&self) -> Result<Vec<IndexedTrade>, StoreError>;

    /// The search cards (JSON of `intake_api::trades::TradeItem`) of these
    /// trades, in the order asked; unknown ids are skipped.
    async fn trade_cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError>;

    /// The stored records of these trades (as validated at import; reviews
    /// oldest first, images in their order), in the order asked; unknown ids
    /// are skipped.
    async fn trade_records(&self, company_ids: &[u64]) -> Result<Vec<TradeRecord>, StoreError>;

    /// A number that changes whenever trades or categories change, so that
    /// every process can tell when to reload its index.
    async fn directory_version(&self) -> Result<i64, StoreError>;

    /// Replaces the category tree (canonical JSON); bumps the directory version.
    async fn save_category_tree(&self, json: &str) -> Result<(), StoreError>;

    /// The operator's category tree, if one was saved.
    async fn category_tree(&self) -> Result<Option<String>, StoreError>;

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

    /// Quarantined submissions, oldest first; released ones only if asked.
    async fn quarantined(&self, include_released: bool) -> Result<Vec<Quarantined>, StoreError>;

    /// Writes `job` (made from quarantine entry `id`), with its deliveries as
    /// `create_job` does, and marks the entry released, in one transaction.
    /// `NotFound` if there is no such entry, `Conflict` if it was released already.
    async fn release(&self, id: &str, job: &NewJob) -> Result<(), StoreError>;

    /// How many rows of each kind the store holds (for operators and tests).
    async fn counts(&self) -> Result<StoreCounts, StoreError>;

    /// What the store knows of this consumer's earlier jobs (spam screening).
    async fn contact_history(&self, query: &HistoryQuery) -> Result<ContactHistory, StoreError>;

    /// What a valid submission needs from the store before it is screened:
    /// the unexpired idempotency record of the first of `scopes` that has
    /// one (an earlier answer; the history is then not needed) and else the
    /// consumer's history. A backend answers it in one round trip where it can.
    async fn earlier_answer_or_history(
        &self,
        scopes: &[String],
        now: OffsetDateTime,
        query: &HistoryQuery,
    ) -> Result<EarlierOrHistory, StoreError> {
        for scope in scopes {
            if let Some(record) = self.idempotency(scope, now).await? {
                return Ok(EarlierOrHistory::Earlier(record));
            }
        }
        Ok(EarlierOrHistory::History(
            self.contact_history(query).await?,
        ))
    }

    /// Claims up to `limit` pending deliveries due at `now`, oldest due first,
    /// for `lease`: each claimed row's attempts go up by one and its next
    /// attempt moves to `now + lease`, so a dispatcher that dies mid-attempt
    /// leaves it to be claimed again when the lease ends. Concurrent claimers
    /// (threads or processes) never get the same row while a lease runs.
    /// Pending deliveries whose target was marked gone are marked gone here
    /// and not returned.
    async fn claim_deliveries(
        &self,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<Delivery>, StoreError>;

    /// Records the outcome of attempt number `attempt` of delivery `id`.
    /// `Delivered` applies to any pending delivery; the others apply only if
    /// the delivery is pending and still at `attempt` (a dispatcher whose
    /// lease ran out and was overtaken changes nothing). `Gone` also marks the
    /// target gone, with every pending delivery to it. Returns whether it applied.
    async fn finish_delivery(
        &self,
        id: &str,
        attempt: u32,
        outcome: &Outcome,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError>;

    /// Deliveries matching `filter`, oldest first.
    async fn deliveries(&self, filter: &DeliveryFilter) -> Result<Vec<Delivery>, StoreError>;

    /// Makes dead and gone deliveries matching `filter` pending again, due at
    /// `now` (their targets stop being gone); returns how many.
    async fn retry_deliveries(
        &self,
        filter: &DeliveryFilter,
        now: OffsetDateTime,
    ) -> Result<u64, StoreError>;
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

/// What an import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportSummary {
    /// Trades that were new.
    pub inserted: u64,
    /// Trades that replaced an earlier version.
    pub updated: u64,
}
