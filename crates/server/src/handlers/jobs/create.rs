//! `POST /jobs`: a signed job in, 201 with its recipients out.
//!
//! An adapter: the content type, the submission's identity and the JSON are
//! read here; the intake pipeline (`intake_core::intake`) runs the rest
//! (earlier answer, validation, spam screen, matching, the store).

use super::{created, origin, prepare};
use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::idempotency::submission_of;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{OriginalUri, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use axum::Extension;
use intake_api::jobs::JobCreated;
use intake_core::jobs::CreationSource;
use tower_http::request_id::RequestId;

/// Creates a job and sends it to the best trades for it.
#[utoipa::path(
    post,
    operation_id = "createJob",
    path = "/jobs",
    tag = "jobs",
    request_body(content = intake_api::jobs::JobRequest, content_type = "application/json"),
    params(("Idempotency-Key" = Option<String>, Header, description = "1 to 255 visible ASCII characters naming one logical submission; a repeat with the same body gets the first answer (marked Idempotency-Replayed: true), with another body a 409. Kept 24 hours.")),
    security(("signature" = [])),
    responses(
        (status = 201, description = "The job was created and sent to these trades (in staging: would have been)", body = JobCreated),
        (status = 400, description = "Malformed JSON or invalid members; the detail lists every problem", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid signature", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No trade in the category covers the postcode", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Idempotency-Key reused with another body, or the same submission still in flight (then with Retry-After)", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body read timeout (20 s by default); the connection is closed", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not application/json", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Job classified as spam", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is unavailable; nothing was written; retry after Retry-After", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn create(
    State(state): State<AppState>,
    Extension(key): Extension<AuthenticatedKey>,
    request_id: Option<Extension<RequestId>>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    require_json(&headers)?;
    let submission = submission_of(&key, &headers, "POST", uri.path(), &body)?;
    let _in_flight = state.in_flight.enter(submission.scopes())?;
    let value = json_body(&body);
    let origin = origin(CreationSource::Api, request_id);
    let prepared = match prepare(&state, &key, origin, &submission, value).await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    created(&state, state.intake.commit(prepared, Vec::new()).await)
}

/// The body as JSON, or the 400 that says why it is not (given to the
/// pipeline, which answers it in its turn).
pub(crate) fn json_body(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    serde_json::from_slice(body)
        .map_err(|error| ApiError::BadRequest(format!("The body is not valid JSON: {error}.")))
}

/// `application/json`, with or without parameters such as `charset=utf-8`.
pub(crate) fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    if essence.eq_ignore_ascii_case("application/json") {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType(format!(
            "Send the job as `Content-Type: application/json` (got `{content_type}`); jobs with images go to /v1/affiliate-job/jobs/with-attachments as multipart/form-data."
        )))
    }
}
