//! Affiliate keys.

use super::StoreError;
use crate::keys::ApiKey;
use async_trait::async_trait;
use time::OffsetDateTime;

/// The affiliates' keys, their sealed secrets and revocations.
#[async_trait]
pub trait KeyStore: Send + Sync + 'static {
    /// Stores a new key; `Conflict` if the key id exists.
    async fn insert_key(&self, key: &ApiKey) -> Result<(), StoreError>;

    /// The key with this id, revoked or not.
    async fn find_key(&self, key_id: &str) -> Result<Option<ApiKey>, StoreError>;

    /// Every key, oldest first.
    async fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError>;

    /// Marks the key revoked at `at`; `NotFound` if there is no such key.
    /// Revoking a revoked key keeps its first revocation time.
    async fn revoke_key(&self, key_id: &str, at: OffsetDateTime) -> Result<ApiKey, StoreError>;
}
