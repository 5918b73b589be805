//! How a batch of group commit ([`intake_core::group_commit`]) is written on
//! SQLite: in one IMMEDIATE transaction, so that concurrent submissions share
//! one fsync instead of queueing for the single write lock one by one. The
//! batch goes in a few statements ([`crate::batch`]); when that path
//! declines, the jobs are written one by one, each in its own savepoint.

use crate::batch::{self, Declined};
use async_trait::async_trait;
use intake_core::group_commit::{BatchWrite, Outcomes};
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, Executor, SqliteConnection, SqlitePool};
use std::sync::Arc;
use tokio::sync::Mutex;

/// Writes the batches of [`intake_core::group_commit::JobQueue`] on SQLite.
pub struct SqliteBatchWriter {
    /// How to open the writer's own connection; `None` for an in-memory
    /// database, which exists once per connection: its one pooled
    /// connection is used instead.
    options: Option<SqliteConnectOptions>,
    pool: SqlitePool,
    /// The writer's own connection, outside the pool: a batch never waits
    /// for a connection behind the requests' reads, and its page cache
    /// stays warm because no other connection writes in between (SQLite
    /// drops a connection's cache whenever another one has written). Opened
    /// on first use and again after a failure that may have broken it.
    own: Arc<Mutex<Option<SqliteConnection>>>,
}

impl SqliteBatchWriter {
    pub fn new(options: Option<SqliteConnectOptions>, pool: SqlitePool) -> Self {
        SqliteBatchWriter {
            options,
            pool,
            own: Arc::default(),
        }
    }

    /// A handle to the writer's own connection, so that the store can close it.
    pub fn connection(&self) -> Arc<Mutex<Option<SqliteConnection>>> {
        self.own.clone()
    }
}

#[async_trait]
impl BatchWrite for SqliteBatchWriter {
    async fn write_batch(&self, jobs: &[&NewJob]) -> Result<Outcomes, StoreError> {
        let Some(options) = &self.options else {
            let mut conn = self.pool.acquire().await?;
            return write_in_transaction(&mut conn, jobs).await;
        };
        let mut own = self.own.lock().await;
        let conn = match &mut *own {
            Some(conn) => conn,
            empty => empty.insert(options.connect().await?),
        };
        let written = write_in_transaction(conn, jobs).await;
        if matches!(written, Err(StoreError::Unavailable(_))) {
            // Open a fresh connection for the next batch.
            if let Some(conn) = own.take() {
                let _ = conn.close().await;
            }
        }
        written
    }
}

/// Writes `jobs` in one IMMEDIATE transaction on `conn`.
async fn write_in_transaction(
    conn: &mut SqliteConnection,
    jobs: &[&NewJob],
) -> Result<Outcomes, StoreError> {
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    let outcomes = match batch::write(&mut tx, jobs).await {
        Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
        // The database itself is in trouble (busy past the timeout, an
        // I/O error): one by one would only fail again.
        Err(Declined::Failed(error @ StoreError::Unavailable(_))) => return Err(error),
        Err(declined) => {
            if let Declined::Failed(error) = &declined {
                tracing::warn!(%error, jobs = jobs.len(), "a batch of jobs is written one by one after a failed statement");
            }
            tx.rollback().await?;
            tx = conn.begin_with("BEGIN IMMEDIATE").await?;
            write_each(&mut tx, jobs).await?
        }
    };
    tx.commit().await?;
    Ok(outcomes)
}

/// The careful path: each job in a savepoint of its own, so that a repeat
/// or a failure undoes only that job. The outer `Err` means the transaction
/// can no longer be trusted, so nothing of the batch counts as written.
async fn write_each(conn: &mut SqliteConnection, jobs: &[&NewJob]) -> Result<Outcomes, StoreError> {
    let mut outcomes = Vec::with_capacity(jobs.len());
    for job in jobs {
        outcomes.push(write_one(conn, job).await?);
    }
    Ok(outcomes)
}

/// Writes one job in its own savepoint.
///
/// The savepoint is managed by plain SQL, not by a nested sqlx transaction:
/// sqlx's bookkeeping of nesting can go wrong when a savepoint fails to
/// start, and then the batch's COMMIT is silently skipped while its jobs
/// are reported written (seen on PostgreSQL; the same code served SQLite).
async fn write_one(
    conn: &mut SqliteConnection,
    job: &NewJob,
) -> Result<Result<CreateOutcome, StoreError>, StoreError> {
    conn.execute("SAVEPOINT job").await?;
    // One job alone never shares a scope with another of its batch, so the
    // fast path takes it: `Slow` cannot come back here.
    let outcome = match batch::write(conn, &[job]).await {
        Ok(mut outcomes) => outcomes
            .pop()
            .ok_or_else(|| StoreError::Other("no outcome for a lone job".into())),
        Err(Declined::Failed(error)) => Err(error),
        Err(Declined::Slow) => Err(StoreError::Other(
            "a lone job was declined by the batch path".into(),
        )),
    };
    if !matches!(outcome, Ok(CreateOutcome::Created)) {
        conn.execute("ROLLBACK TO SAVEPOINT job").await?;
    }
    conn.execute("RELEASE SAVEPOINT job").await?;
    Ok(outcome)
}
