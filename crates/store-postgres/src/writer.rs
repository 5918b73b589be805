//! Group commit of jobs: one task writes every job of this process, taking
//! all that are waiting into one transaction, so that concurrent submissions
//! share one commit (one WAL flush) and a few statements instead of paying
//! for their own. A lone job is written at once, never held back. The batch
//! goes in a few statements ([`crate::batch`]); when that path declines, the
//! jobs are written one by one, each in its own savepoint.

use crate::batch::{self, Declined};
use crate::errors::map_error;
use crate::jobs::create_in;
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::{Executor, PgConnection, PgPool};
use tokio::sync::{mpsc, oneshot};

/// Most jobs committed together.
const MAX_BATCH: usize = 128;

type Reply = oneshot::Sender<Result<CreateOutcome, StoreError>>;

/// The handle to the writer task.
#[derive(Debug, Clone)]
pub struct JobWriter {
    queue: mpsc::Sender<(NewJob, Reply)>,
}

impl JobWriter {
    /// Starts the writer task on `pool`.
    pub fn spawn(pool: PgPool) -> Self {
        let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(pool, receiver));
        JobWriter { queue }
    }

    /// Writes `job` with whatever else is waiting; answers when it is committed.
    pub async fn write(&self, job: NewJob) -> Result<CreateOutcome, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send((job, reply))
            .await
            .map_err(|_| StoreError::Unavailable("the job writer has stopped".into()))?;
        answer.await.map_err(|_| {
            StoreError::Unavailable("the job writer stopped before answering".into())
        })?
    }
}

async fn run(pool: PgPool, mut receiver: mpsc::Receiver<(NewJob, Reply)>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        write_batch(&pool, std::mem::take(&mut batch)).await;
    }
}

async fn write_batch(pool: &PgPool, batch: Vec<(NewJob, Reply)>) {
    let started = std::time::Instant::now();
    let size = batch.len();
    let mut tx = match pool.begin().await {
        Ok(tx) => tx,
        Err(error) => return fail_all(batch, &map_error(error)),
    };
    let jobs: Vec<&NewJob> = batch.iter().map(|(job, _)| job).collect();
    let outcomes = match batch::write(&mut tx, &jobs).await {
        Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
        // The connection is in trouble: one by one would only wait again.
        Err(Declined::Failed(error)) if !matches!(error, sqlx::Error::Database(_)) => {
            return fail_all(batch, &map_error(error))
        }
        Err(_) => {
            let _ = tx.rollback().await;
            tx = match pool.begin().await {
                Ok(tx) => tx,
                Err(error) => return fail_all(batch, &map_error(error)),
            };
            match write_each(&mut tx, &jobs).await {
                Ok(outcomes) => outcomes,
                Err(error) => return fail_all(batch, &error),
            }
        }
    };
    if let Err(error) = tx.commit().await {
        return fail_all(batch, &map_error(error));
    }
    tracing::debug!(
        jobs = size,
        micros = started.elapsed().as_micros() as u64,
        "job batch committed"
    );
    for ((_, reply), outcome) in batch.into_iter().zip(outcomes) {
        let _ = reply.send(outcome);
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
    conn.execute("SAVEPOINT job").await.map_err(map_error)?;
    let outcome = create_in(conn, job).await;
    let end = match outcome {
        Ok(CreateOutcome::Created) => "RELEASE SAVEPOINT job",
        _ => "ROLLBACK TO SAVEPOINT job",
    };
    conn.execute(end).await.map_err(map_error)?;
    Ok(outcome)
}

/// Nothing of the batch was written: every submitter is told so.
fn fail_all(batch: Vec<(NewJob, Reply)>, error: &StoreError) {
    tracing::error!(%error, jobs = batch.len(), "a batch of jobs could not be written");
    for (_, reply) in batch {
        let _ = reply.send(Err(match error {
            StoreError::Unavailable(text) => StoreError::Unavailable(text.clone()),
            other => StoreError::Unavailable(other.to_string()),
        }));
    }
}
