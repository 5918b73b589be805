//! Jobs: the adapters between HTTP and the intake pipeline
//! (`intake_core::intake`). Each decodes its request, calls the pipeline and
//! encodes what it answers; the steps themselves live in the pipeline.

pub mod create;
pub mod get;
pub mod with_attachments;

use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::idempotency::answer_to;
use crate::state::AppState;
use crate::telemetry::{self, JobOutcome};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use intake_core::intake::{Committed, Origin, Prepared, Stop, Submission, Submitted};
use intake_core::jobs::CreationSource;
use intake_core::StoreError;
use tower_http::request_id::RequestId;

/// Where a request to `source` came from.
pub(crate) fn origin(source: CreationSource, request_id: Option<Extension<RequestId>>) -> Origin {
    let request_id = request_id
        .and_then(|id| id.0.header_value().to_str().ok().map(str::to_owned))
        .unwrap_or_default();
    Origin { source, request_id }
}

/// Runs the pipeline's checks for creating a job (on the directory snapshot
/// of this moment): the job ready to commit, or the answer that stops it.
pub(crate) async fn prepare(
    state: &AppState,
    key: &AuthenticatedKey,
    origin: Origin,
    submission: &Submission,
    body: Result<serde_json::Value, ApiError>,
) -> Result<Prepared, Result<Response, ApiError>> {
    let caller = key.caller();
    let submitted = Submitted {
        caller: &caller,
        origin: &origin,
        body,
    };
    let snapshot = state.directory.current();
    state
        .intake
        .create(&snapshot.directory, submission, submitted)
        .await
        .map_err(stopped)
}

/// A submission the pipeline stopped: the earlier answer to a repeat (or
/// 409), else the refusal.
fn stopped(stop: Stop<ApiError>) -> Result<Response, ApiError> {
    telemetry::job(match &stop {
        Stop::Repeat(_) => JobOutcome::Replayed,
        Stop::Undecodable(_) | Stop::Invalid(_) => JobOutcome::Invalid,
        Stop::Spam(_) => JobOutcome::Quarantined,
        Stop::NoTrades { .. } => JobOutcome::NoTrades,
        Stop::Store(_) => JobOutcome::StoreError,
    });
    match stop {
        Stop::Repeat(repeat) => answer_to(repeat),
        other => Err(refusal(other)),
    }
}

/// The problem a refusal is answered with: 400, 422, 404 or 503.
pub(crate) fn refusal(stop: Stop<ApiError>) -> ApiError {
    match stop {
        Stop::Undecodable(error) => error,
        Stop::Invalid(errors) => {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            ApiError::BadRequest(format!("The job is invalid: {}.", list.join("; ")))
        }
        // The reasons are for us only (logged and kept by the pipeline).
        Stop::Spam(_) => ApiError::Spam,
        Stop::NoTrades {
            category_id,
            label,
            postcode,
        } => ApiError::NotFound(format!(
            "No trade in category {category_id} ({label}) covers {postcode} yet; nothing was created."
        )),
        Stop::Store(error) => error.into(),
        // Only creating looks earlier answers up, and it answers them with
        // `stopped`; a repeat reaching here is a wiring mistake, not the client's.
        Stop::Repeat(_) => {
            ApiError::Internal("an earlier answer where none was looked up".to_owned())
        }
    }
}

/// The answer to a commit: 201 with the job's recipients (its leads are due
/// now, so the dispatcher is woken), the first answer of a concurrent
/// repeat, or the store's error.
pub(crate) fn created(
    state: &AppState,
    committed: Result<Committed, StoreError>,
) -> Result<Response, ApiError> {
    let committed = committed.inspect_err(|_| telemetry::job(JobOutcome::StoreError))?;
    match committed {
        Committed::Created { answer, .. } => {
            telemetry::job(JobOutcome::Created);
            state.deliveries_due.notify_one();
            let mut response = (StatusCode::CREATED, answer).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            Ok(response)
        }
        Committed::Repeat(repeat) => {
            telemetry::job(JobOutcome::Replayed);
            answer_to(repeat)
        }
    }
}
