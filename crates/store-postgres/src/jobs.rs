//! PostgreSQL's SQL of jobs and their idempotency records: any number of
//! jobs with their recipients, images and, for production jobs, outbox rows
//! are written in one statement.

use crate::PostgresDialect;
use async_trait::async_trait;
use intake_core::jobs::NewJob;
use intake_core::Environment;
use intake_store_sql::rows::jobs::{image_rows, recipient_rows};
use intake_store_sql::Jobs;
use sqlx::PgConnection;

/// The job rows, their recipients and images, and one delivery per recipient
/// and channel that the trade's directory record names (production jobs
/// only): due at once, or `gone` at once when its target is marked gone.
/// Each column comes as one array over all the rows; data-modifying CTEs
/// make it one round trip, and foreign keys are checked at its end.
const INSERT_JOBS: &str = "\
WITH jobs_in AS (
    INSERT INTO jobs (id, environment, key_id, application, creation_source, request_id, received_at,
        category_id, description, email, phone, first_name, last_name, postcode, address_line1,
        address_line2, address_line3, address_city, address_postcode, preferred_start_id,
        preferred_start_date, fingerprint)
    SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
        $7::timestamptz[], $8::int[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[],
        $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[],
        $21::date[], $22::text[])
), recipients AS (
    INSERT INTO job_recipients (job_id, company_id, name, rank, created_at)
    SELECT * FROM UNNEST($23::text[], $24::bigint[], $25::text[], $26::int[], $27::timestamptz[])
), images AS (
    INSERT INTO job_images (job_id, position, image_id, object_key, file_name, content_type, width, height, bytes)
    SELECT * FROM UNNEST($29::text[], $30::int[], $31::text[], $32::text[], $33::text[], $34::text[],
        $35::int[], $36::int[], $37::bigint[])
)
INSERT INTO deliveries (id, job_id, company_id, channel, target, state, attempts, next_attempt_at, created_at, updated_at)
SELECT r.job_id || '.' || t.company_id || '.' || c.channel, r.job_id, t.company_id, c.channel, c.target,
    CASE WHEN g.target IS NULL THEN 'pending' ELSE 'gone' END, 0, r.created_at, r.created_at, r.created_at
FROM UNNEST($23::text[], $24::bigint[], $27::timestamptz[], $28::bool[])
    AS r (job_id, company_id, created_at, production)
JOIN trades t ON t.company_id = r.company_id
CROSS JOIN LATERAL (VALUES ('webhook', t.webhook_url), ('email', t.email)) AS c (channel, target)
LEFT JOIN gone_targets g ON g.channel = c.channel AND g.target = c.target
WHERE r.production AND c.target IS NOT NULL";

#[async_trait]
impl Jobs for PostgresDialect {
    const IDEMPOTENCY: &'static str = "SELECT scope, request_hash, status, body, expires_at \
         FROM idempotency WHERE scope = $1 AND expires_at > $2";

    const PURGE_IDEMPOTENCY: &'static str = "DELETE FROM idempotency WHERE expires_at <= $1";

    const RECENT_LEADS: &'static str =
        "SELECT company_id, COUNT(*) FROM job_recipients WHERE created_at >= ";

    const JOBS_BY_EMAIL: &'static str = "SELECT id FROM jobs \
         WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\") ORDER BY received_at, id";

    const EXPIRED_JOBS: &'static str =
        "SELECT id FROM jobs WHERE received_at < $1 ORDER BY received_at LIMIT $2";

    const PURGE_QUARANTINE: &'static str = "DELETE FROM quarantine WHERE id IN ( \
         SELECT id FROM quarantine WHERE received_at < $1 ORDER BY received_at LIMIT $2)";

    const PURGE_DELIVERIES: &'static str = "DELETE FROM deliveries WHERE id IN ( \
         SELECT id FROM deliveries WHERE state <> 'pending' AND updated_at < $1 \
          ORDER BY updated_at LIMIT $2)";

    /// Each column comes as one array over all the rows: one statement
    /// (`INSERT_JOBS`) whatever the number of jobs.
    async fn insert_jobs(conn: &mut PgConnection, jobs: &[&NewJob]) -> Result<(), sqlx::Error> {
        fn column<'a, T>(jobs: &[&'a NewJob], f: impl Fn(&'a NewJob) -> T) -> Vec<T> {
            jobs.iter().map(|job| f(job)).collect()
        }
        let recipients = recipient_rows(jobs);
        let images = image_rows(jobs);
        let address = |job: &NewJob| job.job.address.clone();
        sqlx::query(INSERT_JOBS)
            .bind(column(jobs, |j| j.id.clone()))
            .bind(column(jobs, |j| j.environment.as_str()))
            .bind(column(jobs, |j| j.key_id.clone()))
            .bind(column(jobs, |j| j.application.clone()))
            .bind(column(jobs, |j| j.creation_source.as_str()))
            .bind(column(jobs, |j| j.request_id.clone()))
            .bind(column(jobs, |j| j.received_at))
            .bind(column(jobs, |j| j.job.category_id as i32))
            .bind(column(jobs, |j| j.job.description.clone()))
            .bind(column(jobs, |j| j.job.email.as_str().to_owned()))
            .bind(column(jobs, |j| j.job.phone.as_str().to_owned()))
            .bind(column(jobs, |j| j.job.first_name.clone()))
            .bind(column(jobs, |j| j.job.last_name.clone()))
            .bind(column(jobs, |j| j.job.postcode.as_str().to_owned()))
            .bind(column(jobs, |j| address(j).map(|a| a.line1)))
            .bind(column(jobs, |j| address(j).and_then(|a| a.line2)))
            .bind(column(jobs, |j| address(j).and_then(|a| a.line3)))
            .bind(column(jobs, |j| address(j).map(|a| a.city)))
            .bind(column(jobs, |j| {
                address(j).map(|a| a.postcode.as_str().to_owned())
            }))
            .bind(column(jobs, |j| {
                j.job.preferred_start.map(|p| p.id.as_str())
            }))
            .bind(column(jobs, |j| j.job.preferred_start.and_then(|p| p.date)))
            .bind(column(jobs, |j| j.fingerprint.as_str()))
            .bind(
                recipients
                    .iter()
                    .map(|(j, _)| j.id.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                recipients
                    .iter()
                    .map(|(_, r)| r.company_id as i64)
                    .collect::<Vec<_>>(),
            )
            .bind(
                recipients
                    .iter()
                    .map(|(_, r)| r.name.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                recipients
                    .iter()
                    .map(|(_, r)| r.rank as i32)
                    .collect::<Vec<_>>(),
            )
            .bind(
                recipients
                    .iter()
                    .map(|(j, _)| j.received_at)
                    .collect::<Vec<_>>(),
            )
            .bind(
                recipients
                    .iter()
                    .map(|(j, _)| j.environment == Environment::Production)
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(j, _, _)| j.id.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(images.iter().map(|(_, n, _)| *n as i32).collect::<Vec<_>>())
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.id.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.object_key.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.file_name.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.content_type.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.width as i32)
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.height as i32)
                    .collect::<Vec<_>>(),
            )
            .bind(
                images
                    .iter()
                    .map(|(_, _, i)| i.bytes as i64)
                    .collect::<Vec<_>>(),
            )
            .execute(&mut *conn)
            .await?;
        Ok(())
    }
}
