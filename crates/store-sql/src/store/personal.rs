//! A person's data on SQL: their jobs by e-mail (the dialect's comparison,
//! on `jobs_by_email`) or by phone (any of its forms, on `jobs_by_phone`),
//! and the scrub after an erasure.

use super::SqlStore;
use crate::dialect::Backend;
use crate::statement::Statement;
use async_trait::async_trait;
use intake_core::store::{Person, PersonalData, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use std::time::Duration;

/// How often, and how far apart, the scrub's checkpoint is tried while
/// other connections keep it from finishing.
const SCRUB_TRIES: u32 = 40;
const SCRUB_PAUSE: Duration = Duration::from_millis(250);

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> PersonalData for SqlStore<D> {
    async fn jobs_of(&self, person: &Person) -> Result<Vec<String>, StoreError> {
        let ids = match person {
            Person::Email(email) => {
                sqlx::query_scalar(D::JOBS_BY_EMAIL)
                    .bind(email)
                    .fetch_all(&self.pool)
                    .await?
            }
            Person::Phone(_) => {
                let mut select = Statement::new("SELECT id FROM jobs WHERE phone");
                D::push_texts(&mut select, &person.phone_forms());
                select.push(" ORDER BY received_at, id");
                let (sql, arguments) = select.into_parts()?;
                sqlx::query_scalar_with(&sql, arguments)
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        Ok(ids)
    }

    async fn delete_quarantined(&self, ids: &[String]) -> Result<u64, StoreError> {
        // Decisions keep no contact field, but an erasure leaves none of the
        // person's text behind either; decisions go first, so that a failure
        // between the two leaves the entries for the erasure to find again.
        if !ids.is_empty() {
            let mut delete = Statement::new("DELETE FROM spam_decisions WHERE quarantine_id");
            D::push_texts(&mut delete, ids);
            let (sql, arguments) = delete.into_parts()?;
            sqlx::query_with(&sql, arguments)
                .execute(&self.pool)
                .await?;
        }
        self.delete_ids("quarantine", ids).await
    }

    async fn scrub(&self) -> Result<(), StoreError> {
        let Some(checkpoint) = D::CHECKPOINT else {
            return Ok(());
        };
        for _ in 0..SCRUB_TRIES {
            // SQLite answers (busy, frames in the log, frames copied): busy
            // means a reader or writer kept the log from being truncated.
            let (busy, _, _): (i64, i64, i64) =
                sqlx::query_as(checkpoint).fetch_one(&self.pool).await?;
            if busy == 0 {
                return Ok(());
            }
            tokio::time::sleep(SCRUB_PAUSE).await;
        }
        Err(StoreError::Unavailable(
            "other connections kept the write-ahead log from being folded back and truncated; \
             run the erasure again when the service is less busy"
                .to_owned(),
        ))
    }
}
