//! What a SQL backend supplies: its database, and the parts of each
//! operation whose SQL differs between the dialects. Everything else is
//! written once, over these traits.

use crate::writer::Declined;
use async_trait::async_trait;
use intake_core::jobs::{CreateOutcome, NewJob};
use sqlx::Database;

/// A SQL dialect: the database it runs on and how it begins a write.
pub trait Dialect: Send + Sync + Sized + 'static {
    /// The sqlx database.
    type Db: Database;

    /// The statement that begins a transaction that writes: SQLite takes
    /// its one write lock at once (`BEGIN IMMEDIATE`), so that what the
    /// transaction reads cannot change before it writes.
    const BEGIN_WRITE: &'static str;
}

/// The fast path of group commit ([`intake_core::group_commit`]).
#[async_trait]
pub trait Batch: Dialect {
    /// Writes `jobs` in a few statements, whatever their number, inside the
    /// caller's write transaction on `conn`; one outcome per job. A job that
    /// meets an unexpired idempotency record of one of its scopes writes
    /// nothing and answers [`CreateOutcome::Existing`]. A batch it cannot
    /// decide in one go is declined ([`Declined::Slow`]), as is one a
    /// statement of which failed ([`Declined::Failed`]); the transaction
    /// must then be rolled back.
    async fn write_batch(
        conn: &mut <Self::Db as Database>::Connection,
        jobs: &[&NewJob],
    ) -> Result<Vec<CreateOutcome>, Declined>;
}
