//! A row of `deliveries`.

use super::bad;
use crate::StoredTime;
use intake_core::delivery::{Channel, Delivery, DeliveryState};
use intake_core::store::StoreError;

/// A row of `deliveries`, its times as the dialect stores them (SQLite's
/// `*_ms` columns are read as `*_at`); `window_from` is the creation time
/// when the row has none of its own.
#[derive(Debug, sqlx::FromRow)]
pub struct DeliveryRow<T> {
    pub id: String,
    pub job_id: String,
    pub company_id: i64,
    pub channel: String,
    pub target: String,
    pub state: String,
    pub attempts: i32,
    pub next_attempt_at: T,
    pub created_at: T,
    pub window_from: T,
    pub last_error: Option<String>,
    pub delivered_at: Option<T>,
}

impl<T: StoredTime> DeliveryRow<T> {
    /// The delivery as stored.
    pub fn into_delivery(self) -> Result<Delivery, StoreError> {
        let bad = |what| bad("a stored delivery", what);
        Ok(Delivery {
            channel: Channel::parse(&self.channel).ok_or_else(|| bad("channel"))?,
            state: DeliveryState::parse(&self.state).ok_or_else(|| bad("state"))?,
            company_id: self.company_id as u64,
            attempts: self.attempts as u32,
            next_attempt_at: self.next_attempt_at.time()?,
            created_at: self.created_at.time()?,
            window_from: self.window_from.time()?,
            delivered_at: self.delivered_at.map(StoredTime::time).transpose()?,
            id: self.id,
            job_id: self.job_id,
            target: self.target,
            last_error: self.last_error,
        })
    }
}

/// The state of one delivery of a job, by the trade it goes to.
#[derive(Debug, sqlx::FromRow)]
pub struct DeliveryStateRow {
    pub company_id: i64,
    pub state: String,
}

impl DeliveryStateRow {
    /// The trade's company id and the delivery's state.
    pub fn into_state(self) -> Result<(u64, DeliveryState), StoreError> {
        let state = DeliveryState::parse(&self.state)
            .ok_or_else(|| StoreError::Other(format!("unknown delivery state `{}`", self.state)))?;
        Ok((self.company_id as u64, state))
    }
}
