//! A job read back whole, and a quarantined submission released as a job,
//! on either dialect.

use crate::dialect::Backend;
use crate::rows::deliveries::DeliveryStateRow;
use crate::rows::jobs::{new_recipient, JobImageRow, JobRow, RecipientRow};
use crate::SqlStore;
use intake_core::delivery::{recipient_state, DeliveryState};
use intake_core::jobs::{NewJob, StoredJob, StoredRecipient};
use intake_core::spam::SpamDecision;
use intake_core::store::StoreError;
use intake_store_sql_macros::sqlx_bounds;
use std::collections::HashMap;

#[sqlx_bounds(D)]
impl<D: Backend> SqlStore<D> {
    /// The job with this id, its recipients in the delivery state their
    /// deliveries add up to (`not_sent` without any: a staging job), and
    /// its images.
    pub(crate) async fn stored_job(&self, id: &str) -> Result<Option<StoredJob>, StoreError> {
        let Some(row) = sqlx::query_as::<_, JobRow>("SELECT * FROM jobs WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let mut job = row.into_job()?;
        let states: Vec<DeliveryStateRow> =
            sqlx::query_as("SELECT company_id, state FROM deliveries WHERE job_id = $1")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        let mut by_trade: HashMap<u64, Vec<DeliveryState>> = HashMap::new();
        for row in states {
            let (company_id, state) = row.into_state()?;
            by_trade.entry(company_id).or_default().push(state);
        }
        let recipients: Vec<RecipientRow> = sqlx::query_as(
            "SELECT company_id, name, rank FROM job_recipients WHERE job_id = $1 ORDER BY rank",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let recipients: Vec<StoredRecipient> = recipients
            .into_iter()
            .map(|recipient| {
                let states = by_trade
                    .remove(&(recipient.company_id as u64))
                    .unwrap_or_default();
                recipient.into_recipient(recipient_state(states))
            })
            .collect();
        let images: Vec<JobImageRow> = sqlx::query_as(
            "SELECT image_id, object_key, file_name, content_type, width, height, bytes \
             FROM job_images WHERE job_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        job.images = images.into_iter().map(JobImageRow::into_image).collect();
        job.recipients = recipients.iter().map(new_recipient).collect();
        Ok(Some(StoredJob { job, recipients }))
    }

    /// Writes `job`, marks quarantine entry `id` released as it and records
    /// the operator's `decision`, in one transaction. Two operators deciding
    /// at once take turns at the entry: the second sees the first's decision
    /// and gets a conflict.
    pub(crate) async fn release_job(
        &self,
        id: &str,
        job: &NewJob,
        decision: &SpamDecision,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin_with(D::BEGIN_WRITE).await?;
        Self::undecided(&mut tx, id).await?;
        Self::insert_decision(&mut tx, decision).await?;
        D::insert_jobs(&mut tx, &[job]).await?;
        sqlx::query("UPDATE quarantine SET released_job_id = $1 WHERE id = $2")
            .bind(&job.id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
