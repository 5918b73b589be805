//! The one row of a contact-history count, alone or with the earlier answer
//! of a submission beside it.

use super::bad;
use super::jobs::IdempotencyRow;
use crate::StoredTime;
use intake_core::history::ContactHistory;
use intake_core::store::{EarlierOrHistory, StoreError};
use std::collections::HashMap;

/// The counts of a consumer's earlier jobs.
#[derive(Debug, sqlx::FromRow)]
pub struct HistoryRow {
    pub by_email: i64,
    pub by_phone: i64,
    pub same_text_other_keys: i64,
}

impl HistoryRow {
    /// The history as the spam screen reads it.
    pub fn into_history(self) -> Result<ContactHistory, StoreError> {
        let count = |value: i64| u32::try_from(value).map_err(|_| bad("a history", "count"));
        Ok(ContactHistory {
            by_email: count(self.by_email)?,
            by_phone: count(self.by_phone)?,
            same_text_other_keys: count(self.same_text_other_keys)?,
        })
    }
}

/// The history with the first unexpired idempotency record of a
/// submission's scopes, when there is one (then its columns are not NULL).
#[derive(Debug, sqlx::FromRow)]
pub struct EarlierRow<T> {
    #[sqlx(flatten)]
    pub history: HistoryRow,
    pub scope: Option<String>,
    pub request_hash: Option<String>,
    pub status: Option<i32>,
    pub body: Option<String>,
    pub expires_at: Option<T>,
    /// The asked trades' recent leads as `id:count` pairs joined by commas
    /// (NULL when none of them had any).
    pub leads: Option<String>,
}

impl<T: StoredTime> EarlierRow<T> {
    /// The earlier answer if there is one, else the history.
    pub fn into_answer(self) -> Result<EarlierOrHistory, StoreError> {
        let EarlierRow {
            history,
            scope,
            request_hash,
            status,
            body,
            expires_at,
            leads,
        } = self;
        let Some(scope) = scope else {
            return Ok(EarlierOrHistory::History {
                history: history.into_history()?,
                recent_leads: recent_leads(leads.as_deref().unwrap_or(""))?,
            });
        };
        let missing = || bad("an idempotency record", "column");
        let record = IdempotencyRow {
            scope,
            request_hash: request_hash.ok_or_else(missing)?,
            status: status.ok_or_else(missing)?,
            body: body.ok_or_else(missing)?,
            expires_at: expires_at.ok_or_else(missing)?,
        };
        record.into_record().map(EarlierOrHistory::Earlier)
    }
}

/// The lead counts of [`EarlierRow::leads`]: `id:count` pairs joined by
/// commas, empty for none.
fn recent_leads(pairs: &str) -> Result<HashMap<u64, u32>, StoreError> {
    pairs
        .split(',')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (id, count) = pair
                .split_once(':')
                .ok_or_else(|| bad("a recent-leads", "pair"))?;
            Ok((
                id.parse()
                    .map_err(|_| bad("a recent-leads", "company id"))?,
                count.parse().map_err(|_| bad("a recent-leads", "count"))?,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::recent_leads;
    use std::collections::HashMap;

    #[test]
    fn lead_pairs_are_read_and_a_malformed_list_is_refused() {
        assert_eq!(recent_leads("").unwrap(), HashMap::new());
        assert_eq!(
            recent_leads("7:2,123456789:40").unwrap(),
            HashMap::from([(7, 2), (123456789, 40)])
        );
        for bad in ["7", "7:x", "x:2", "7:-1", "7:2,,8"] {
            assert!(recent_leads(bad).is_err(), "{bad}");
        }
    }
}
