//! SQL of a consumer's earlier jobs, for spam screening (issue 6), and of the
//! one question a new job asks before it is screened.

use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::{EarlierOrHistory, StoreError};
use intake_store_sql::rows::history::{EarlierRow, HistoryRow};
use intake_store_sql::{Millis, StoredTime};
use sqlx::query::QueryAs;
use sqlx::sqlite::SqliteArguments;
use sqlx::{Sqlite, SqlitePool};
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
    let row: HistoryRow = bind(sqlx::query_as(HISTORY), query).fetch_one(pool).await?;
    row.into_history()
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
        "SELECT h.*, i.scope, i.request_hash, i.status, i.body, i.expires_ms AS expires_at \
         FROM ({HISTORY}) AS h \
         LEFT JOIN ( \
             SELECT scope, request_hash, status, body, expires_ms, s.key AS position \
               FROM json_each(?7) AS s JOIN idempotency ON scope = s.value \
              WHERE expires_ms > ?8 \
              ORDER BY s.key LIMIT 1 \
         ) AS i ON 1"
    );
    let scopes = serde_json::to_string(scopes).map_err(|e| StoreError::Other(e.to_string()))?;
    let row: EarlierRow<Millis> = bind(sqlx::query_as(&sql), query)
        .bind(scopes)
        .bind(Millis::stored(now))
        .fetch_one(pool)
        .await?;
    row.into_answer()
}

fn bind<'q, O>(
    statement: QueryAs<'q, Sqlite, O, SqliteArguments<'q>>,
    query: &'q HistoryQuery,
) -> QueryAs<'q, Sqlite, O, SqliteArguments<'q>> {
    statement
        .bind(&query.email)
        .bind(&query.phone)
        .bind(&query.fingerprint)
        .bind(&query.key_id)
        .bind(Millis::stored(query.since))
        .bind(query.environment.as_str())
}
