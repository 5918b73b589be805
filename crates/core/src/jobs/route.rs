//! Choosing a job's recipients: the trades that serve it, ranked with the
//! leads they received recently (DESIGN.md §6, docs/directory.md).

use super::record::NewRecipient;
use super::validate::ValidatedJob;
use crate::directory::matching::choose_recipients;
use crate::directory::Directory;
use crate::geography::Geography;
use crate::store::{Store, StoreError};
use time::OffsetDateTime;

/// How far back leads count for fairness between trades.
pub const FAIRNESS_WINDOW: time::Duration = time::Duration::days(7);
/// Recipients are chosen from this many times `max` best candidates: fairness
/// only reorders near-equals, so only the best few need their lead counts.
const SHORTLIST_FACTOR: usize = 5;

/// The trades `job` goes to, best first; empty when none serves it.
pub async fn recipients(
    store: &dyn Store,
    directory: &Directory,
    job: &ValidatedJob,
    max: usize,
) -> Result<Vec<NewRecipient>, StoreError> {
    let location = Geography::embedded().locate(&job.postcode);
    let matches = directory
        .index
        .matches(job.category_id, &job.postcode, location);
    if matches.is_empty() {
        return Ok(Vec::new());
    }
    let shortlist = choose_recipients(matches, |_| 0, max * SHORTLIST_FACTOR);
    let ids: Vec<u64> = shortlist.iter().map(|r| r.found.company_id).collect();
    let leads = store
        .recent_leads(&ids, OffsetDateTime::now_utc() - FAIRNESS_WINDOW)
        .await?;
    let chosen = choose_recipients(
        shortlist.into_iter().map(|r| r.found).collect(),
        |id| leads.get(&id).copied().unwrap_or(0),
        max,
    );
    Ok(chosen
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
        .collect())
}
