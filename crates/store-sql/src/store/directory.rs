//! The trade directory on SQL: [`DirectoryStore`] over the statements of
//! `crate::directory`.

use super::SqlStore;
use crate::dialect::Backend;
use async_trait::async_trait;
use intake_core::directory::{IndexedTrade, TradeRecord, ValidTrade};
use intake_core::store::{DirectoryStore, ImportSummary, StoreError};
use intake_store_sql_macros::sqlx_bounds;

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> DirectoryStore for SqlStore<D> {
    async fn import_trades(&self, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError> {
        Self::import(&self.pool, trades).await
    }

    async fn directory(&self) -> Result<Vec<IndexedTrade>, StoreError> {
        self.index().await
    }

    async fn trade_cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
        if let Some(reader) = &self.card_reader {
            return reader.cards(company_ids);
        }
        self.cards(company_ids).await
    }

    async fn trade_records(&self, company_ids: &[u64]) -> Result<Vec<TradeRecord>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        Self::load_records(&mut conn, company_ids).await
    }

    async fn directory_version(&self) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT version FROM directory_state WHERE id = 1")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    async fn save_category_tree(&self, json: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE directory_state SET category_tree = $1, version = version + 1 WHERE id = 1",
        )
        .bind(json)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn category_tree(&self) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT category_tree FROM directory_state WHERE id = 1")
                .fetch_one(&self.pool)
                .await?,
        )
    }
}
