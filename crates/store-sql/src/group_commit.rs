//! Group commit of jobs, shared by the backends: one task per store takes
//! every job waiting to be written and hands them to the backend as one
//! batch, to be written in one transaction, so that concurrent submissions
//! share one commit (one fsync, one WAL flush) instead of queueing for it one
//! by one. A lone job is written at once, never held back for company.
//!
//! The backend decides how a batch is written ([`BatchWrite`], on SQL the
//! [`BatchWriter`](crate::BatchWriter) over a dialect's [`Batch`](crate::Batch));
//! this module only queues, batches and answers each submitter.

use async_trait::async_trait;
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Most jobs written together.
pub const MAX_BATCH: usize = 128;

/// One outcome per job of a batch, in the batch's order.
pub type Outcomes = Vec<Result<CreateOutcome, StoreError>>;

/// How a backend writes a batch of jobs.
#[async_trait]
pub trait BatchWrite: Send + Sync + 'static {
    /// Writes `jobs` in one transaction and answers one outcome per job, in
    /// order, once the transaction is durable. A job that meets an earlier
    /// record of one of its idempotency scopes writes nothing and answers
    /// [`CreateOutcome::Existing`]; a job that fails alone answers its error
    /// while the others are written.
    ///
    /// `Err` means that nothing of the batch was written.
    async fn write_batch(&self, jobs: &[&NewJob]) -> Result<Outcomes, StoreError>;
}

/// Which job of `jobs` holds each idempotency scope, or `None` when two jobs
/// share one. A backend's fast path takes a batch only when no scope is
/// shared: a shared one must be decided one job after the other, so that
/// the first wins and the second sees its record.
pub fn scope_owners<'a>(jobs: &[&'a NewJob]) -> Option<HashMap<&'a str, usize>> {
    let mut owner = HashMap::new();
    for (n, job) in jobs.iter().enumerate() {
        for record in &job.idempotency {
            if owner
                .insert(record.scope.as_str(), n)
                .is_some_and(|m| m != n)
            {
                return None;
            }
        }
    }
    Some(owner)
}

type Reply = oneshot::Sender<Result<CreateOutcome, StoreError>>;

/// The handle to a store's writer task; cheap to clone.
#[derive(Debug, Clone)]
pub struct JobQueue {
    queue: mpsc::Sender<(NewJob, Reply)>,
}

impl JobQueue {
    /// Starts the writer task (on the current tokio runtime) over `writer`.
    pub fn spawn(writer: impl BatchWrite) -> Self {
        let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(Arc::new(writer), receiver));
        JobQueue { queue }
    }

    /// Starts the writer task on a thread of its own, with a runtime of its
    /// own, so that each of its statements' round trips is answered at once
    /// instead of waiting its turn among the requests' tasks: the writer is
    /// the one place every job passes through one after the other.
    pub fn spawn_on_own_thread(writer: impl BatchWrite) -> std::io::Result<Self> {
        let (queue, receiver) = mpsc::channel(4 * MAX_BATCH);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        std::thread::Builder::new()
            .name("intake-job-writer".into())
            .spawn(move || runtime.block_on(run(Arc::new(writer), receiver)))?;
        Ok(JobQueue { queue })
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

async fn run(writer: Arc<dyn BatchWrite>, mut receiver: mpsc::Receiver<(NewJob, Reply)>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let started = std::time::Instant::now();
        let entries = std::mem::take(&mut batch);
        let jobs: Vec<&NewJob> = entries.iter().map(|(job, _)| job).collect();
        let written = writer.write_batch(&jobs).await;
        drop(jobs);
        match written {
            Ok(outcomes) => {
                tracing::debug!(
                    jobs = entries.len(),
                    micros = started.elapsed().as_micros() as u64,
                    "job batch committed"
                );
                debug_assert_eq!(outcomes.len(), entries.len(), "one outcome per job");
                let mut outcomes = outcomes.into_iter();
                for (_, reply) in entries {
                    let _ = reply.send(outcomes.next().unwrap_or_else(|| {
                        Err(StoreError::Other(
                            "the backend gave this job no outcome".into(),
                        ))
                    }));
                }
            }
            Err(error) => fail_all(entries, &error),
        }
    }
}

/// Nothing of the batch was written: every submitter is told so, as a
/// temporary failure (the submission may be sent again as it is).
fn fail_all(batch: Vec<(NewJob, Reply)>, error: &StoreError) {
    tracing::error!(%error, jobs = batch.len(), "a batch of jobs could not be written");
    for (_, reply) in batch {
        let _ = reply.send(Err(match error {
            StoreError::Unavailable(text) => StoreError::Unavailable(text.clone()),
            other => StoreError::Unavailable(other.to_string()),
        }));
    }
}
