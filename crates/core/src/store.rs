//! The storage contract, in parts by concern: keys ([`KeyStore`]), the trade
//! directory ([`DirectoryStore`]), jobs with their idempotency records,
//! quarantine and contact history ([`JobStore`]), the delivery outbox
//! ([`Outbox`]), removal by age ([`Purge`]), what the spam screen learns from
//! ([`SpamLearning`]) and the ping ([`Ping`]). [`Store`] is their sum, what the
//! server and workers hold (`Arc<dyn Store>`); each backend crate implements
//! every part with its own SQL and transactions. Methods are whole
//! operations, never CRUD pieces.
//!
//! Methods of the parts are called on `dyn Store` without an import; code
//! that calls them on a concrete or generic store imports [`prelude`].

mod directory;
mod jobs;
mod keys;
mod outbox;
mod personal;
mod retention;
mod spam;
#[cfg(feature = "sqlx")]
mod sqlx_error;

pub use directory::{DirectoryStore, ImportSummary};
pub use jobs::{EarlierOrHistory, JobStore, LeadsQuery, StoreCounts};
pub use keys::KeyStore;
pub use outbox::Outbox;
pub use personal::{Person, PersonalData};
pub use retention::{ExpiredJob, Purge};
pub use spam::SpamLearning;

use async_trait::async_trait;

/// The store's parts, for code that calls their methods on a concrete or
/// generic store: `use intake_core::store::prelude::*;`.
pub mod prelude {
    pub use super::{
        DirectoryStore, JobStore, KeyStore, Outbox, PersonalData, Ping, Purge, SpamLearning, Store,
    };
}

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

/// Everything the service keeps: every part, implemented once per backend.
/// Implemented for whatever implements the parts.
pub trait Store:
    Ping + KeyStore + DirectoryStore + JobStore + Outbox + Purge + PersonalData + SpamLearning
{
}

impl<
        T: Ping + KeyStore + DirectoryStore + JobStore + Outbox + Purge + PersonalData + SpamLearning,
    > Store for T
{
}

/// Whether the store answers.
#[async_trait]
pub trait Ping: Send + Sync + 'static {
    /// Checks that the store answers (used by `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;
}
