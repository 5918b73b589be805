//! SQL of a consumer's earlier jobs, for spam screening (issue 6), and of the
//! one question a new job asks before it is screened.

use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::{EarlierOrHistory, StoreError};
use intake_store_sql::rows::history::{EarlierRow, HistoryRow};
use sqlx::postgres::PgArguments;
use sqlx::query::QueryAs;
use sqlx::{PgPool, Postgres};
use time::OffsetDateTime;

/// Counts the consumer's earlier jobs of the query's environment since
/// `$5`. The two arms of the UNION each walk one index (`jobs_by_email`,
/// `jobs_by_phone`); the UNION drops a job found by both. One row.
const HISTORY: &str = "\
SELECT \
    COUNT(*) FILTER (WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\")) AS by_email, \
    COUNT(*) FILTER (WHERE phone = $2) AS by_phone, \
    COUNT(*) FILTER (WHERE fingerprint = $3 AND key_id <> $4) AS same_text_other_keys \
FROM ( \
    SELECT id, email, phone, fingerprint, key_id FROM jobs \
     WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\") AND received_at >= $5 AND environment = $6 \
    UNION \
    SELECT id, email, phone, fingerprint, key_id FROM jobs \
     WHERE phone = $2 AND received_at >= $5 AND environment = $6 \
) AS earlier";

pub async fn contact_history(
    pool: &PgPool,
    query: &HistoryQuery,
) -> Result<ContactHistory, StoreError> {
    let row: HistoryRow = bind(sqlx::query_as(HISTORY), query).fetch_one(pool).await?;
    row.into_history()
}

/// The history and the first unexpired record of `scopes` (in their order)
/// in one round trip: a request's reads before screening are what the
/// store's throughput is spent on, far more than its write.
pub async fn earlier_answer_or_history(
    pool: &PgPool,
    scopes: &[String],
    now: OffsetDateTime,
    query: &HistoryQuery,
) -> Result<EarlierOrHistory, StoreError> {
    let sql = format!(
        "SELECT h.*, i.scope, i.request_hash, i.status, i.body, i.expires_at \
         FROM ({HISTORY}) AS h \
         LEFT JOIN LATERAL ( \
             SELECT scope, request_hash, status, body, expires_at FROM idempotency \
              WHERE scope = ANY($7) AND expires_at > $8 \
              ORDER BY array_position($7, scope) LIMIT 1 \
         ) AS i ON true"
    );
    let row: EarlierRow<OffsetDateTime> = bind(sqlx::query_as(&sql), query)
        .bind(scopes)
        .bind(now)
        .fetch_one(pool)
        .await?;
    row.into_answer()
}

fn bind<'q, O>(
    statement: QueryAs<'q, Postgres, O, PgArguments>,
    query: &'q HistoryQuery,
) -> QueryAs<'q, Postgres, O, PgArguments> {
    statement
        .bind(&query.email)
        .bind(&query.phone)
        .bind(&query.fingerprint)
        .bind(&query.key_id)
        .bind(query.since)
        .bind(query.environment.as_str())
}
