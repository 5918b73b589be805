//! A row of `api_keys`.

use intake_core::keys::{ApiKey, KeyPolicy};
use intake_core::secrets::SealedSecret;
use intake_core::store::StoreError;
use time::OffsetDateTime;

/// The columns of `api_keys`, in this order, for statements that name them.
pub const KEY_COLUMNS: &str = "key_id, name, environment, secret_nonce, secret_ciphertext, required_headers, created_at, revoked_at";

/// A row of `api_keys`.
#[derive(Debug, sqlx::FromRow)]
pub struct KeyRow {
    pub key_id: String,
    pub name: String,
    pub environment: String,
    pub secret_nonce: Vec<u8>,
    pub secret_ciphertext: Vec<u8>,
    pub required_headers: String,
    pub created_at: OffsetDateTime,
    pub revoked_at: Option<OffsetDateTime>,
}

impl KeyRow {
    /// The key as stored.
    pub fn into_key(self) -> Result<ApiKey, StoreError> {
        Ok(ApiKey {
            environment: self
                .environment
                .parse()
                .map_err(|error| StoreError::Other(format!("{error}")))?,
            key_id: self.key_id,
            name: self.name,
            secret: SealedSecret {
                nonce: self.secret_nonce,
                ciphertext: self.secret_ciphertext,
            },
            policy: KeyPolicy::parse(&self.required_headers),
            created_at: self.created_at,
            revoked_at: self.revoked_at,
        })
    }
}
