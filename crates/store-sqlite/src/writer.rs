//! Group commit of jobs: one task writes every job, taking all that are
//! waiting into one transaction (each in its own savepoint), so that many
//! concurrent submissions share one fsync instead of queueing for the single
//! SQLite writer lock one by one. A lone job is written at once, never held back.

use crate::errors::map_error;
use crate::jobs::create_in;
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::{Connection, SqlitePool};
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
    pub fn spawn(pool: SqlitePool) -> Self {
        let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(pool, receiver));
        JobWriter { queue }
    }

    /// Writes `job` with whatever else is waiting; answers when it is durable.
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

async fn run(pool: SqlitePool, mut receiver: mpsc::Receiver<(NewJob, Reply)>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        write_batch(&pool, std::mem::take(&mut batch)).await;
    }
}

async fn write_batch(pool: &SqlitePool, batch: Vec<(NewJob, Reply)>) {
    let started = std::time::Instant::now();
    let size = batch.len();
    let mut tx = match pool.begin_with("BEGIN IMMEDIATE").await {
        Ok(tx) => tx,
        Err(error) => return fail_all(batch, &map_error(error)),
    };
    let mut outcomes = Vec::with_capacity(batch.len());
    for (job, _) in &batch {
        let outcome = match tx.begin().await {
            Ok(mut savepoint) => match create_in(&mut savepoint, job).await {
                Ok(CreateOutcome::Created) => savepoint
                    .commit()
                    .await
                    .map(|()| CreateOutcome::Created)
                    .map_err(map_error),
                // A repeat or a failure undoes only its own savepoint.
                other => {
                    let _ = savepoint.rollback().await;
                    other
                }
            },
            Err(error) => Err(map_error(error)),
        };
        outcomes.push(outcome);
    }
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
