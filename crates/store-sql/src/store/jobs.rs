//! Jobs on SQL: written through the group-commit queue, read back, answered
//! once per idempotency scope; quarantine and the contact history.

use super::SqlStore;
use crate::dialect::{Backend, Column, History};
use crate::rows::history::{EarlierRow, HistoryRow};
use crate::rows::jobs::IdempotencyRow;
use crate::rows::quarantine::{QuarantineRow, QUARANTINE_COLUMNS};
use crate::statement::Statement;
use crate::StoredTime;
use async_trait::async_trait;
use intake_core::history::{ContactHistory, HistoryQuery};
use intake_core::jobs::{CreateOutcome, IdempotencyRecord, NewJob, Quarantined, StoredJob};
use intake_core::spam::SpamDecision;
use intake_core::store::{EarlierOrHistory, JobStore, LeadsQuery, StoreCounts, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use sqlx::query::QueryAs;
use sqlx::{Database, Encode, Type};
use std::collections::HashMap;
use time::OffsetDateTime;

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> JobStore for SqlStore<D> {
    async fn create_job(&self, job: &NewJob) -> Result<CreateOutcome, StoreError> {
        self.writer.write(job.clone()).await
    }

    async fn idempotency(
        &self,
        scope: &str,
        now: OffsetDateTime,
    ) -> Result<Option<IdempotencyRecord>, StoreError> {
        let row: Option<IdempotencyRow<D::Time>> = sqlx::query_as(D::IDEMPOTENCY)
            .bind(scope)
            .bind(D::Time::stored(now))
            .fetch_optional(&self.pool)
            .await?;
        row.map(IdempotencyRow::into_record).transpose()
    }

    async fn purge_idempotency(&self, now: OffsetDateTime) -> Result<u64, StoreError> {
        let done = sqlx::query(D::PURGE_IDEMPOTENCY)
            .bind(D::Time::stored(now))
            .execute(&self.pool)
            .await?;
        Ok(D::rows_affected(&done))
    }

    async fn job(&self, id: &str) -> Result<Option<StoredJob>, StoreError> {
        self.stored_job(id).await
    }

    async fn recent_leads(
        &self,
        company_ids: &[u64],
        since: OffsetDateTime,
    ) -> Result<HashMap<u64, u32>, StoreError> {
        if company_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
        let mut select = Statement::new(D::RECENT_LEADS);
        select
            .push_bind(D::Time::stored(since))
            .push(" AND company_id");
        D::push_ids(&mut select, &ids);
        select.push(" GROUP BY company_id");
        let (sql, arguments) = select.into_parts()?;
        let rows: Vec<(i64, i64)> = sqlx::query_as_with(&sql, arguments)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .into_iter()
            .map(|(company_id, leads)| (company_id as u64, leads as u32))
            .collect())
    }

    async fn quarantine(&self, entry: &Quarantined) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO quarantine ({QUARANTINE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
        ))
        .bind(&entry.id)
        .bind(entry.environment.as_str())
        .bind(&entry.key_id)
        .bind(&entry.application)
        .bind(entry.creation_source.as_str())
        .bind(&entry.request_id)
        .bind(entry.received_at)
        .bind(&entry.submission)
        .bind(entry.score)
        .bind(&entry.reasons)
        .bind(&entry.released_job_id)
        .bind(&entry.model_version)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn quarantined(&self, include_decided: bool) -> Result<Vec<Quarantined>, StoreError> {
        let filter = if include_decided {
            ""
        } else {
            "WHERE released_job_id IS NULL AND decision IS NULL"
        };
        let rows: Vec<QuarantineRow> = sqlx::query_as(&format!(
            "SELECT * FROM (SELECT {QUARANTINE_COLUMNS}, \
             (SELECT verdict FROM spam_decisions WHERE quarantine_id = quarantine.id) AS decision \
             FROM quarantine) AS entries {filter} ORDER BY received_at, id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(QuarantineRow::into_entry).collect()
    }

    async fn release(
        &self,
        id: &str,
        job: &NewJob,
        decision: &SpamDecision,
    ) -> Result<(), StoreError> {
        self.release_job(id, job, decision).await
    }

    async fn counts(&self) -> Result<StoreCounts, StoreError> {
        let (jobs, recipients, idempotency, deliveries): (i64, i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM job_recipients), \
             (SELECT COUNT(*) FROM idempotency), (SELECT COUNT(*) FROM deliveries)",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(StoreCounts {
            jobs: jobs as u64,
            recipients: recipients as u64,
            idempotency: idempotency as u64,
            deliveries: deliveries as u64,
        })
    }

    async fn contact_history(&self, query: &HistoryQuery) -> Result<ContactHistory, StoreError> {
        let row: HistoryRow = bind_history::<D, _>(sqlx::query_as(D::HISTORY), query)
            .fetch_one(&self.pool)
            .await?;
        row.into_history()
    }

    async fn earlier_answer_or_history(
        &self,
        scopes: &[String],
        now: OffsetDateTime,
        query: &HistoryQuery,
        leads: &LeadsQuery,
    ) -> Result<EarlierOrHistory, StoreError> {
        let row: EarlierRow<D::Time> = bind_history::<D, _>(sqlx::query_as(D::EARLIER), query)
            .bind(D::scopes(scopes))
            .bind(D::Time::stored(now))
            .bind(D::Time::stored(leads.since))
            .bind(D::ids(&leads.company_ids))
            .fetch_one(&self.pool)
            .await?;
        row.into_answer()
    }
}

/// Binds the parameters `$1` to `$6` of [`History::HISTORY`].
pub(crate) fn bind_history<'q, D: History, O>(
    statement: QueryAs<'q, D::Db, O, <D::Db as Database>::Arguments<'q>>,
    query: &'q HistoryQuery,
) -> QueryAs<'q, D::Db, O, <D::Db as Database>::Arguments<'q>>
where
    String: Column<D::Db>,
    for<'s> &'s str: Encode<'s, D::Db> + Type<D::Db>,
{
    statement
        .bind(&query.email)
        .bind(&query.phone)
        .bind(&query.fingerprint)
        .bind(&query.key_id)
        .bind(D::Time::stored(query.since))
        .bind(query.environment.as_str())
}
