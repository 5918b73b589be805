//! The trade directory and the category tree.

use super::StoreError;
use crate::directory::{IndexedTrade, TradeRecord, ValidTrade};
use async_trait::async_trait;

/// The trades (with their reviews, images and search cards) and the
/// operator's category tree, under one version number.
#[async_trait]
pub trait DirectoryStore: Send + Sync + 'static {
    /// Adds or replaces these trades (by company id) with their reviews and
    /// images, all in one transaction: all or nothing. Bumps the directory version.
    async fn import_trades(&self, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError>;

    /// What matching needs of every trade, for the in-memory index.
    async fn directory(&self) -> Result<Vec<IndexedTrade>, StoreError>;

    /// The search cards (JSON of `intake_api::trades::TradeItem`) of these
    /// trades, in the order asked; unknown ids are skipped.
    async fn trade_cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError>;

    /// The stored records of these trades (as validated at import; reviews
    /// oldest first, images in their order), in the order asked; unknown ids
    /// are skipped.
    async fn trade_records(&self, company_ids: &[u64]) -> Result<Vec<TradeRecord>, StoreError>;

    /// A number that changes whenever trades or categories change, so that
    /// every process can tell when to reload its index.
    async fn directory_version(&self) -> Result<i64, StoreError>;

    /// Replaces the category tree (canonical JSON); bumps the directory version.
    async fn save_category_tree(&self, json: &str) -> Result<(), StoreError>;

    /// The operator's category tree, if one was saved.
    async fn category_tree(&self) -> Result<Option<String>, StoreError>;
}

/// What an import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportSummary {
    /// Trades that were new.
    pub inserted: u64,
    /// Trades that replaced an earlier version.
    pub updated: u64,
}
