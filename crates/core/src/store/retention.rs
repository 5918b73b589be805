//! Retention: what the store removes once it is older than the operator
//! keeps it (docs/operations.md, "Retention"). Idempotency records go when
//! they expire ([`JobStore::purge_idempotency`](super::JobStore::purge_idempotency));
//! the rest by age, in bounded batches, so that a purge never holds the
//! database for long and any number of processes may purge at once.

use super::StoreError;
use async_trait::async_trait;
use time::OffsetDateTime;

/// A job old enough to be removed, with the object keys of its photos
/// (which the caller removes from the image store first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpiredJob {
    /// The job's id.
    pub id: String,
    /// Where its photos are in the image store.
    pub image_keys: Vec<String>,
}

/// Removal of records by age.
#[async_trait]
pub trait Purge: Send + Sync + 'static {
    /// Up to `limit` jobs received before `before`, oldest first, with their
    /// photos' object keys.
    async fn expired_jobs(
        &self,
        before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<ExpiredJob>, StoreError>;

    /// Removes these jobs with everything written with them: recipients,
    /// photo records and deliveries (pending ones included: a job that is no
    /// longer kept has no lead left to send). Ids already gone are skipped;
    /// returns how many jobs were removed.
    async fn delete_jobs(&self, ids: &[String]) -> Result<u64, StoreError>;

    /// Removes up to `limit` quarantine entries received before `before`,
    /// released or not; returns how many.
    async fn purge_quarantine(&self, before: OffsetDateTime, limit: u32)
        -> Result<u64, StoreError>;

    /// Removes up to `limit` deliveries that are no longer pending
    /// (delivered, dead or gone) and last changed before `before`; returns
    /// how many. Pending deliveries stay until sent, given up on or removed
    /// with their job.
    async fn purge_deliveries(&self, before: OffsetDateTime, limit: u32)
        -> Result<u64, StoreError>;
}
