//! The storage contract. Each backend crate implements [`Store`] with its own
//! SQL and transactions; methods are whole operations, never CRUD pieces.

use crate::keys::ApiKey;
use async_trait::async_trait;
use time::OffsetDateTime;

/// Why a store operation failed, in the terms the HTTP edge needs.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record does not exist.
    #[error("not found")]
    NotFound,
    /// A uniqueness rule was broken (the record exists already).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database cannot be reached or is too busy; worth retrying later.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// Anything else; logged, never shown to a client.
    #[error("store error: {0}")]
    Other(String),
}

/// Everything the service keeps. Implemented once per backend.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Checks that the store answers (used by `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

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
