//! SQL of the `api_keys` table.

use intake_core::keys::ApiKey;
use intake_core::store::StoreError;
use intake_store_sql::rows::keys::{KeyRow, KEY_COLUMNS};
use sqlx::SqlitePool;
use time::OffsetDateTime;

pub async fn insert(pool: &SqlitePool, key: &ApiKey) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO api_keys ({KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    ))
    .bind(&key.key_id)
    .bind(&key.name)
    .bind(key.environment.as_str())
    .bind(&key.secret.nonce)
    .bind(&key.secret.ciphertext)
    .bind(key.policy.to_text())
    .bind(key.created_at)
    .bind(key.revoked_at)
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn find(pool: &SqlitePool, key_id: &str) -> Result<Option<ApiKey>, StoreError> {
    let row: Option<KeyRow> = sqlx::query_as(&format!(
        "SELECT {KEY_COLUMNS} FROM api_keys WHERE key_id = ?"
    ))
    .bind(key_id)
    .fetch_optional(pool)
    .await?;
    row.map(KeyRow::into_key).transpose()
}

pub async fn list(pool: &SqlitePool) -> Result<Vec<ApiKey>, StoreError> {
    let rows: Vec<KeyRow> = sqlx::query_as(&format!(
        "SELECT {KEY_COLUMNS} FROM api_keys ORDER BY created_at, key_id"
    ))
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(KeyRow::into_key).collect()
}

pub async fn revoke(
    pool: &SqlitePool,
    key_id: &str,
    at: OffsetDateTime,
) -> Result<ApiKey, StoreError> {
    let row: Option<KeyRow> = sqlx::query_as(&format!(
        "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ? RETURNING {KEY_COLUMNS}"
    ))
    .bind(at)
    .bind(key_id)
    .fetch_optional(pool)
    .await?;
    row.map(KeyRow::into_key)
        .transpose()?
        .ok_or(StoreError::NotFound)
}
