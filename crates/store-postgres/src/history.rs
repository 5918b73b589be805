//! SQL of a consumer's earlier jobs, for spam screening (issue 6).

use crate::errors::map_error;
use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::StoreError;
use sqlx::{PgPool, Row};

/// Counts the consumer's earlier jobs of the query's environment since
/// `query.since`. The two arms of the UNION each walk one index
/// (`jobs_by_email`, `jobs_by_phone`); the UNION drops a job found by both.
pub async fn contact_history(
    pool: &PgPool,
    query: &HistoryQuery,
) -> Result<ContactHistory, StoreError> {
    let row = sqlx::query(
        "SELECT \
             COUNT(*) FILTER (WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\")), \
             COUNT(*) FILTER (WHERE phone = $2), \
             COUNT(*) FILTER (WHERE fingerprint = $3 AND key_id <> $4) \
         FROM ( \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\") AND received_at >= $5 AND environment = $6 \
             UNION \
             SELECT id, email, phone, fingerprint, key_id FROM jobs \
              WHERE phone = $2 AND received_at >= $5 AND environment = $6 \
         ) AS earlier",
    )
    .bind(&query.email)
    .bind(&query.phone)
    .bind(&query.fingerprint)
    .bind(&query.key_id)
    .bind(query.since)
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
