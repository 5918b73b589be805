//! Retention (docs/operations.md, "Retention"): every process removes what
//! is older than the operator keeps it, every `interval`. Each pass works
//! in bounded batches, so that it never holds the database for long, and
//! any number of processes may run it at once: a record two of them pick is
//! removed by one and skipped by the other.
//!
//! A job's photos are removed from the image store before the job's rows:
//! should the process stop in between, the next pass finds the job again
//! and removing a photo already gone is not an error, whereas the other
//! order could leave photos that nothing names any more.

use crate::storage::ImageStore;
use intake_core::store::{ExpiredJob, Store, StoreError};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;
use tokio::sync::watch;

/// Most records one statement removes.
const BATCH: u32 = 500;

/// How long each kind of record is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetentionPolicy {
    /// Jobs with their recipients, photos and deliveries, from their receipt.
    pub jobs: Duration,
    /// Quarantined submissions, from their receipt.
    pub quarantine: Duration,
    /// Deliveries no longer pending (delivered, dead, gone), from their last change.
    pub deliveries: Duration,
    /// How often a pass runs.
    pub interval: Duration,
}

/// Thirteen months of jobs (a year and its month of complaints), 90 days of
/// quarantine and of finished deliveries, a pass every ten minutes.
impl Default for RetentionPolicy {
    fn default() -> Self {
        const DAY: u64 = 24 * 3600;
        RetentionPolicy {
            jobs: Duration::from_secs(395 * DAY),
            quarantine: Duration::from_secs(90 * DAY),
            deliveries: Duration::from_secs(90 * DAY),
            interval: Duration::from_secs(600),
        }
    }
}

/// What one pass removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Purged {
    /// Expired idempotency records.
    pub idempotency: u64,
    /// Jobs (with their recipients, photo records and deliveries).
    pub jobs: u64,
    /// Photos removed from the image store.
    pub photos: u64,
    /// Quarantine entries.
    pub quarantine: u64,
    /// Finished deliveries.
    pub deliveries: u64,
}

/// Why a pass stopped early; what it removed before stays removed.
#[derive(Debug, thiserror::Error)]
pub enum RetentionError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A photo could not be removed; its job is kept for the next pass.
    #[error("removing photo {key}: {error}")]
    Photo {
        /// The photo's object key.
        key: String,
        /// What the image store said.
        error: crate::storage::StorageError,
    },
}

/// One pass as of `now`: idempotency records expired by then, and jobs,
/// quarantine entries and finished deliveries older than `policy` keeps them.
pub async fn pass(
    store: &dyn Store,
    images: &ImageStore,
    policy: &RetentionPolicy,
    now: OffsetDateTime,
) -> Result<Purged, RetentionError> {
    let mut purged = Purged {
        idempotency: store.purge_idempotency(now).await?,
        ..Purged::default()
    };
    let jobs_before = now - policy.jobs;
    loop {
        let expired = store.expired_jobs(jobs_before, BATCH).await?;
        let (jobs, photos) = remove_jobs(store, images, &expired).await?;
        purged.jobs += jobs;
        purged.photos += photos;
        if expired.len() < BATCH as usize {
            break;
        }
    }
    purged.quarantine = drain(|| store.purge_quarantine(now - policy.quarantine, BATCH)).await?;
    purged.deliveries = drain(|| store.purge_deliveries(now - policy.deliveries, BATCH)).await?;
    Ok(purged)
}

/// Removes `jobs` with everything written with them: their photos from the
/// image store first (see the module's note on the order), then their rows.
/// Returns how many jobs and photos were removed. Also what
/// `intake jobs erase` removes a person's jobs with.
pub async fn remove_jobs(
    store: &dyn Store,
    images: &ImageStore,
    jobs: &[ExpiredJob],
) -> Result<(u64, u64), RetentionError> {
    if jobs.is_empty() {
        return Ok((0, 0));
    }
    let mut photos = 0;
    for key in jobs.iter().flat_map(|job| &job.image_keys) {
        images
            .delete(key)
            .await
            .map_err(|error| RetentionError::Photo {
                key: key.clone(),
                error,
            })?;
        photos += 1;
    }
    let ids: Vec<String> = jobs.iter().map(|job| job.id.clone()).collect();
    Ok((store.delete_jobs(&ids).await?, photos))
}

/// Calls `purge` (which removes at most [`BATCH`] records) until it
/// removes fewer; how many it removed in all.
async fn drain<F, Removing>(mut purge: F) -> Result<u64, StoreError>
where
    F: FnMut() -> Removing,
    Removing: std::future::Future<Output = Result<u64, StoreError>>,
{
    let mut total = 0;
    loop {
        let removed = purge().await?;
        total += removed;
        if removed < u64::from(BATCH) {
            return Ok(total);
        }
    }
}

/// Runs a pass at once and then every `policy.interval` until `stopping`
/// turns true. A failed pass is logged and the next one tries again.
pub async fn run(
    store: Arc<dyn Store>,
    images: ImageStore,
    policy: RetentionPolicy,
    mut stopping: watch::Receiver<bool>,
) {
    let mut ticker = tokio::time::interval(policy.interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => {
                match pass(store.as_ref(), &images, &policy, OffsetDateTime::now_utc()).await {
                    Ok(purged) if purged == Purged::default() => {}
                    Ok(purged) => tracing::info!(
                        idempotency = purged.idempotency,
                        jobs = purged.jobs,
                        photos = purged.photos,
                        quarantine = purged.quarantine,
                        deliveries = purged.deliveries,
                        "retention removed old records"
                    ),
                    Err(error) => {
                        if let RetentionError::Store(error) = &error {
                            crate::telemetry::store_error("retention", error);
                        }
                        tracing::warn!(%error, "a retention pass stopped; the next one tries again");
                    }
                }
            }
            changed = stopping.changed() => {
                if changed.is_err() || *stopping.borrow() {
                    return;
                }
            }
        }
    }
}
