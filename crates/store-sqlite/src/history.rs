//! SQL of a consumer's earlier jobs, for spam screening (issue 6), and of the
//! one question a new job asks before it is screened.

use crate::jobs::{decode_idempotency, millis};
use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::{EarlierOrHistory, StoreError};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{Row, Sqlite, SqlitePool};
use time::OffsetDateTime;

/// Counts the consumer's earlier jobs of the query's environment since
/// `?5`. The two arms of the UNION each walk one index (`jobs_by_email`,
/// `jobs_by_phone`); the UNION drops a job found by both. One row.
const HISTORY: &str = "\
SELECT \
    COALESCE(SUM(email = ?1 COLLATE NOCASE), 0) AS by_email, \
    COALESCE(SUM(phone = ?2), 0) AS by_phone, \
    COALESCE(SUM(fingerprint = ?3 AND key_id <> ?4), 0) AS same_text_other_keys \
FROM ( \
    SELECT id, email, phone, fingerprint, key_id FROM jobs \
     WHERE email = ?1 COLLATE NOCASE AND received_ms >= ?5 AND environment = ?6 \
    UNION \
    SELECT id, email, phone, fingerprint, key_id FROM jobs \
     WHERE phone = ?2 AND received_ms >= ?5 AND environment = ?6 \
)";

pub async fn contact_history(
    pool: &SqlitePool,
    query: &HistoryQuery,
) -> Result<ContactHistory, StoreError> {
    let row = bind(sqlx::query(HISTORY), query).fetch_one(pool).await?;
    decode_history(&row)
}

/// The history and the first unexpired record of `scopes` (in their order)
/// in one statement: every statement is a round trip to sqlx's SQLite
/// thread, and a job's reads before screening cost more than its share of
/// the group-committed write. The scopes come as one JSON array, so that
/// the statement's text is the same for any number of them.
pub async fn earlier_answer_or_history(
    pool: &SqlitePool,
    scopes: &[String],
    now: OffsetDateTime,
    query: &HistoryQuery,
) -> Result<EarlierOrHistory, StoreError> {
    let sql = format!(
        "SELECT h.*, i.scope, i.request_hash, i.status, i.body, i.expires_ms \
         FROM ({HISTORY}) AS h \
         LEFT JOIN ( \
             SELECT scope, request_hash, status, body, expires_ms, s.key AS position \
               FROM json_each(?7) AS s JOIN idempotency ON scope = s.value \
              WHERE expires_ms > ?8 \
              ORDER BY s.key LIMIT 1 \
         ) AS i ON 1"
    );
    let scopes = serde_json::to_string(scopes).map_err(|e| StoreError::Other(e.to_string()))?;
    let row = bind(sqlx::query(&sql), query)
        .bind(scopes)
        .bind(millis(now))
        .fetch_one(pool)
        .await?;
    let scope: Option<String> = row.try_get("scope")?;
    if scope.is_none() {
        return decode_history(&row).map(EarlierOrHistory::History);
    }
    decode_idempotency(&row).map(EarlierOrHistory::Earlier)
}

fn bind<'q>(
    statement: sqlx::query::Query<'q, Sqlite, SqliteArguments<'q>>,
    query: &'q HistoryQuery,
) -> sqlx::query::Query<'q, Sqlite, SqliteArguments<'q>> {
    statement
        .bind(&query.email)
        .bind(&query.phone)
        .bind(&query.fingerprint)
        .bind(&query.key_id)
        .bind(millis(query.since))
        .bind(query.environment.as_str())
}

fn decode_history(row: &SqliteRow) -> Result<ContactHistory, StoreError> {
    let count = |name: &str| -> Result<u32, StoreError> {
        let value: i64 = row.try_get(name)?;
        u32::try_from(value).map_err(|_| StoreError::Other("a bad history count".into()))
    };
    Ok(ContactHistory {
        by_email: count("by_email")?,
        by_phone: count("by_phone")?,
        same_text_other_keys: count("same_text_other_keys")?,
    })
}
