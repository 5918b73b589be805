//! `POST /verify/jobs/with-attachments`: what the service would make of a job
//! with photos, answered without creating anything; and `POST /verify/jobs`,
//! its JSON twin for `POST /jobs` (beyond the specification, which names
//! only the multipart variant: docs/conformance.md).
//!
//! Same signature, body reading, validation, spam screen and (for photos)
//! image checks as the real endpoint, so each refuses exactly what its real
//! endpoint refuses (400, 401, 413, 415, 422). Nothing is written: no job,
//! no image file, no idempotency record, no in-flight marker.

pub mod headers;

use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::handlers::jobs::create::{json_body, require_json};
use crate::handlers::jobs::with_attachments::{form, form_limits, photos};
use crate::handlers::jobs::{origin, refusal};
use crate::request_id::RequestIdMadeHere;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, Json};
use intake_api::jobs::Consumer;
use intake_api::verify::{FoundTrade, VerifiedBody, VerifyResult};
use intake_core::intake::{Submitted, Verified};
use intake_core::jobs::CreationSource;
use tower_http::request_id::RequestId;

/// Checks a job with photos as the real endpoint would, and shows the result.
#[utoipa::path(
    post,
    operation_id = "verifyJobWithAttachments",
    path = "/verify/jobs/with-attachments",
    tag = "jobs",
    request_body(content = crate::handlers::jobs::with_attachments::JobWithAttachmentsForm, content_type = "multipart/form-data"),
    security(("signature" = [])),
    responses(
        (status = 200, description = "The job is acceptable: how it was read, the headers received (credentials removed), the trades it would go to (empty when none serves it) and the images it would keep. Nothing was created.", body = VerifyResult),
        (status = 400, description = "As for POST /jobs/with-attachments", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid signature", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body read timeout (20 s by default); the connection is closed", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the multipart limit", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not multipart/form-data", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Job classified as spam", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is unavailable, or the server had no memory free for decoding the photos within the image budget wait (10 s by default), or the request took longer than the request timeout; retry after Retry-After", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn verify_with_attachments(
    State(state): State<AppState>,
    Extension(key): Extension<AuthenticatedKey>,
    id_made_here: Option<Extension<RequestIdMadeHere>>,
    request_id: Option<Extension<RequestId>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<VerifyResult>, ApiError> {
    let boundary = form::boundary(&headers)?;
    let form = form::read(boundary, body, form_limits(&state)).await?;
    let source = CreationSource::ApiWithAttachments;
    let verified = verify(&state, &key, source, request_id, Ok(form.data)).await?;
    let checked = photos::check_all(form.uploads, &state).await?;
    let images = checked.into_iter().map(|c| c.name).collect();
    let answer = Answer {
        headers: &headers,
        id_made_here: id_made_here.is_some(),
        source,
    };
    Ok(Json(answer.of(verified, images)))
}

/// Checks a JSON job as `POST /jobs` would, and shows the result.
#[utoipa::path(
    post,
    operation_id = "verifyJob",
    path = "/verify/jobs",
    tag = "jobs",
    description = "Beyond the specification, which names only the multipart verify: the JSON twin of `POST /jobs`. The same signature, JSON reading, validation and spam screen as `POST /jobs`, and the same breakdown as `POST /verify/jobs/with-attachments` (with `creationSource` `api` and no images); nothing is created, and an `Idempotency-Key` is neither needed nor kept.",
    request_body(content = intake_api::jobs::JobRequest, content_type = "application/json"),
    security(("signature" = [])),
    responses(
        (status = 200, description = "The job is acceptable: how it was read, the headers received (credentials removed) and the trades it would go to (empty when none serves it). Nothing was created.", body = VerifyResult),
        (status = 400, description = "As for POST /jobs", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid signature", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body read timeout (20 s by default); the connection is closed", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not application/json", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Job classified as spam", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is unavailable, or the request took longer than the request timeout; retry after Retry-After", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn verify_job(
    State(state): State<AppState>,
    Extension(key): Extension<AuthenticatedKey>,
    id_made_here: Option<Extension<RequestIdMadeHere>>,
    request_id: Option<Extension<RequestId>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<VerifyResult>, ApiError> {
    require_json(&headers)?;
    let source = CreationSource::Api;
    let verified = verify(&state, &key, source, request_id, json_body(&body)).await?;
    let answer = Answer {
        headers: &headers,
        id_made_here: id_made_here.is_some(),
        source,
    };
    Ok(Json(answer.of(verified, Vec::new())))
}

/// The pipeline's checks of a submitted job, on the directory of this moment,
/// writing nothing: the job and its would-be recipients, or the refusal.
async fn verify(
    state: &AppState,
    key: &AuthenticatedKey,
    source: CreationSource,
    request_id: Option<Extension<RequestId>>,
    body: Result<serde_json::Value, ApiError>,
) -> Result<Verified, ApiError> {
    let (caller, origin) = (key.caller(), origin(source, request_id));
    let submitted = Submitted {
        caller: &caller,
        origin: &origin,
        body,
    };
    let snapshot = state.directory.current();
    state
        .intake
        .verify(&snapshot.directory, submitted)
        .await
        .map_err(refusal)
}

/// What both verify endpoints answer about a job that passed.
struct Answer<'a> {
    headers: &'a HeaderMap,
    id_made_here: bool,
    source: CreationSource,
}

impl Answer<'_> {
    fn of(self, verified: Verified, images: Vec<String>) -> VerifyResult {
        let (job, recipients) = (verified.job, verified.recipients);
        let found_trades = recipients
            .into_iter()
            .map(|r| FoundTrade {
                company_id: r.company_id,
                name: r.name,
            })
            .collect();
        VerifyResult {
            body: VerifiedBody {
                category_id: job.category_id,
                description: job.description.clone(),
                postcode: job.postcode.to_string(),
                creation_source: self.source.as_str().to_owned(),
            },
            headers: headers::echoed(self.headers, self.id_made_here),
            consumer: Consumer {
                email: job.email.to_string(),
                first_name: job.first_name.clone(),
                last_name: job.last_name.clone(),
                phone: job.phone.as_str().to_owned(),
            },
            found_trades,
            images,
        }
    }
}
