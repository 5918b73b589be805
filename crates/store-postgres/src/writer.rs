//! How a batch of group commit ([`intake_core::group_commit`]) is written on
//! PostgreSQL: in one transaction, so that concurrent submissions share one
//! commit (one WAL flush) and a few statements instead of paying for their
//! own. The batch goes in a few statements ([`crate::batch`]); when that path
//! declines, the jobs are written one by one, each in its own savepoint.

use crate::batch::{self, Declined};
use crate::jobs::create_in;
use async_trait::async_trait;
use intake_core::group_commit::{BatchWrite, Outcomes};
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::{Executor, PgConnection, PgPool};

/// Writes the batches of [`intake_core::group_commit::JobQueue`] on PostgreSQL.
pub struct PgBatchWriter {
    pub pool: PgPool,
}

#[async_trait]
impl BatchWrite for PgBatchWriter {
    async fn write_batch(&self, jobs: &[&NewJob]) -> Result<Outcomes, StoreError> {
        let mut tx = self.pool.begin().await?;
        let outcomes = match batch::write(&mut tx, jobs).await {
            Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
            // The connection is in trouble: one by one would only wait again.
            Err(Declined::Failed(error)) if !matches!(error, sqlx::Error::Database(_)) => {
                return Err(error.into())
            }
            Err(_) => {
                let _ = tx.rollback().await;
                tx = self.pool.begin().await?;
                write_each(&mut tx, jobs).await?
            }
        };
        tx.commit().await?;
        Ok(outcomes)
    }
}

/// The careful path: each job in a savepoint of its own. The outer `Err`
/// means the transaction can no longer be trusted (typically the connection
/// is gone), so nothing of the batch counts as written.
async fn write_each(
    tx: &mut PgConnection,
    jobs: &[&NewJob],
) -> Result<Vec<Result<CreateOutcome, StoreError>>, StoreError> {
    let mut outcomes = Vec::with_capacity(jobs.len());
    for job in jobs {
        let mut outcome = write_one(tx, job).await?;
        // A deadlock with another process's batch (two jobs sharing
        // idempotency scopes in opposite orders) undid only this job's
        // savepoint: one more try usually gets through.
        if matches!(outcome, Err(StoreError::Unavailable(_))) {
            outcome = write_one(tx, job).await?;
        }
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// Writes one job in its own savepoint; a repeat or a failure undoes only
/// that job. The outer `Err` means the batch transaction itself is unsound.
///
/// The savepoint is managed by plain SQL, not by a nested sqlx transaction:
/// sqlx's bookkeeping of nesting can go wrong when a savepoint fails to
/// start on a dying connection, and then the batch's COMMIT is silently
/// skipped while its jobs are reported written.
async fn write_one(
    conn: &mut PgConnection,
    job: &NewJob,
) -> Result<Result<CreateOutcome, StoreError>, StoreError> {
    conn.execute("SAVEPOINT job").await?;
    let outcome = create_in(conn, job).await;
    let end = match outcome {
        Ok(CreateOutcome::Created) => "RELEASE SAVEPOINT job",
        _ => "ROLLBACK TO SAVEPOINT job",
    };
    conn.execute(end).await?;
    Ok(outcome)
}
