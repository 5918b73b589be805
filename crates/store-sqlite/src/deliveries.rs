//! SQL of the delivery outbox.

use intake_core::delivery::{Delivery, DeliveryFilter, Outcome};
use intake_core::store::StoreError;
use sqlx::SqlitePool;
use std::time::Duration;
use time::OffsetDateTime;

fn unwritten() -> StoreError {
    StoreError::Other("the SQLite outbox is being written".into())
}

pub async fn claim(
    _pool: &SqlitePool,
    _now: OffsetDateTime,
    _lease: Duration,
    _limit: u32,
) -> Result<Vec<Delivery>, StoreError> {
    Err(unwritten())
}

pub async fn finish(
    _pool: &SqlitePool,
    _id: &str,
    _attempt: u32,
    _outcome: &Outcome,
    _now: OffsetDateTime,
) -> Result<bool, StoreError> {
    Err(unwritten())
}

pub async fn list(
    _pool: &SqlitePool,
    _filter: &DeliveryFilter,
) -> Result<Vec<Delivery>, StoreError> {
    Err(unwritten())
}

pub async fn retry(
    _pool: &SqlitePool,
    _filter: &DeliveryFilter,
    _now: OffsetDateTime,
) -> Result<u64, StoreError> {
    Err(unwritten())
}
