//! SQL that reads jobs back: a whole job with its recipients' delivery
//! state, the leads of trades (for fairness), and row counts.

use intake_core::delivery::{recipient_state, DeliveryState};
use intake_core::jobs::{StoredJob, StoredRecipient};
use intake_core::store::{StoreCounts, StoreError};
use intake_store_sql::rows::deliveries::DeliveryStateRow;
use intake_store_sql::rows::jobs::{new_recipient, JobImageRow, JobRow, RecipientRow};
use sqlx::PgPool;
use std::collections::HashMap;
use time::OffsetDateTime;

pub async fn job(pool: &PgPool, id: &str) -> Result<Option<StoredJob>, StoreError> {
    let Some(row) = sqlx::query_as::<_, JobRow>("SELECT * FROM jobs WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
    else {
        return Ok(None);
    };
    let mut job = row.into_job()?;
    let mut states: HashMap<u64, Vec<DeliveryState>> = HashMap::new();
    let rows: Vec<DeliveryStateRow> =
        sqlx::query_as("SELECT company_id, state FROM deliveries WHERE job_id = $1")
            .bind(id)
            .fetch_all(pool)
            .await?;
    for row in rows {
        let (company_id, state) = row.into_state()?;
        states.entry(company_id).or_default().push(state);
    }
    let recipients: Vec<RecipientRow> = sqlx::query_as(
        "SELECT company_id, name, rank FROM job_recipients WHERE job_id = $1 ORDER BY rank",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let recipients: Vec<StoredRecipient> = recipients
        .into_iter()
        .map(|recipient| {
            let states = states
                .remove(&(recipient.company_id as u64))
                .unwrap_or_default();
            recipient.into_recipient(recipient_state(states))
        })
        .collect();
    let images: Vec<JobImageRow> = sqlx::query_as(
        "SELECT image_id, object_key, file_name, content_type, width, height, bytes FROM job_images \
         WHERE job_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    job.images = images.into_iter().map(JobImageRow::into_image).collect();
    job.recipients = recipients.iter().map(new_recipient).collect();
    Ok(Some(StoredJob { job, recipients }))
}

pub async fn recent_leads(
    pool: &PgPool,
    company_ids: &[u64],
    since: OffsetDateTime,
) -> Result<HashMap<u64, u32>, StoreError> {
    if company_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<i64> = company_ids.iter().map(|id| *id as i64).collect();
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT company_id, COUNT(*) FROM job_recipients WHERE created_at >= $1 AND company_id = ANY($2) \
         GROUP BY company_id",
    )
    .bind(since)
    .bind(ids)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(company_id, leads)| (company_id as u64, leads as u32))
        .collect())
}

pub async fn counts(pool: &PgPool) -> Result<StoreCounts, StoreError> {
    let (jobs, recipients, idempotency, deliveries): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM job_recipients), \
         (SELECT COUNT(*) FROM idempotency), (SELECT COUNT(*) FROM deliveries)",
    )
    .fetch_one(pool)
    .await?;
    Ok(StoreCounts {
        jobs: jobs as u64,
        recipients: recipients as u64,
        idempotency: idempotency as u64,
        deliveries: deliveries as u64,
    })
}
