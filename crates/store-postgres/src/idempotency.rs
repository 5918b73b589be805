//! SQL of the answers kept for repeated submissions.

use intake_core::jobs::IdempotencyRecord;
use intake_core::store::StoreError;
use intake_store_sql::rows::jobs::IdempotencyRow;
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;

const COLUMNS: &str = "scope, request_hash, status, body, expires_at";

/// Takes every scope of `records` for this job in one statement: a free or
/// expired scope is (re)written, an unexpired one is left alone. Returns an
/// unexpired record that was there first, if any (the caller then undoes its
/// savepoint, so nothing of this job stays written). A scope held by a
/// concurrent transaction waits for it to finish.
pub async fn take(
    conn: &mut PgConnection,
    records: &[IdempotencyRecord],
    now: OffsetDateTime,
) -> Result<Option<IdempotencyRecord>, StoreError> {
    if records.is_empty() {
        return Ok(None);
    }
    let mut records: Vec<&IdempotencyRecord> = records.iter().collect();
    // One statement may not touch a row twice: a scope listed twice is one scope.
    records.sort_by(|a, b| a.scope.cmp(&b.scope));
    records.dedup_by(|a, b| a.scope == b.scope);
    let taken: Vec<String> = sqlx::query_scalar(
        "INSERT INTO idempotency (scope, request_hash, status, body, expires_at) \
         SELECT * FROM UNNEST($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[]) \
         ON CONFLICT (scope) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, \
         body = EXCLUDED.body, expires_at = EXCLUDED.expires_at WHERE idempotency.expires_at <= $6 \
         RETURNING scope",
    )
    .bind(records.iter().map(|r| r.scope.clone()).collect::<Vec<_>>())
    .bind(records.iter().map(|r| r.request_hash.clone()).collect::<Vec<_>>())
    .bind(records.iter().map(|r| i32::from(r.status)).collect::<Vec<_>>())
    .bind(records.iter().map(|r| r.body.clone()).collect::<Vec<_>>())
    .bind(records.iter().map(|r| r.expires_at).collect::<Vec<_>>())
    .bind(now)
    .fetch_all(&mut *conn)
    .await?;
    if taken.len() == records.len() {
        return Ok(None);
    }
    let held: Vec<String> = records
        .iter()
        .filter(|r| !taken.contains(&r.scope))
        .map(|r| r.scope.clone())
        .collect();
    let row: Option<IdempotencyRow<OffsetDateTime>> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM idempotency WHERE scope = ANY($1) ORDER BY scope LIMIT 1"
    ))
    .bind(held)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(IdempotencyRow::<OffsetDateTime>::into_record)
        .transpose()?
        .map(Some)
        .ok_or_else(|| StoreError::Other("idempotency record vanished".into()))
}

pub async fn find(
    pool: &PgPool,
    scope: &str,
    now: OffsetDateTime,
) -> Result<Option<IdempotencyRecord>, StoreError> {
    let row: Option<IdempotencyRow<OffsetDateTime>> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM idempotency WHERE scope = $1 AND expires_at > $2"
    ))
    .bind(scope)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    row.map(IdempotencyRow::into_record).transpose()
}

pub async fn purge(pool: &PgPool, now: OffsetDateTime) -> Result<u64, StoreError> {
    let done = sqlx::query("DELETE FROM idempotency WHERE expires_at <= $1")
        .bind(now)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}
