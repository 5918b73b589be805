//! SQL of the `api_keys` table.

use intake_core::keys::{ApiKey, KeyPolicy};
use intake_core::secrets::SealedSecret;
use intake_core::store::StoreError;
use sqlx::{Row, SqlitePool};
use time::OffsetDateTime;

const COLUMNS: &str = "key_id, name, environment, secret_nonce, secret_ciphertext, required_headers, created_at, revoked_at";

pub async fn insert(pool: &SqlitePool, key: &ApiKey) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO api_keys ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
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
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM api_keys WHERE key_id = ?"))
        .bind(key_id)
        .fetch_optional(pool)
        .await?;
    row.map(|row| decode(&row)).transpose()
}

pub async fn list(pool: &SqlitePool) -> Result<Vec<ApiKey>, StoreError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM api_keys ORDER BY created_at, key_id"
    ))
    .fetch_all(pool)
    .await?;
    rows.iter().map(decode).collect()
}

pub async fn revoke(
    pool: &SqlitePool,
    key_id: &str,
    at: OffsetDateTime,
) -> Result<ApiKey, StoreError> {
    let row = sqlx::query(&format!(
        "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ? RETURNING {COLUMNS}"
    ))
    .bind(at)
    .bind(key_id)
    .fetch_optional(pool)
    .await?;
    row.map(|row| decode(&row))
        .transpose()?
        .ok_or(StoreError::NotFound)
}

fn decode(row: &sqlx::sqlite::SqliteRow) -> Result<ApiKey, StoreError> {
    let environment: String = row.try_get("environment")?;
    let required: String = row.try_get("required_headers")?;
    Ok(ApiKey {
        key_id: row.try_get("key_id")?,
        name: row.try_get("name")?,
        environment: environment
            .parse()
            .map_err(|error| StoreError::Other(format!("{error}")))?,
        secret: SealedSecret {
            nonce: row.try_get("secret_nonce")?,
            ciphertext: row.try_get("secret_ciphertext")?,
        },
        policy: KeyPolicy::parse(&required),
        created_at: row.try_get("created_at")?,
        revoked_at: row.try_get("revoked_at")?,
    })
}
