//! How a batch of group commit ([`crate::group_commit`]) is written,
//! on either backend: in one write transaction, so that concurrent
//! submissions share one commit (one fsync, one WAL flush), through the
//! dialect's fast path ([`Batch`]); when that path declines, the batch is
//! rolled back and written again one job at a time, each job through the
//! same fast path in a savepoint of its own.

use crate::dialect::Batch;
use crate::group_commit::{BatchWrite, Outcomes};
use async_trait::async_trait;
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::error::DatabaseError;
use sqlx::pool::PoolConnection;
use sqlx::postgres::PgDatabaseError;
use sqlx::{ConnectOptions, Connection, Database, Executor, Pool};
use std::marker::PhantomData;
use std::sync::Arc;
use tokio::sync::Mutex;

/// Why the fast path did not write a batch.
#[derive(Debug)]
pub enum Declined {
    /// The batch cannot be decided in one go: two of its jobs share a scope
    /// (the first must win and the second see its record), a record went
    /// away between two statements, or the batch met another transaction's
    /// locks (a deadlock or a serialization failure, which undo only the
    /// statement's work). Written again one job at a time.
    Slow,
    /// A statement failed. When the database is `Unavailable` the batch
    /// fails at once: one job at a time would only fail again, later.
    /// Otherwise it is written one job at a time, so that a job that fails
    /// alone answers its error while the others are written.
    Failed(StoreError),
}

impl From<StoreError> for Declined {
    fn from(error: StoreError) -> Self {
        Declined::Failed(error)
    }
}

impl From<sqlx::Error> for Declined {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::Database(db) if is_lock_conflict(db.as_ref()) => Declined::Slow,
            _ => Declined::Failed(error.into()),
        }
    }
}

/// PostgreSQL's serialization failure (40001) and deadlock (40P01): the
/// other transaction goes on, and this one may try again at once.
fn is_lock_conflict(error: &dyn DatabaseError) -> bool {
    error
        .try_downcast_ref::<PgDatabaseError>()
        .is_some_and(|error| matches!(error.code(), "40001" | "40P01"))
}

/// How a dialect opens a connection of its own.
pub type Connect<D> = <<<D as crate::Dialect>::Db as Database>::Connection as Connection>::Options;

/// Writes the batches of [`crate::group_commit::JobQueue`].
pub struct BatchWriter<D: Batch> {
    /// How to open the writer's own connection, or `None` to take one from
    /// the pool for each batch.
    options: Option<Connect<D>>,
    pool: Pool<D::Db>,
    /// The writer's own connection, outside the pool: a batch never waits
    /// for a connection behind the requests' reads, and its page cache
    /// stays warm because no other connection writes in between (SQLite
    /// drops a connection's cache whenever another one has written). Opened
    /// on first use and again after a failure that may have broken it.
    own: Arc<Mutex<Option<<D::Db as Database>::Connection>>>,
    dialect: PhantomData<D>,
}

impl<D: Batch> BatchWriter<D> {
    /// A writer on a connection of its own opened with `options`, or on
    /// the pool's connections when `options` is `None`.
    pub fn new(options: Option<Connect<D>>, pool: Pool<D::Db>) -> Self {
        BatchWriter {
            options,
            pool,
            own: Arc::default(),
            dialect: PhantomData,
        }
    }

    /// A handle to the writer's own connection, so that the store can close it.
    pub fn connection(&self) -> Arc<Mutex<Option<<D::Db as Database>::Connection>>> {
        self.own.clone()
    }
}

#[async_trait]
impl<D: Batch> BatchWrite for BatchWriter<D>
where
    for<'c> &'c mut <D::Db as Database>::Connection: Executor<'c, Database = D::Db>,
{
    async fn write_batch(&self, jobs: &[&NewJob]) -> Result<Outcomes, StoreError> {
        metrics::histogram!(intake_core::telemetry::COMMIT_BATCH_SIZE).record(jobs.len() as f64);
        let Some(options) = &self.options else {
            let mut conn: PoolConnection<D::Db> = self.pool.acquire().await?;
            return write_in_transaction::<D>(&mut conn, jobs).await;
        };
        let mut own = self.own.lock().await;
        let conn = match &mut *own {
            Some(conn) => conn,
            empty => empty.insert(options.connect().await?),
        };
        let written = write_in_transaction::<D>(conn, jobs).await;
        if matches!(written, Err(StoreError::Unavailable(_))) {
            // Open a fresh connection for the next batch.
            if let Some(conn) = own.take() {
                let _ = conn.close().await;
            }
        }
        written
    }
}

/// Writes `jobs` in one write transaction on `conn`.
async fn write_in_transaction<D: Batch>(
    conn: &mut <D::Db as Database>::Connection,
    jobs: &[&NewJob],
) -> Result<Outcomes, StoreError>
where
    for<'c> &'c mut <D::Db as Database>::Connection: Executor<'c, Database = D::Db>,
{
    let mut tx = conn.begin_with(D::BEGIN_WRITE).await?;
    let outcomes = match D::write_batch(&mut tx, jobs).await {
        Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
        Err(Declined::Failed(error @ StoreError::Unavailable(_))) => return Err(error),
        Err(declined) => {
            if let Declined::Failed(error) = &declined {
                tracing::warn!(%error, jobs = jobs.len(), "a batch of jobs is written one by one after a failed statement");
            }
            tx.rollback().await?;
            tx = conn.begin_with(D::BEGIN_WRITE).await?;
            write_each::<D>(&mut tx, jobs).await?
        }
    };
    tx.commit().await?;
    Ok(outcomes)
}

/// The careful path: each job in a savepoint of its own, so that a repeat
/// or a failure undoes only that job. The outer `Err` means the transaction
/// can no longer be trusted (typically the connection is gone), so nothing
/// of the batch counts as written.
async fn write_each<D: Batch>(
    conn: &mut <D::Db as Database>::Connection,
    jobs: &[&NewJob],
) -> Result<Outcomes, StoreError>
where
    for<'c> &'c mut <D::Db as Database>::Connection: Executor<'c, Database = D::Db>,
{
    let mut outcomes = Vec::with_capacity(jobs.len());
    for job in jobs {
        let mut outcome = write_one::<D>(conn, job).await?;
        // A lock conflict with another process's batch (two jobs sharing
        // scopes in opposite orders) or a record purged under the job undid
        // only this job's savepoint: one more try usually gets through.
        if matches!(
            outcome,
            Err(Declined::Slow | Declined::Failed(StoreError::Unavailable(_)))
        ) {
            outcome = write_one::<D>(conn, job).await?;
        }
        outcomes.push(outcome.map_err(|declined| match declined {
            Declined::Failed(error) => error,
            Declined::Slow => StoreError::Unavailable(
                "the job met a concurrent write twice (a lock conflict or a purged record)".into(),
            ),
        }));
    }
    Ok(outcomes)
}

/// Writes one job in its own savepoint, through the fast path (a lone job
/// shares a scope with no other job of its batch, so `Slow` comes back
/// only from a concurrent write). A repeat or a failure undoes only this
/// job; the outer `Err` means the batch transaction itself is unsound.
///
/// The savepoint is managed by plain SQL, not by a nested sqlx transaction:
/// sqlx's bookkeeping of nesting can go wrong when a savepoint fails to
/// start on a dying connection, and then the batch's COMMIT is silently
/// skipped while its jobs are reported written.
async fn write_one<D: Batch>(
    conn: &mut <D::Db as Database>::Connection,
    job: &NewJob,
) -> Result<Result<CreateOutcome, Declined>, StoreError>
where
    for<'c> &'c mut <D::Db as Database>::Connection: Executor<'c, Database = D::Db>,
{
    conn.execute("SAVEPOINT job").await?;
    let outcome = D::write_batch(conn, &[job]).await.and_then(|mut outcomes| {
        outcomes
            .pop()
            .ok_or_else(|| StoreError::Other("no outcome for a lone job".into()).into())
    });
    // An undone job's savepoint stays open until the batch commits: one
    // statement fewer than releasing it.
    let end = match outcome {
        Ok(CreateOutcome::Created) => "RELEASE SAVEPOINT job",
        _ => "ROLLBACK TO SAVEPOINT job",
    };
    conn.execute(end).await?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_statement_declines_with_its_store_error() {
        assert!(matches!(
            Declined::from(sqlx::Error::PoolTimedOut),
            Declined::Failed(StoreError::Unavailable(_))
        ));
        assert!(matches!(
            Declined::from(sqlx::Error::ColumnNotFound("scope".into())),
            Declined::Failed(StoreError::Other(_))
        ));
    }
}
