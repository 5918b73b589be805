//! A job's photos: each checked and re-encoded without metadata (off the
//! async threads, one at a time, within the image memory budget), then
//! written to the image store under generated names.

use super::form::Upload;
use crate::error::ApiError;
use crate::image_budget::{ImageBudget, Refused, Share};
use crate::limits::retry_after_seconds;
use crate::log_text::Escaped;
use crate::state::AppState;
use crate::storage::{ImageStore, WrittenImages};
use axum::body::Bytes;
use intake_core::jobs::JobImage;
use intake_images::{CleanImage, ImageError, ImageLimits, Inspected, Stop};
use std::time::Duration;
use tokio::task::{JoinError, JoinHandle};
use tokio::time::Instant;
use tracing::Instrument;

/// A photo that passed the checks, with the name the client gave it.
#[derive(Debug)]
pub struct Checked {
    /// The sanitised file name.
    pub name: String,
    /// The re-encoded image.
    pub image: CleanImage,
}

/// Checks every photo; one 400 names each bad file and what is wrong with it.
///
/// Headers first, all of them (cheap, and refusals such as a wrong format or
/// too many pixels need no decoding); then the pixels of one image at a time,
/// each after taking its weight from the image memory budget. A request that
/// cannot have its share within the budget wait is a 503. When this future is
/// dropped (the request timed out, or its client went away), the image being
/// cleaned stops at its next check and no further one starts.
pub async fn check_all(uploads: Vec<Upload>, state: &AppState) -> Result<Vec<Checked>, ApiError> {
    let limits = state.config.image_limits;
    let wait = state.config.image_budget_wait;
    let deadline = Instant::now() + wait;
    let stop = Stop::default();
    let _stop_when_dropped = stop.raise_on_drop();
    let inspections = inspect_all(&uploads, limits).await?;
    let mut checked = Vec::new();
    let mut problems = Vec::new();
    for (number, (upload, inspection)) in (1..).zip(uploads.into_iter().zip(inspections)) {
        let name = upload.name;
        let outcome = match inspection {
            Ok(inspected) => {
                let share = state
                    .image_budget
                    .take(inspected.weight, deadline)
                    .await
                    .map_err(|refused| no_memory(refused, &state.image_budget, inspected, wait))?;
                let work = Work {
                    share,
                    inspected,
                    bytes: upload.bytes,
                    limits,
                    stop: stop.clone(),
                    name: name.clone(),
                };
                work.spawn().await.and_then(|outcome| outcome)
            }
            Err(error) => Ok(Err(error)),
        };
        match outcome {
            Ok(Ok(image)) => checked.push(Checked { name, image }),
            Ok(Err(error)) => problems.push(format!("`{name}` (image {number}) {error}")),
            Err(error) => {
                tracing::error!(%error, file = %Escaped(&name), "the image check failed");
                problems.push(format!("`{name}` (image {number}) could not be read"));
            }
        }
    }
    if problems.is_empty() {
        Ok(checked)
    } else {
        Err(ApiError::BadRequest(format!(
            "Some images were refused, so nothing was created: {}.",
            problems.join("; ")
        )))
    }
}

/// The cleaning of one image, with its share of the budget.
struct Work {
    share: Share,
    inspected: Inspected,
    bytes: Bytes,
    limits: ImageLimits,
    stop: Stop,
    name: String,
}

impl Work {
    /// Cleans the image on the blocking pool, holding the share until the
    /// work ends (not until the request stops waiting for it), in a task of
    /// its own so that work whose request was dropped is logged when it stops.
    fn spawn(self) -> JoinHandle<Result<Result<CleanImage, ImageError>, JoinError>> {
        let Work {
            share,
            inspected,
            bytes,
            limits,
            stop,
            name,
        } = self;
        let blocking = tokio::task::spawn_blocking(move || {
            let _share = share;
            inspected.clean(&bytes, &limits, &stop)
        });
        let watched = async move {
            let outcome = blocking.await;
            if let Ok(Err(ImageError::Stopped)) = &outcome {
                tracing::info!(file = %Escaped(&name), "image work stopped: its request timed out or its client went away");
            }
            outcome
        };
        tokio::spawn(watched.in_current_span())
    }
}

/// Reads every image's header, on one blocking thread.
async fn inspect_all(
    uploads: &[Upload],
    limits: ImageLimits,
) -> Result<Vec<Result<Inspected, ImageError>>, ApiError> {
    let files: Vec<_> = uploads.iter().map(|upload| upload.bytes.clone()).collect();
    tokio::task::spawn_blocking(move || {
        files
            .iter()
            .map(|bytes| intake_images::inspect(bytes, &limits))
            .collect()
    })
    .await
    .map_err(|error| ApiError::Internal(format!("reading image headers: {error}")))
}

/// The answer when an image's share of the budget cannot be had.
fn no_memory(refused: Refused, budget: &ImageBudget, image: Inspected, wait: Duration) -> ApiError {
    match refused {
        Refused::Deadline => ApiError::Busy {
            detail: format!(
                "This server is busy with the images of other requests and had no memory free for the images of this one within {} seconds, so nothing was created. Retry after the number of seconds in Retry-After.",
                wait.as_secs_f64()
            ),
            retry_after_seconds: retry_after_seconds(wait),
        },
        Refused::OverBudget => ApiError::Internal(format!(
            "a {}x{} {:?} image weighs {} bytes, more than the whole image memory budget of {} bytes",
            image.width,
            image.height,
            image.format,
            image.weight,
            budget.bytes()
        )),
    }
}

/// Writes the photos of one job under `jobs/{folder}/{n}-{random}.{ext}`.
/// On failure nothing stays written, and the answer is a 503.
pub async fn store_all(
    store: &ImageStore,
    checked: Vec<Checked>,
) -> Result<(Vec<JobImage>, WrittenImages), ApiError> {
    let folder = uuid::Uuid::new_v4().simple().to_string();
    let mut written = store.batch();
    let mut records = Vec::new();
    for (number, Checked { name, image }) in (1..).zip(checked) {
        let random = uuid::Uuid::new_v4().simple().to_string();
        let key = format!(
            "jobs/{folder}/{number}-{}.{}",
            &random[..12],
            image.format.extension()
        );
        let content_type = image.format.content_type();
        let bytes = image.bytes.len() as u64;
        if let Err(error) = written.put(key.clone(), image.bytes, content_type).await {
            written.discard().await;
            return Err(ApiError::Unavailable(format!(
                "image store, writing {key}: {error}"
            )));
        }
        records.push(JobImage {
            id: uuid::Uuid::now_v7().to_string(),
            object_key: key,
            file_name: name,
            content_type: content_type.to_owned(),
            width: image.width,
            height: image.height,
            bytes,
        });
    }
    Ok((records, written))
}
