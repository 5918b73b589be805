//! The affiliates' keys on SQL, found in memory ([`KeyCache`]); and the
//! ping.
//!
//! [`KeyCache`]: crate::key_cache::KeyCache

use super::SqlStore;
use crate::dialect::Backend;
use crate::rows::keys::{KeyRow, KEY_COLUMNS};
use async_trait::async_trait;
use intake_core::keys::ApiKey;
use intake_core::store::{KeyStore, Ping, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use time::OffsetDateTime;

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> Ping for SqlStore<D> {
    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> KeyStore for SqlStore<D> {
    async fn insert_key(&self, key: &ApiKey) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO api_keys ({KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        ))
        .bind(&key.key_id)
        .bind(&key.name)
        .bind(key.environment.as_str())
        .bind(&key.secret.nonce)
        .bind(&key.secret.ciphertext)
        .bind(key.policy.to_text())
        .bind(key.created_at)
        .bind(key.revoked_at)
        .execute(&self.pool)
        .await?;
        self.keys.put(key);
        Ok(())
    }

    async fn find_key(&self, key_id: &str) -> Result<Option<ApiKey>, StoreError> {
        self.keys.find(key_id, || self.list_keys()).await
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError> {
        let rows: Vec<KeyRow> = sqlx::query_as(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys ORDER BY created_at, key_id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(KeyRow::into_key).collect()
    }

    async fn revoke_key(&self, key_id: &str, at: OffsetDateTime) -> Result<ApiKey, StoreError> {
        let row: Option<KeyRow> = sqlx::query_as(&format!(
            "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE key_id = $2 \
             RETURNING {KEY_COLUMNS}"
        ))
        .bind(at)
        .bind(key_id)
        .fetch_optional(&self.pool)
        .await?;
        let key = row.ok_or(StoreError::NotFound)?.into_key()?;
        self.keys.put(&key);
        Ok(key)
    }
}
