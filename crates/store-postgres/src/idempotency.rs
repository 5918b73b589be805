//! SQL of the answers kept for repeated submissions.

use intake_core::jobs::IdempotencyRecord;
use intake_core::store::StoreError;
use intake_store_sql::rows::jobs::IdempotencyRow;
use sqlx::PgPool;
use time::OffsetDateTime;

const COLUMNS: &str = "scope, request_hash, status, body, expires_at";

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
