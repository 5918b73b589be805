//! Removal by age on SQL: the dialect's three selections by time, and the
//! statements both dialects share.

use super::SqlStore;
use crate::dialect::Backend;
use crate::statement::Statement;
use crate::StoredTime;
use async_trait::async_trait;
use intake_core::store::{ExpiredJob, Purge, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use std::collections::HashMap;
use time::OffsetDateTime;

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> Purge for SqlStore<D> {
    async fn expired_jobs(
        &self,
        before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<ExpiredJob>, StoreError> {
        let ids: Vec<String> = sqlx::query_scalar(D::EXPIRED_JOBS)
            .bind(D::Time::stored(before))
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut select = Statement::new("SELECT job_id, object_key FROM job_images WHERE job_id");
        D::push_texts(&mut select, &ids);
        select.push(" ORDER BY job_id, position");
        let (sql, arguments) = select.into_parts()?;
        let images: Vec<(String, String)> = sqlx::query_as_with(&sql, arguments)
            .fetch_all(&self.pool)
            .await?;
        let mut keys: HashMap<String, Vec<String>> = HashMap::new();
        for (job_id, key) in images {
            keys.entry(job_id).or_default().push(key);
        }
        Ok(ids
            .into_iter()
            .map(|id| ExpiredJob {
                image_keys: keys.remove(&id).unwrap_or_default(),
                id,
            })
            .collect())
    }

    async fn delete_jobs(&self, ids: &[String]) -> Result<u64, StoreError> {
        // Recipients, photo records and deliveries go with the job (their
        // foreign keys cascade).
        self.delete_ids("jobs", ids).await
    }

    async fn purge_quarantine(
        &self,
        before: OffsetDateTime,
        limit: u32,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query(D::PURGE_QUARANTINE)
            .bind(before)
            .bind(i64::from(limit))
            .execute(&self.pool)
            .await?;
        Ok(D::rows_affected(&done))
    }

    async fn purge_deliveries(
        &self,
        before: OffsetDateTime,
        limit: u32,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query(D::PURGE_DELIVERIES)
            .bind(D::Time::stored(before))
            .bind(i64::from(limit))
            .execute(&self.pool)
            .await?;
        Ok(D::rows_affected(&done))
    }
}

#[sqlx_bounds(D)]
impl<D: Backend> SqlStore<D> {
    /// Deletes the rows of `table` with these ids; returns how many.
    pub(crate) async fn delete_ids(&self, table: &str, ids: &[String]) -> Result<u64, StoreError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let mut delete = Statement::new(format!("DELETE FROM {table} WHERE id"));
        D::push_texts(&mut delete, ids);
        let (sql, arguments) = delete.into_parts()?;
        let done = sqlx::query_with(&sql, arguments)
            .execute(&self.pool)
            .await?;
        Ok(D::rows_affected(&done))
    }
}
