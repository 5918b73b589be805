//! What the stores write of a trade beside its columns: the search card and
//! a review's breakdowns, as JSON, and the card format. The rows themselves,
//! and their conversion back to records, are the SQL stores' own
//! (`intake_store_sql::rows::directory`).

use super::record::{ReviewRecord, TradeRecord};

/// The format of the search cards this binary writes. A store whose cards are
/// older (its `directory_state.card_format` is lower) rebuilds them from its
/// rows when it opens. 1: the shape before the specification's tables;
/// 2: the specification's tables.
pub const CARD_FORMAT: i64 = 2;

/// The search card of a stored record, as JSON.
pub fn card_json(record: &TradeRecord) -> String {
    serde_json::to_string(&super::summary::card(record)).expect("a card always serialises")
}

/// The `breakdowns` column of a review: a JSON array of `{label, value}`.
pub fn breakdowns_json(review: &ReviewRecord) -> String {
    serde_json::to_string(&review.breakdowns).expect("breakdowns always serialise")
}
