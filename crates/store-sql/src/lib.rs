#![forbid(unsafe_code)]
//! What the two SQL stores (`intake-store-sqlite`, `intake-store-postgres`)
//! share, so that each is cut down to its dialect: one implementation of
//! [`intake_core::Store`] ([`SqlStore`]) over a [`Backend`] that supplies the
//! SQL that differs; the rows they read, typed, with one conversion of each
//! into the records of `intake-core`; group commit ([`group_commit`]) and
//! its writer.
//!
//! Generic over `sqlx` databases rather than a crate of `intake-core`, so
//! that the domain does not depend on sqlx; the one thing core holds for it
//! is `From<sqlx::Error> for StoreError` (behind its `sqlx` feature), which
//! only core may implement.

mod deliveries;
pub mod dialect;
mod directory;
pub mod group_commit;
mod jobs;
mod key_cache;
pub mod migrations;
pub mod rows;
pub mod statement;
mod store;
pub mod time;
pub mod writer;

pub use deliveries::push_filter;
pub use dialect::{Backend, Batch, Column, Deliveries, Dialect, History, Jobs};
pub use migrations::{MigrationEntry, MigrationState, MigrationStatus};
pub use statement::Statement;
pub use store::{CardReader, JobWriter, SqlStore};
pub use time::{Millis, StoredTime};
pub use writer::{BatchWriter, Declined};
