//! A job's photos: each checked and re-encoded without metadata (off the
//! async threads), then written to the image store under generated names.

use super::form::Upload;
use crate::error::ApiError;
use crate::log_text::Escaped;
use crate::storage::{ImageStore, WrittenImages};
use intake_core::images::{self, CleanImage, ImageLimits};
use intake_core::jobs::JobImage;

/// A photo that passed the checks, with the name the client gave it.
#[derive(Debug)]
pub struct Checked {
    /// The sanitised file name.
    pub name: String,
    /// The re-encoded image.
    pub image: CleanImage,
}

/// Checks every photo; one 400 names each bad file and what is wrong with it.
pub async fn check_all(
    uploads: Vec<Upload>,
    limits: ImageLimits,
) -> Result<Vec<Checked>, ApiError> {
    // Decoding is CPU-heavy: each photo goes to the blocking pool, all at once.
    let tasks: Vec<_> = uploads
        .into_iter()
        .map(|upload| {
            let bytes = upload.bytes;
            let task = tokio::task::spawn_blocking(move || images::clean(&bytes, &limits));
            (upload.name, task)
        })
        .collect();
    let mut checked = Vec::new();
    let mut problems = Vec::new();
    for (number, (name, task)) in (1..).zip(tasks) {
        match task.await {
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
