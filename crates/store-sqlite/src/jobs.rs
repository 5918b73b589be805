//! SQL of jobs, recipients and idempotency records.

use intake_core::jobs::{IdempotencyRecord, NewJob, StoredJob, StoredRecipient};
use intake_core::store::{StoreCounts, StoreError};
use intake_core::Environment;
use intake_store_sql::rows::jobs::{
    new_recipient, IdempotencyRow, JobImageRow, JobRow, RecipientRow,
};
use intake_store_sql::{Millis, StoredTime};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection, SqlitePool};
use std::collections::HashMap;
use time::OffsetDateTime;

/// Rows per multi-row INSERT, well under SQLite's 32,766 bound values.
const ROWS: usize = 500;

/// Writes jobs with their recipients and images in a few multi-row INSERTs
/// (the writer's batches, and single jobs alike).
pub async fn insert_jobs(conn: &mut SqliteConnection, jobs: &[&NewJob]) -> Result<(), StoreError> {
    // A lone job's statements recur and are worth keeping prepared; a
    // batch's differ with its size and would only crowd out the others.
    let lone = jobs.len() == 1;
    for chunk in jobs.chunks(ROWS / 2) {
        let mut query = QueryBuilder::<Sqlite>::new(
            "INSERT INTO jobs (id, environment, key_id, application, creation_source, request_id, received_at, received_ms, \
             category_id, description, email, phone, first_name, last_name, postcode, address_line1, address_line2, \
             address_line3, address_city, address_postcode, preferred_start_id, preferred_start_date, fingerprint) ",
        );
        query.push_values(chunk, |mut row, job| {
            let v = &job.job;
            let address = v.address.as_ref();
            row.push_bind(&job.id)
                .push_bind(job.environment.as_str())
                .push_bind(&job.key_id)
                .push_bind(&job.application)
                .push_bind(job.creation_source.as_str())
                .push_bind(&job.request_id)
                .push_bind(job.received_at)
                .push_bind(Millis::stored(job.received_at))
                .push_bind(v.category_id)
                .push_bind(&v.description)
                .push_bind(v.email.as_str())
                .push_bind(v.phone.as_str())
                .push_bind(&v.first_name)
                .push_bind(&v.last_name)
                .push_bind(v.postcode.as_str())
                .push_bind(address.map(|a| a.line1.as_str()))
                .push_bind(address.and_then(|a| a.line2.as_deref()))
                .push_bind(address.and_then(|a| a.line3.as_deref()))
                .push_bind(address.map(|a| a.city.as_str()))
                .push_bind(address.map(|a| a.postcode.as_str()))
                .push_bind(v.preferred_start.map(|p| p.id.as_str()))
                .push_bind(v.preferred_start.and_then(|p| p.date))
                .push_bind(intake_core::spam::fingerprint(&v.description));
        });
        query.build().persistent(lone).execute(&mut *conn).await?;
    }
    let recipients: Vec<_> = jobs
        .iter()
        .flat_map(|job| job.recipients.iter().map(move |r| (*job, r)))
        .collect();
    for chunk in recipients.chunks(ROWS) {
        let mut query = QueryBuilder::<Sqlite>::new(
            "INSERT INTO job_recipients (job_id, company_id, name, rank, delivery_state, created_ms) ",
        );
        query.push_values(chunk, |mut row, (job, recipient)| {
            let state = match job.environment {
                Environment::Staging => "not_sent",
                Environment::Production => "pending",
            };
            row.push_bind(&job.id)
                .push_bind(recipient.company_id as i64)
                .push_bind(&recipient.name)
                .push_bind(recipient.rank)
                .push_bind(state)
                .push_bind(Millis::stored(job.received_at));
        });
        query.build().persistent(lone).execute(&mut *conn).await?;
    }
    let images: Vec<_> = jobs
        .iter()
        .flat_map(|job| {
            job.images
                .iter()
                .enumerate()
                .map(move |(n, i)| (*job, n, i))
        })
        .collect();
    for chunk in images.chunks(ROWS) {
        let mut query = QueryBuilder::<Sqlite>::new(
            "INSERT INTO job_images (job_id, position, image_id, object_key, file_name, content_type, width, height, bytes) ",
        );
        query.push_values(chunk, |mut row, (job, position, image)| {
            row.push_bind(&job.id)
                .push_bind(*position as i64)
                .push_bind(&image.id)
                .push_bind(&image.object_key)
                .push_bind(&image.file_name)
                .push_bind(&image.content_type)
                .push_bind(image.width)
                .push_bind(image.height)
                .push_bind(image.bytes as i64);
        });
        query.build().persistent(lone).execute(&mut *conn).await?;
    }
    crate::deliveries::insert_for(conn, jobs).await
}

pub async fn idempotency(
    pool: &SqlitePool,
    scope: &str,
    now: OffsetDateTime,
) -> Result<Option<IdempotencyRecord>, StoreError> {
    let row: Option<IdempotencyRow<Millis>> = sqlx::query_as(
        "SELECT scope, request_hash, status, body, expires_ms AS expires_at FROM idempotency \
         WHERE scope = ? AND expires_ms > ?",
    )
    .bind(scope)
    .bind(Millis::stored(now))
    .fetch_optional(pool)
    .await?;
    row.map(IdempotencyRow::into_record).transpose()
}

pub async fn purge_idempotency(pool: &SqlitePool, now: OffsetDateTime) -> Result<u64, StoreError> {
    let done = sqlx::query("DELETE FROM idempotency WHERE expires_ms <= ?")
        .bind(Millis::stored(now))
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

pub async fn job(pool: &SqlitePool, id: &str) -> Result<Option<StoredJob>, StoreError> {
    let Some(row) = sqlx::query_as::<_, JobRow>("SELECT * FROM jobs WHERE id = ?")
        .bind(id)
        .fetch_optional(pool)
        .await?
    else {
        return Ok(None);
    };
    let mut job = row.into_job()?;
    let states = crate::deliveries::states_of_job(pool, id).await?;
    let recipients: Vec<RecipientRow> = sqlx::query_as(
        "SELECT company_id, name, rank FROM job_recipients WHERE job_id = ? ORDER BY rank",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let recipients: Vec<StoredRecipient> = recipients
        .into_iter()
        .map(|recipient| {
            let company_id = recipient.company_id as u64;
            recipient.into_recipient(intake_core::delivery::recipient_state(
                states
                    .iter()
                    .filter(|(company, _)| *company == company_id)
                    .map(|(_, state)| *state),
            ))
        })
        .collect();
    let images: Vec<JobImageRow> = sqlx::query_as(
        "SELECT image_id, object_key, file_name, content_type, width, height, bytes FROM job_images WHERE job_id = ? ORDER BY position",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    job.images = images.into_iter().map(JobImageRow::into_image).collect();
    job.recipients = recipients.iter().map(new_recipient).collect();
    Ok(Some(StoredJob { job, recipients }))
}

pub async fn recent_leads(
    pool: &SqlitePool,
    company_ids: &[u64],
    since: OffsetDateTime,
) -> Result<HashMap<u64, u32>, StoreError> {
    if company_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let mut query = QueryBuilder::<Sqlite>::new(
        "SELECT company_id, COUNT(*) FROM job_recipients WHERE created_ms >= ",
    );
    query
        .push_bind(Millis::stored(since))
        .push(" AND company_id IN (");
    let mut ids = query.separated(", ");
    for id in company_ids {
        ids.push_bind(*id as i64);
    }
    query.push(") GROUP BY company_id");
    let rows: Vec<(i64, i64)> = query.build_query_as().fetch_all(pool).await?;
    Ok(rows
        .into_iter()
        .map(|(company_id, leads)| (company_id as u64, leads as u32))
        .collect())
}

pub async fn counts(pool: &SqlitePool) -> Result<StoreCounts, StoreError> {
    let (jobs, recipients, idempotency, deliveries): (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM job_recipients), (SELECT COUNT(*) FROM idempotency), \
         (SELECT COUNT(*) FROM deliveries)",
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
