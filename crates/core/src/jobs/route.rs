//! Choosing a job's recipients: the trades that serve it, ranked with the
//! leads they received recently (DESIGN.md §6, docs/directory.md).

use super::record::NewRecipient;
use super::validate::ValidatedJob;
use crate::directory::index::Match;
use crate::directory::matching::choose_recipients;
use crate::directory::Directory;
use crate::geography::Geography;
use crate::store::{LeadsQuery, Store, StoreError};
use std::collections::HashMap;
use time::OffsetDateTime;

/// How far back leads count for fairness between trades.
pub const FAIRNESS_WINDOW: time::Duration = time::Duration::days(7);
/// Recipients are chosen from this many times `max` best candidates: fairness
/// only reorders near-equals, so only the best few need their lead counts.
const SHORTLIST_FACTOR: usize = 5;

/// The trades `job` goes to, best first; empty when none serves it. Asks
/// the store for the shortlist's recent leads; the job pipeline asks them
/// with its other reads ([`shortlist`], [`LeadsQuery`], [`choose`]).
pub async fn recipients(
    store: &dyn Store,
    directory: &Directory,
    job: &ValidatedJob,
    max: usize,
) -> Result<Vec<NewRecipient>, StoreError> {
    let shortlist = shortlist(directory, job, max);
    let query = leads_query(&shortlist, OffsetDateTime::now_utc());
    let leads = store.recent_leads(&query.company_ids, query.since).await?;
    Ok(choose(directory, shortlist, &leads, max))
}

/// The best candidates to receive `job` before fairness is weighed, of
/// which [`choose`] takes `max`: fairness only reorders near-equals, so only
/// these need their lead counts. Empty when no trade serves the job.
pub fn shortlist(directory: &Directory, job: &ValidatedJob, max: usize) -> Vec<Match> {
    let location = Geography::embedded().locate(&job.postcode);
    let matches = directory
        .index
        .matches(job.category_id, &job.postcode, location);
    if matches.is_empty() {
        return Vec::new();
    }
    choose_recipients(matches, |_| 0, max * SHORTLIST_FACTOR)
        .into_iter()
        .map(|ranked| ranked.found)
        .collect()
}

/// The lead counts that [`choose`] weighs for `shortlist` at `now`.
pub fn leads_query(shortlist: &[Match], now: OffsetDateTime) -> LeadsQuery {
    LeadsQuery {
        company_ids: shortlist.iter().map(|found| found.company_id).collect(),
        since: now - FAIRNESS_WINDOW,
    }
}

/// The recipients among `shortlist`, best first, with their recent `leads`
/// weighed (a trade absent from `leads` had none).
pub fn choose(
    directory: &Directory,
    shortlist: Vec<Match>,
    leads: &HashMap<u64, u32>,
    max: usize,
) -> Vec<NewRecipient> {
    choose_recipients(shortlist, |id| leads.get(&id).copied().unwrap_or(0), max)
        .into_iter()
        .zip(1..)
        .map(|(ranked, rank)| NewRecipient {
            company_id: ranked.found.company_id,
            name: directory
                .index
                .get(ranked.found.company_id)
                .map(|t| t.company_name.clone())
                .unwrap_or_default(),
            rank,
        })
        .collect()
}
