//! `POST /jobs/with-attachments`: a signed job with up to five photos, as
//! `multipart/form-data`; 201 with its recipients, exactly as `POST /jobs`.
//!
//! An adapter around the same intake pipeline as `/jobs`: the form is read
//! here, the pipeline checks the job (a form that cannot be read gets the
//! earlier answer of a repeat, as an invalid job does), then the photos are
//! checked and written to the image store, and the pipeline commits the job
//! with them. Whatever stops the job after the photos are written (a store
//! failure, a concurrent repeat committed first) deletes them again.

pub mod form;
pub mod photos;

use super::{created, origin, prepare};
use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::idempotency::{submission_of, InFlightGuard};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use intake_api::jobs::JobCreated;
use intake_core::intake::{Committed, Prepared};
use intake_core::jobs::CreationSource;
use tower_http::request_id::RequestId;
use utoipa::ToSchema;

/// The multipart form of a job with photos (documentation only: the server
/// reads the parts itself, see `form`).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct JobWithAttachmentsForm {
    /// The job as a JSON string, exactly the body of `POST /jobs` (see
    /// `JobRequest`); `categoryId` may be a number or a string of digits.
    #[schema(
        example = r#"{"categoryId":1335,"description":"Boiler not working, no hot water since Monday.","email":"sam.jones@example.com","phone":"07900000000","firstName":"Sam","lastName":"Jones","postcode":"SW1A 1AA"}"#
    )]
    data: String,
    /// 0 to 5 photos, one per `images` part, each at most 10 MiB and 40
    /// megapixels: JPEG, PNG, WebP or GIF, judged by content. Metadata (EXIF,
    /// GPS, text chunks, ICC) is removed; the file name is kept as a label only.
    #[schema(value_type = Vec<String>, format = Binary, required = false, max_items = 5)]
    images: Vec<Vec<u8>>,
}

/// Creates a job with photos and sends it to the best trades for it.
#[utoipa::path(
    post,
    operation_id = "createJobWithAttachments",
    path = "/jobs/with-attachments",
    tag = "jobs",
    request_body(content = JobWithAttachmentsForm, content_type = "multipart/form-data"),
    params(("Idempotency-Key" = Option<String>, Header, description = "As on POST /jobs: a repeat with the same multipart bytes gets the first answer, with other bytes a 409.")),
    security(("signature" = [])),
    responses(
        (status = 201, description = "The job and its photos were stored and sent to these trades (in staging: would have been)", body = JobCreated),
        (status = 400, description = "Malformed multipart, no `data` field, `data` not valid JSON, invalid members, more than 5 images, or a file that is not an acceptable image (each named)", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid signature, or a digest that does not match the multipart bytes", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No trade in the category covers the postcode", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Idempotency-Key reused with another body, or the same submission still in flight", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body read timeout (20 s by default); the connection is closed", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the multipart limit (50 MiB by default)", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not multipart/form-data", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Job classified as spam", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store or the image store is unavailable, or the server had no memory free for decoding the photos within the image budget wait (10 s by default), or the request took longer than the request timeout; retry after Retry-After. Nothing was kept, except a job whose photos were being written when the request timed out: the same request again gets its answer", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn create_with_attachments(
    State(state): State<AppState>,
    Extension(key): Extension<AuthenticatedKey>,
    request_id: Option<Extension<RequestId>>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let boundary = form::boundary(&headers)?;
    // The raw multipart bytes are the submission: a repeat must send the same ones.
    let submission = submission_of(&key, &headers, "POST", uri.path(), &body)?;
    let in_flight = state.in_flight.enter(submission.scopes())?;
    let (data, uploads) = match form::read(boundary, body, form_limits(&state)).await {
        Ok(form) => (Ok(form.data), form.uploads),
        Err(error) => (Err(error), Vec::new()),
    };
    let origin = origin(CreationSource::ApiWithAttachments, request_id);
    let prepared = match prepare(&state, &key, origin, &submission, data).await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let checked = photos::check_all(uploads, &state).await?;
    // Writing runs to its end even if the client goes away or the request
    // times out: stopped half-way, it could not tell whether the job was
    // committed, and so whether its photos must stay.
    let write = Write {
        state: state.clone(),
        prepared,
        checked,
        in_flight,
    };
    tokio::spawn(write.run())
        .await
        .map_err(|error| ApiError::Internal(format!("writing a job with photos: {error}")))?
}

/// Everything needed to store the photos and commit the job.
struct Write {
    state: AppState,
    prepared: Prepared,
    checked: Vec<photos::Checked>,
    /// Held until the job is written or given up, so a repeat waits for it.
    in_flight: InFlightGuard,
}

impl Write {
    /// Stores the photos, then commits the job with them; when no new job
    /// results (a failure, or a repeat committed first), deletes the photos.
    async fn run(self) -> Result<Response, ApiError> {
        let Write {
            state,
            prepared,
            checked,
            in_flight: _in_flight,
        } = self;
        let (images, written) = photos::store_all(&state.images, checked).await?;
        let committed = state.intake.commit(prepared, images).await;
        if matches!(committed, Ok(Committed::Created { .. })) {
            written.keep();
        } else {
            written.discard().await;
        }
        created(&state, committed)
    }
}

/// The form limits of this server.
pub fn form_limits(state: &AppState) -> form::FormLimits {
    form::FormLimits {
        max_images: state.config.image_limits.max_images,
        max_data_bytes: state.config.body_limit,
    }
}
