//! The one row of a contact-history count, alone or with the earlier answer
//! of a submission beside it.

use super::bad;
use super::jobs::IdempotencyRow;
use crate::StoredTime;
use intake_core::history::ContactHistory;
use intake_core::store::{EarlierOrHistory, StoreError};

/// The counts of a consumer's earlier jobs.
#[derive(Debug, sqlx::FromRow)]
pub struct HistoryRow {
    pub by_email: i64,
    pub by_phone: i64,
    pub same_text_other_keys: i64,
}

impl HistoryRow {
    /// The history as the spam screen reads it.
    pub fn into_history(self) -> Result<ContactHistory, StoreError> {
        let count = |value: i64| u32::try_from(value).map_err(|_| bad("a history", "count"));
        Ok(ContactHistory {
            by_email: count(self.by_email)?,
            by_phone: count(self.by_phone)?,
            same_text_other_keys: count(self.same_text_other_keys)?,
        })
    }
}

/// The history with the first unexpired idempotency record of a
/// submission's scopes, when there is one (then its columns are not NULL).
#[derive(Debug, sqlx::FromRow)]
pub struct EarlierRow<T> {
    #[sqlx(flatten)]
    pub history: HistoryRow,
    pub scope: Option<String>,
    pub request_hash: Option<String>,
    pub status: Option<i32>,
    pub body: Option<String>,
    pub expires_at: Option<T>,
}

impl<T: StoredTime> EarlierRow<T> {
    /// The earlier answer if there is one, else the history.
    pub fn into_answer(self) -> Result<EarlierOrHistory, StoreError> {
        let EarlierRow {
            history,
            scope,
            request_hash,
            status,
            body,
            expires_at,
        } = self;
        let Some(scope) = scope else {
            return history.into_history().map(EarlierOrHistory::History);
        };
        let missing = || bad("an idempotency record", "column");
        let record = IdempotencyRow {
            scope,
            request_hash: request_hash.ok_or_else(missing)?,
            status: status.ok_or_else(missing)?,
            body: body.ok_or_else(missing)?,
            expires_at: expires_at.ok_or_else(missing)?,
        };
        record.into_record().map(EarlierOrHistory::Earlier)
    }
}
