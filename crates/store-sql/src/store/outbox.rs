//! The delivery outbox on SQL: the dialect's claim, gone and retry, and
//! the statements of `crate::deliveries`.

use super::SqlStore;
use crate::dialect::Backend;
use crate::rows::deliveries::DeliveryRow;
use async_trait::async_trait;
use intake_core::delivery::{Backlog, Delivery, DeliveryFilter, Outcome};
use intake_core::store::{Outbox, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use std::time::Duration;
use time::OffsetDateTime;

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> Outbox for SqlStore<D> {
    async fn claim_deliveries(
        &self,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<Delivery>, StoreError> {
        let rows = D::claim(&self.pool, now, lease, limit).await?;
        let mut claimed = rows
            .into_iter()
            .map(DeliveryRow::into_delivery)
            .collect::<Result<Vec<_>, _>>()?;
        claimed.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(claimed)
    }

    async fn finish_delivery(
        &self,
        id: &str,
        attempt: u32,
        outcome: &Outcome,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        self.finish(id, attempt, outcome, now).await
    }

    async fn outbox_backlog(&self) -> Result<Backlog, StoreError> {
        let (pending, oldest_created_at) = D::backlog(&self.pool).await?;
        Ok(Backlog {
            pending: u64::try_from(pending).unwrap_or_default(),
            oldest_created_at,
        })
    }

    async fn deliveries(&self, filter: &DeliveryFilter) -> Result<Vec<Delivery>, StoreError> {
        self.list_deliveries(filter).await
    }

    async fn retry_deliveries(
        &self,
        filter: &DeliveryFilter,
        now: OffsetDateTime,
    ) -> Result<u64, StoreError> {
        Ok(D::retry(&self.pool, filter, now).await?)
    }
}
