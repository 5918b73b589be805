//! `POST /jobs`: a signed job in, 201 with its recipients out.
//!
//! The path reads as one line: content type, decode and validate, the
//! repeat check with the consumer's recent history (one store round trip),
//! spam screen, match, one store transaction, 201.

use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::idempotency::Submission;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{OriginalUri, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use intake_api::jobs::{JobCreated, TradeRef};
use intake_core::history::{ContactHistory, HistoryQuery};
use intake_core::jobs::{
    route, validate, CreateOutcome, CreationSource, JobImage, NewJob, NewRecipient, Quarantined,
    ValidatedJob,
};
use intake_core::store::EarlierOrHistory;
use intake_spam::{Assessment, SpamInput};

use time::OffsetDateTime;
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
    let submission = Submission::of(&key, &headers, "POST", uri.path(), &body)?;
    let _in_flight = state.in_flight.enter(submission.scopes())?;
    let value: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(value) => value,
        Err(error) => {
            let error = ApiError::BadRequest(format!("The body is not valid JSON: {error}."));
            return earlier_answer_or(&state, &submission, error).await;
        }
    };
    let origin = Origin::of(CreationSource::Api, request_id);
    let prepared = match prepare_new(&state, &key, &value, &origin, &submission).await? {
        New::Earlier(answer) => return Ok(answer),
        New::Prepared(prepared) => prepared,
    };
    commit(
        &state,
        &key,
        &submission,
        prepared,
        CreationSource::Api,
        origin.request_id,
        Vec::new(),
    )
    .await
}

/// A job checked, screened and matched, ready to be written.
#[derive(Debug)]
pub struct Prepared {
    /// The checked job.
    pub job: ValidatedJob,
    /// Its recipients, best first.
    pub recipients: Vec<NewRecipient>,
}

/// Where a submission came from, for the job or its quarantine entry.
#[derive(Debug, Clone)]
pub struct Origin {
    /// The endpoint it arrived at.
    pub source: CreationSource,
    /// The request's `x-request-id`.
    pub request_id: String,
}

impl Origin {
    /// The origin of a request to `source`.
    pub fn of(source: CreationSource, request_id: Option<Extension<RequestId>>) -> Self {
        let request_id = request_id
            .and_then(|id| id.0.header_value().to_str().ok().map(str::to_owned))
            .unwrap_or_default();
        Origin { source, request_id }
    }
}

/// A submission of `POST /jobs` after the checks before writing.
enum New {
    /// It was written before: its first answer (or 409 for another body).
    Earlier(Response),
    /// A new job, ready to be written.
    Prepared(Prepared),
}

/// [`prepare`] for a submission whose earlier answer has not been looked up
/// yet: a valid job asks the store for it together with the consumer's
/// history (one round trip); an invalid one looks it up before its 400, so a
/// repeat gets the same answer either way.
async fn prepare_new(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
    origin: &Origin,
    submission: &Submission,
) -> Result<New, ApiError> {
    let job = match validate_job(state, value) {
        Ok(job) => job,
        Err(error) => {
            return earlier_answer_or(state, submission, error)
                .await
                .map(New::Earlier)
        }
    };
    let query = history_query(key, &job);
    let now = OffsetDateTime::now_utc();
    let history = match state
        .store
        .earlier_answer_or_history(&submission.scopes(), now, &query)
        .await?
    {
        EarlierOrHistory::Earlier(record) => {
            return submission.answer_from(&record).map(New::Earlier)
        }
        EarlierOrHistory::History(history) => history,
    };
    let assessment = assess(state, &job, history);
    screen_and_match(state, key, value, origin, job, assessment)
        .await
        .map(New::Prepared)
}

/// Validates, screens and matches a decoded job: 400, 422 (after keeping the
/// submission in quarantine) or 404 on the way.
pub async fn prepare(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
    origin: &Origin,
) -> Result<Prepared, ApiError> {
    let (job, assessment) = validate_and_assess(state, key, value).await?;
    screen_and_match(state, key, value, origin, job, assessment).await
}

/// Quarantines spam (422) and matches the rest (404 when no trade serves it).
async fn screen_and_match(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
    origin: &Origin,
    job: ValidatedJob,
    assessment: Assessment,
) -> Result<Prepared, ApiError> {
    if assessment.is_spam {
        keep_in_quarantine(state, key, value, &assessment, origin).await?;
        return Err(ApiError::Spam);
    }
    let recipients = recipients(state, &job).await?;
    if recipients.is_empty() {
        let snapshot = state.directory.current();
        let label = snapshot
            .directory
            .tree
            .get(job.category_id)
            .map(|c| c.label.clone())
            .unwrap_or_default();
        return Err(ApiError::NotFound(format!(
            "No trade in category {} ({label}) covers {} yet; nothing was created.",
            job.category_id, job.postcode
        )));
    }
    Ok(Prepared { job, recipients })
}

/// Validates and screens a decoded job: 400, 422 or 503 (history unavailable)
/// on the way. Shared with /verify.
pub(crate) async fn validate_and_screen(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
) -> Result<ValidatedJob, ApiError> {
    let (job, assessment) = validate_and_assess(state, key, value).await?;
    if assessment.is_spam {
        // The reasons are for us only: logged, never answered.
        tracing::info!(key_id = %key.key_id, score = assessment.score, reasons = ?assessment.reasons, "verified job classified as spam");
        return Err(ApiError::Spam);
    }
    Ok(job)
}

/// Validates a decoded job (400 listing every problem) and assesses it for
/// spam, with the consumer's recent jobs from the store (503 if it cannot
/// answer: a job is never let through unscreened).
async fn validate_and_assess(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
) -> Result<(ValidatedJob, Assessment), ApiError> {
    let job = validate_job(state, value)?;
    let history = state
        .store
        .contact_history(&history_query(key, &job))
        .await?;
    let assessment = assess(state, &job, history);
    Ok((job, assessment))
}

/// Validates a decoded job: 400 listing every problem.
fn validate_job(state: &AppState, value: &serde_json::Value) -> Result<ValidatedJob, ApiError> {
    let snapshot = state.directory.current();
    validate(value, &snapshot.directory.tree).map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        ApiError::BadRequest(format!("The job is invalid: {}.", list.join("; ")))
    })
}

fn history_query(key: &AuthenticatedKey, job: &ValidatedJob) -> HistoryQuery {
    HistoryQuery::for_job(job, &key.key_id, key.environment, OffsetDateTime::now_utc())
}

fn assess(state: &AppState, job: &ValidatedJob, history: ContactHistory) -> Assessment {
    state.spam.assess(&SpamInput {
        description: &job.description,
        first_name: &job.first_name,
        last_name: &job.last_name,
        email: job.email.as_str(),
        phone: job.phone.as_str(),
        postcode: job.postcode.as_str(),
        history,
    })
}

/// Keeps a spam submission with its reasons (`intake spam review`). If it
/// cannot be kept, the answer is 503 so that the affiliate retries: nothing is lost.
async fn keep_in_quarantine(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
    assessment: &Assessment,
    origin: &Origin,
) -> Result<(), ApiError> {
    let entry = Quarantined {
        id: uuid::Uuid::now_v7().to_string(),
        environment: key.environment,
        key_id: key.key_id.clone(),
        application: key.name.clone(),
        creation_source: origin.source,
        request_id: origin.request_id.clone(),
        received_at: OffsetDateTime::now_utc(),
        submission: value.to_string(),
        score: assessment.score,
        reasons: serde_json::to_string(&assessment.reasons).unwrap_or_else(|_| "[]".to_owned()),
        released_job_id: None,
    };
    state.store.quarantine(&entry).await?;
    // The reasons are for us only: logged and kept, never answered.
    tracing::info!(key_id = %key.key_id, quarantine_id = %entry.id, score = assessment.score, reasons = ?assessment.reasons, "job classified as spam and quarantined");
    Ok(())
}

/// Writes the job with its recipients and idempotency records, and answers 201
/// (or the first answer, when a concurrent repeat was written first).
pub async fn commit(
    state: &AppState,
    key: &AuthenticatedKey,
    submission: &Submission,
    prepared: Prepared,
    creation_source: CreationSource,
    request_id: String,
    images: Vec<JobImage>,
) -> Result<Response, ApiError> {
    let received_at = OffsetDateTime::now_utc();
    let id = uuid::Uuid::now_v7().to_string();
    let created = JobCreated {
        id: id.clone(),
        trades: prepared
            .recipients
            .iter()
            .map(|r| TradeRef {
                id: r.company_id,
                name: r.name.clone(),
                profile_url: profile_url(state, r.company_id),
            })
            .collect(),
    };
    let answer =
        serde_json::to_string(&created).map_err(|error| ApiError::Internal(error.to_string()))?;
    let signature_ttl = state.config.max_skew * 2;
    let new_job = NewJob {
        id,
        environment: key.environment,
        key_id: key.key_id.clone(),
        application: key.name.clone(),
        creation_source,
        request_id,
        received_at,
        job: prepared.job,
        recipients: prepared.recipients,
        images,
        idempotency: submission.records(
            201,
            &answer,
            received_at,
            state.config.idempotency_ttl,
            signature_ttl,
        ),
    };
    match state.store.create_job(&new_job).await? {
        CreateOutcome::Created => {
            tracing::info!(job_id = %new_job.id, key_id = %key.key_id, recipients = new_job.recipients.len(), "job created");
            // Its leads are due now: wake the dispatcher rather than wait for its next poll.
            state.deliveries_due.notify_one();
            let mut response = (StatusCode::CREATED, answer).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            Ok(response)
        }
        CreateOutcome::Existing(record) => submission.answer_from(&record),
    }
}

/// `application/json`, with or without parameters such as `charset=utf-8`.
fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
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

/// The answer to an earlier identical submission if there was one, else `error`.
async fn earlier_answer_or(
    state: &AppState,
    submission: &Submission,
    error: ApiError,
) -> Result<Response, ApiError> {
    match earlier_answer(state, submission).await? {
        Some(answer) => Ok(answer),
        None => Err(error),
    }
}

/// The stored answer to an earlier identical submission, if there was one.
pub async fn earlier_answer(
    state: &AppState,
    submission: &Submission,
) -> Result<Option<Response>, ApiError> {
    let now = OffsetDateTime::now_utc();
    for scope in submission.scopes() {
        if let Some(record) = state.store.idempotency(&scope, now).await? {
            return submission.answer_from(&record).map(Some);
        }
    }
    Ok(None)
}

/// The trades the job goes to, best first; empty when none serves it. Shared with /verify.
pub(crate) async fn recipients(
    state: &AppState,
    job: &ValidatedJob,
) -> Result<Vec<NewRecipient>, ApiError> {
    let snapshot = state.directory.current();
    Ok(route::recipients(
        state.store.as_ref(),
        &snapshot.directory,
        job,
        state.config.max_recipients,
    )
    .await?)
}

fn profile_url(state: &AppState, company_id: u64) -> String {
    format!(
        "{}/trades/{company_id}",
        state.config.public_base_url.trim_end_matches('/')
    )
}
