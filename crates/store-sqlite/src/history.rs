//! SQL of a consumer's earlier jobs, for spam screening (issue 6).

use crate::errors::map_error;
use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::StoreError;
use sqlx::{Row, SqlitePool};

/// Counts the consumer's earlier jobs of the query's environment since
/// `query.since`. The two arms of the UNION each walk one index
/// (`jobs_by_email`, `jobs_by_phone`); the UNION drops a job found by both.
pub async fn contact_history(
    pool: &SqlitePool,
    query: &HistoryQuery,
) -> Result<ContactHistory, StoreError> {
    let since = (query.since.unix_timestamp_nanos() / 1_000_000) as i64;
    let row = sqlx::query(
        "SELECT \
             COALESCE(SUM(email = ?1 COLLATE NOCASE), 0), \
             COALESCE(SUM(phone = ?2), 0), \
             COALESCE(SUM(fingerprint = ?3 AND key_id <> ?4), 0) \
         FROM ( \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE email = ?1 COLLATE NOCASE AND received_ms >= ?5 AND environment = ?6 \
             UNION \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE phone = ?2 AND received_ms >= ?5 AND environment = ?6 \
         )",
    )
    .bind(&query.email)
    .bind(&query.phone)
    .bind(&query.fingerprint)
    .bind(&query.key_id)
    .bind(since)
    .bind(query.environment.as_str())
    .fetch_one(pool)
    .await
    .map_err(map_error)?;
    let count = |n: usize| -> Result<u32, StoreError> {
        let value: i64 = row.try_get(n).map_err(map_error)?;
        u32::try_from(value).map_err(|_| StoreError::Other("a bad history count".into()))
    };
    Ok(ContactHistory {
        by_email: count(0)?,
        by_phone: count(1)?,
        same_text_other_keys: count(2)?,
    })
}
