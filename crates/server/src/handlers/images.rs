//! `GET /images/{job_id}/{image_id}`: a job's photo behind a signed, expiring
//! link from a lead. Public: the link itself is the credential.

use crate::error::{ApiError, ProblemDetail};
use crate::state::AppState;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use intake_delivery::{ImageLinks, LinkError};
use time::OffsetDateTime;

/// A photo of a job, as linked from a lead.
#[utoipa::path(
    get,
    operation_id = "getJobImage",
    path = "/v1/affiliate-job/images/{job_id}/{image_id}",
    tag = "leads",
    params(
        ("job_id" = String, Path, description = "The job id"),
        ("image_id" = String, Path, description = "The image id"),
        ("expires" = i64, Query, description = "Unix time after which the link stops working"),
        ("signature" = String, Query, description = "Base64url HMAC-SHA256 of the link, made by the service")
    ),
    responses(
        (status = 200, description = "The cleaned photo, with its content type and `Cache-Control: private`"),
        (status = 403, description = "The link is expired, altered or incomplete", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "The job or the image no longer exists", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Path((job_id, image_id)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let (expires, signature) = link_parameters(query.as_deref());
    let checked = ImageLinks::new(&state.master_key).verify(
        &job_id,
        &image_id,
        &expires,
        &signature,
        OffsetDateTime::now_utc(),
    );
    if let Err(error) = checked {
        return Ok(forbidden(error));
    }
    let not_found = || ApiError::NotFound("This photo no longer exists.".to_owned());
    let stored = state.store.job(&job_id).await?.ok_or_else(not_found)?;
    let image = stored
        .job
        .images
        .iter()
        .find(|image| image.id == image_id)
        .ok_or_else(not_found)?;
    let bytes = state.images.get(&image.object_key).await.map_err(|error| {
        ApiError::Internal(format!("image {} of job {job_id}: {error}", image.id))
    })?;
    let content_type = HeaderValue::from_str(&image.content_type)
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, HeaderValue::from_static("private")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `expires` and `signature` from the query; missing ones are empty (and refused).
fn link_parameters(query: Option<&str>) -> (String, String) {
    let (mut expires, mut signature) = (String::new(), String::new());
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match name.as_ref() {
            "expires" => expires = value.into_owned(),
            "signature" => signature = value.into_owned(),
            _ => {}
        }
    }
    (expires, signature)
}

fn forbidden(error: LinkError) -> Response {
    let detail = match error {
        LinkError::Expired => "This photo link has expired.",
        LinkError::BadSignature => "This photo link is not valid: it was altered or is incomplete.",
    };
    let mut response = StatusCode::FORBIDDEN.into_response();
    response
        .extensions_mut()
        .insert(ProblemDetail(detail.to_owned()));
    response
}
