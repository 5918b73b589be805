//! The checks of a job a verification runs: the same validation and spam
//! screen as `POST /jobs`, and the same matching, except that finding no
//! trade is an answer (empty `foundTrades`) rather than a 404.

use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use crate::state::AppState;
use intake_api::verify::FoundTrade;
use intake_core::directory::matching::choose_recipients;
use intake_core::geography::Geography;
use intake_core::jobs::{validate, ValidatedJob};
use intake_core::spam::SpamInput;
use time::OffsetDateTime;

/// How far back leads count for fairness, as when a job is created.
const FAIRNESS_WINDOW: time::Duration = time::Duration::days(7);
/// Recipients are chosen from this many times `max_recipients` best candidates.
const SHORTLIST_FACTOR: usize = 5;

/// Validates and screens the decoded job: 400 or 422 as `POST /jobs` answers.
pub(crate) fn validate_and_screen(
    state: &AppState,
    key: &AuthenticatedKey,
    value: &serde_json::Value,
) -> Result<ValidatedJob, ApiError> {
    let snapshot = state.directory.current();
    let job = validate(value, &snapshot.directory.tree).map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        ApiError::BadRequest(format!("The job is invalid: {}.", list.join("; ")))
    })?;
    let assessment = state.spam.assess(&SpamInput {
        description: &job.description,
        first_name: &job.first_name,
        last_name: &job.last_name,
        email: job.email.as_str(),
        phone: job.phone.as_str(),
        postcode: job.postcode.as_str(),
    });
    if assessment.is_spam {
        tracing::info!(key_id = %key.key_id, score = assessment.score, reasons = ?assessment.reasons, "verified job classified as spam");
        return Err(ApiError::Spam);
    }
    Ok(job)
}

/// The trades the job would go to now, best first; empty when none serves it.
pub(crate) async fn found_trades(
    state: &AppState,
    job: &ValidatedJob,
) -> Result<Vec<FoundTrade>, ApiError> {
    let snapshot = state.directory.current();
    let directory = &snapshot.directory;
    let location = Geography::embedded().locate(&job.postcode);
    let matches =
        directory
            .index
            .matches(&directory.tree, job.category_id, &job.postcode, location);
    if matches.is_empty() {
        return Ok(Vec::new());
    }
    let max = state.config.max_recipients;
    let shortlist = choose_recipients(matches, |_| 0, max * SHORTLIST_FACTOR);
    let ids: Vec<u64> = shortlist.iter().map(|r| r.found.company_id).collect();
    let since = OffsetDateTime::now_utc() - FAIRNESS_WINDOW;
    let leads = state.store.recent_leads(&ids, since).await?;
    let chosen = choose_recipients(
        shortlist.into_iter().map(|r| r.found).collect(),
        |id| leads.get(&id).copied().unwrap_or(0),
        max,
    );
    Ok(chosen
        .into_iter()
        .map(|ranked| FoundTrade {
            company_id: ranked.found.company_id,
            name: directory
                .index
                .get(ranked.found.company_id)
                .map(|t| t.company_name.clone())
                .unwrap_or_default(),
        })
        .collect())
}
