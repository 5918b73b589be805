//! SQL that writes jobs: the job, its recipients, its images and, for a
//! production job, its outbox rows, in one statement.

use crate::errors::map_error;
use crate::idempotency;
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::PgConnection;
use time::OffsetDateTime;

/// Writes one job on `conn`, inside a savepoint of the writer's batch
/// transaction: its idempotency scopes first, and nothing else if one of
/// them is held by an unexpired record (the caller rolls the savepoint back).
pub async fn create_in(conn: &mut PgConnection, job: &NewJob) -> Result<CreateOutcome, StoreError> {
    if let Some(existing) =
        idempotency::take(conn, &job.idempotency, OffsetDateTime::now_utc()).await?
    {
        return Ok(CreateOutcome::Existing(existing));
    }
    insert_job(conn, job).await?;
    Ok(CreateOutcome::Created)
}

/// The job row, its recipients and images, and one delivery per recipient and
/// channel that the trade's directory record names (production only): due at
/// once, or `gone` at once when its target is marked gone. Data-modifying
/// CTEs make it one round trip; foreign keys are checked at its end.
const INSERT_JOB: &str = "\
WITH job AS (
    INSERT INTO jobs (id, environment, key_id, application, creation_source, request_id, received_at,
        category_id, description, email, phone, first_name, last_name, postcode, address_line1,
        address_line2, address_line3, address_city, address_postcode, preferred_start_id,
        preferred_start_date, fingerprint)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $32)
), recipients AS (
    INSERT INTO job_recipients (job_id, company_id, name, rank, created_at)
    SELECT $1, r.company_id, r.name, r.rank, $7
    FROM UNNEST($22::bigint[], $23::text[], $24::int[]) AS r (company_id, name, rank)
), images AS (
    INSERT INTO job_images (job_id, position, image_id, object_key, file_name, content_type, width, height, bytes)
    SELECT $1, i.position - 1, i.image_id, i.object_key, i.file_name, i.content_type, i.width, i.height, i.bytes
    FROM UNNEST($25::text[], $26::text[], $27::text[], $28::text[], $29::int[], $30::int[], $31::bigint[])
        WITH ORDINALITY AS i (image_id, object_key, file_name, content_type, width, height, bytes, position)
)
INSERT INTO deliveries (id, job_id, company_id, channel, target, state, attempts, next_attempt_at, created_at, updated_at)
SELECT $1 || '.' || t.company_id || '.' || c.channel, $1, t.company_id, c.channel, c.target,
    CASE WHEN g.target IS NULL THEN 'pending' ELSE 'gone' END, 0, $7, $7, $7
FROM trades t
CROSS JOIN LATERAL (VALUES ('webhook', t.webhook_url), ('email', t.email)) AS c (channel, target)
LEFT JOIN gone_targets g ON g.channel = c.channel AND g.target = c.target
WHERE $2 = 'production' AND t.company_id = ANY($22) AND c.target IS NOT NULL";

/// Writes `job` whole (no idempotency records: see [`create_in`]).
pub async fn insert_job(conn: &mut PgConnection, job: &NewJob) -> Result<(), StoreError> {
    let v = &job.job;
    let address = v.address.as_ref();
    let images = &job.images;
    sqlx::query(INSERT_JOB)
        .bind(&job.id)
        .bind(job.environment.as_str())
        .bind(&job.key_id)
        .bind(&job.application)
        .bind(job.creation_source.as_str())
        .bind(&job.request_id)
        .bind(job.received_at)
        .bind(v.category_id as i32)
        .bind(&v.description)
        .bind(v.email.as_str())
        .bind(v.phone.as_str())
        .bind(&v.first_name)
        .bind(&v.last_name)
        .bind(v.postcode.as_str())
        .bind(address.map(|a| a.line1.as_str()))
        .bind(address.and_then(|a| a.line2.as_deref()))
        .bind(address.and_then(|a| a.line3.as_deref()))
        .bind(address.map(|a| a.city.as_str()))
        .bind(address.map(|a| a.postcode.as_str()))
        .bind(v.preferred_start.map(|p| p.id.as_str()))
        .bind(v.preferred_start.and_then(|p| p.date))
        .bind(
            job.recipients
                .iter()
                .map(|r| r.company_id as i64)
                .collect::<Vec<_>>(),
        )
        .bind(
            job.recipients
                .iter()
                .map(|r| r.name.clone())
                .collect::<Vec<_>>(),
        )
        .bind(
            job.recipients
                .iter()
                .map(|r| r.rank as i32)
                .collect::<Vec<_>>(),
        )
        .bind(images.iter().map(|i| i.id.clone()).collect::<Vec<_>>())
        .bind(
            images
                .iter()
                .map(|i| i.object_key.clone())
                .collect::<Vec<_>>(),
        )
        .bind(
            images
                .iter()
                .map(|i| i.file_name.clone())
                .collect::<Vec<_>>(),
        )
        .bind(
            images
                .iter()
                .map(|i| i.content_type.clone())
                .collect::<Vec<_>>(),
        )
        .bind(images.iter().map(|i| i.width as i32).collect::<Vec<_>>())
        .bind(images.iter().map(|i| i.height as i32).collect::<Vec<_>>())
        .bind(images.iter().map(|i| i.bytes as i64).collect::<Vec<_>>())
        .bind(intake_core::spam::fingerprint(&v.description))
        .execute(&mut *conn)
        .await
        .map_err(map_error)?;
    Ok(())
}
