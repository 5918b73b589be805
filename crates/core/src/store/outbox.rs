//! The delivery outbox: one row per lead to send, written with its job.

use super::StoreError;
use crate::delivery::{Backlog, Delivery, DeliveryFilter, Outcome};
use async_trait::async_trait;
use std::time::Duration;
use time::OffsetDateTime;

/// The deliveries of production jobs (written by
/// [`JobStore::create_job`](super::JobStore::create_job)): claimed under a
/// lease, finished once, retried by operators.
#[async_trait]
pub trait Outbox: Send + Sync + 'static {
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

    /// How many deliveries are pending, and when the oldest of them was made.
    async fn outbox_backlog(&self) -> Result<Backlog, StoreError>;

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
