//! SQLite's SQL of jobs and their idempotency records. Times that are
//! compared are unix milliseconds (`*_ms`); a job's `received_at` is also
//! kept as RFC 3339 text.

use crate::SqliteDialect;
use async_trait::async_trait;
use intake_core::jobs::NewJob;
use intake_core::Environment;
use intake_store_sql::rows::jobs::{image_rows, recipient_rows};
use intake_store_sql::{Jobs, Millis, StoredTime};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

/// Rows per multi-row INSERT, well under SQLite's 32,766 bound values.
const ROWS: usize = 500;

#[async_trait]
impl Jobs for SqliteDialect {
    const IDEMPOTENCY: &'static str =
        "SELECT scope, request_hash, status, body, expires_ms AS expires_at FROM idempotency \
         WHERE scope = ? AND expires_ms > ?";

    const PURGE_IDEMPOTENCY: &'static str = "DELETE FROM idempotency WHERE expires_ms <= ?";

    const RECENT_LEADS: &'static str =
        "SELECT company_id, COUNT(*) FROM job_recipients WHERE created_ms >= ";

    const JOBS_BY_EMAIL: &'static str =
        "SELECT id FROM jobs WHERE email = ?1 COLLATE NOCASE ORDER BY received_ms, id";

    const EXPIRED_JOBS: &'static str =
        "SELECT id FROM jobs WHERE received_ms < ?1 ORDER BY received_ms LIMIT ?2";

    const PURGE_QUARANTINE: &'static str = "DELETE FROM quarantine WHERE id IN ( \
         SELECT id FROM quarantine WHERE received_at < ?1 ORDER BY received_at LIMIT ?2)";

    const PURGE_DELIVERIES: &'static str = "DELETE FROM deliveries WHERE id IN ( \
         SELECT id FROM deliveries WHERE state <> 'pending' AND updated_ms < ?1 \
          ORDER BY updated_ms LIMIT ?2)";

    /// Jobs, recipients and images in a few multi-row INSERTs whatever
    /// their number (the writer's batches and single jobs alike), and the
    /// deliveries of the production jobs in two more.
    async fn insert_jobs(conn: &mut SqliteConnection, jobs: &[&NewJob]) -> Result<(), sqlx::Error> {
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
                    .push_bind(&job.fingerprint);
            });
            query.build().persistent(lone).execute(&mut *conn).await?;
        }
        let recipients = recipient_rows(jobs);
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
        let images = image_rows(jobs);
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
}
