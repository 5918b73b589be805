//! The rows the stores read, typed (`sqlx::FromRow`), each with the one
//! conversion into its record. A column whose SQL type differs between the
//! dialects is either read as the same Rust type (an `INTEGER` as `i32`, a
//! date or time that sqlx reads from SQLite's text) or, for a time that
//! SQLite keeps in milliseconds, generic over [`crate::StoredTime`]. A
//! column both dialects name differently is aliased in the dialect's SQL.

pub mod deliveries;
pub mod directory;
pub mod history;
pub mod jobs;
pub mod keys;
pub mod quarantine;

use intake_core::store::StoreError;

/// A column holds what its record cannot hold (a corrupted or foreign row).
fn bad(record: &str, what: &str) -> StoreError {
    StoreError::Other(format!("{record} has a bad {what}"))
}
