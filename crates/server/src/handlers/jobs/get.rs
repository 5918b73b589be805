//! `GET /jobs/{id}`: a job as stored, for the application that created it.

use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::{Extension, Json};
use intake_api::jobs::{Address, Consumer, JobImageView, JobView, PreferredStart, Recipient};
use intake_core::jobs::StoredJob;
use time::format_description::well_known::Rfc3339;

/// The job, its recipients and where each lead stands.
#[utoipa::path(
    get,
    operation_id = "getJob",
    path = "/jobs/{id}",
    tag = "jobs",
    params(("id" = String, Path, description = "The job id from the 201 answer")),
    security(("signature" = [])),
    responses(
        (status = 200, description = "The job", body = JobView),
        (status = 401, description = "Missing or invalid signature", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such job for this affiliate application", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(key): Extension<AuthenticatedKey>,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    let not_found = || {
        ApiError::NotFound(format!(
            "There is no job `{id}` for this affiliate application."
        ))
    };
    let stored = state.store.job(&id).await?.ok_or_else(not_found)?;
    // Another application's job is answered exactly like a missing one.
    if stored.job.application != key.name || stored.job.environment != key.environment {
        return Err(not_found());
    }
    Ok(Json(view(&stored, &state.config.public_base_url)))
}

/// A stored job as `GET /jobs/{id}` answers it (also `intake jobs export`);
/// trade profiles are `{public_base_url}/trades/{id}`.
pub fn view(stored: &StoredJob, public_base_url: &str) -> JobView {
    let job = &stored.job;
    let v = &job.job;
    JobView {
        id: job.id.clone(),
        environment: job.environment.to_string(),
        category_id: v.category_id,
        description: v.description.clone(),
        consumer: Consumer {
            email: v.email.to_string(),
            first_name: v.first_name.clone(),
            last_name: v.last_name.clone(),
            phone: v.phone.as_str().to_owned(),
        },
        postcode: v.postcode.to_string(),
        address: v.address.as_ref().map(|a| Address {
            line1: a.line1.clone(),
            line2: a.line2.clone(),
            line3: a.line3.clone(),
            city: a.city.clone(),
            postcode: a.postcode.to_string(),
        }),
        preferred_start: v.preferred_start.map(|p| PreferredStart {
            id: p.id.as_str().to_owned(),
            date: p.date.map(|d| d.to_string()),
        }),
        creation_source: job.creation_source.as_str().to_owned(),
        received_at: job.received_at.format(&Rfc3339).unwrap_or_default(),
        recipients: stored
            .recipients
            .iter()
            .map(|r| Recipient {
                id: r.company_id,
                name: r.name.clone(),
                profile_url: format!(
                    "{}/trades/{}",
                    public_base_url.trim_end_matches('/'),
                    r.company_id
                ),
                rank: r.rank,
                delivery_state: r.delivery_state.clone(),
            })
            .collect(),
        images: job
            .images
            .iter()
            .map(|i| JobImageView {
                id: i.id.clone(),
                file_name: i.file_name.clone(),
                content_type: i.content_type.clone(),
                width: i.width,
                height: i.height,
                bytes: i.bytes,
            })
            .collect(),
    }
}
