//! Operators' spam decisions and stored text models on SQL.

use super::SqlStore;
use crate::dialect::Backend;
use async_trait::async_trait;
use intake_core::spam::{SpamDecision, StoredSpamModel, Verdict};
use intake_core::store::{SpamLearning, StoreError};
use intake_store_sql_macros::sqlx_bounds;
use sqlx::Transaction;
use time::OffsetDateTime;

#[sqlx_bounds(D)]
#[async_trait]
impl<D: Backend> SpamLearning for SqlStore<D> {
    async fn confirm_spam(&self, decision: &SpamDecision) -> Result<(), StoreError> {
        let mut tx = self.pool.begin_with(D::BEGIN_WRITE).await?;
        Self::undecided(&mut tx, &decision.quarantine_id).await?;
        Self::insert_decision(&mut tx, decision).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn spam_decisions(&self) -> Result<Vec<SpamDecision>, StoreError> {
        let rows: Vec<(String, String, String, Option<String>, OffsetDateTime)> = sqlx::query_as(
            "SELECT quarantine_id, verdict, description, model_version, decided_at \
             FROM spam_decisions ORDER BY decided_at, quarantine_id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(
                |(quarantine_id, verdict, description, model_version, decided_at)| {
                    Ok(SpamDecision {
                        verdict: Verdict::parse(&verdict).ok_or_else(|| {
                            StoreError::Other(format!("a spam decision has verdict `{verdict}`"))
                        })?,
                        quarantine_id,
                        description,
                        model_version,
                        decided_at,
                    })
                },
            )
            .collect()
    }

    async fn save_spam_model(&self, model: &StoredSpamModel) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO spam_models (version, model, report, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&model.version)
        .bind(&model.model)
        .bind(&model.report)
        .bind(model.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn latest_spam_model(&self) -> Result<Option<StoredSpamModel>, StoreError> {
        let row: Option<(String, String, String, OffsetDateTime)> = sqlx::query_as(&format!(
            "SELECT version, model, report, created_at {}",
            Self::LATEST_MODEL
        ))
        .fetch_optional(&self.pool)
        .await?;
        Ok(
            row.map(|(version, model, report, created_at)| StoredSpamModel {
                version,
                model,
                report,
                created_at,
            }),
        )
    }

    async fn latest_spam_model_version(&self) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar(&format!("SELECT version {}", Self::LATEST_MODEL))
                .fetch_optional(&self.pool)
                .await?,
        )
    }
}

#[sqlx_bounds(D)]
impl<D: Backend> SqlStore<D> {
    const LATEST_MODEL: &'static str =
        "FROM spam_models ORDER BY created_at DESC, version DESC LIMIT 1";

    /// Checks, inside a writing transaction, that quarantine entry `id`
    /// exists and has no decision yet: `NotFound` or `Conflict` otherwise.
    /// Concurrent deciders take turns at the entry (`FOR UPDATE`, or
    /// SQLite's one writer), and the decision's primary key stops a second
    /// one in any case.
    pub(crate) async fn undecided(
        tx: &mut Transaction<'static, D::Db>,
        id: &str,
    ) -> Result<(), StoreError> {
        let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(&format!(
            "SELECT released_job_id, \
             (SELECT verdict FROM spam_decisions WHERE quarantine_id = quarantine.id) \
             FROM quarantine WHERE id = $1{}",
            D::FOR_UPDATE
        ))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
        match row {
            None => Err(StoreError::NotFound),
            Some((Some(job_id), _)) => Err(StoreError::Conflict(format!(
                "already released as job {job_id}"
            ))),
            Some((None, Some(verdict))) => Err(StoreError::Conflict(format!(
                "already decided on ({verdict})"
            ))),
            Some((None, None)) => Ok(()),
        }
    }

    /// Writes `decision` inside a transaction.
    pub(crate) async fn insert_decision(
        tx: &mut Transaction<'static, D::Db>,
        decision: &SpamDecision,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO spam_decisions \
             (quarantine_id, verdict, description, model_version, decided_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&decision.quarantine_id)
        .bind(decision.verdict.as_str())
        .bind(&decision.description)
        .bind(&decision.model_version)
        .bind(decision.decided_at)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
