//! SQL of jobs, recipients and idempotency records.

use intake_api::PreferredStartId;
use intake_core::email::Email;
use intake_core::jobs::{
    CreationSource, IdempotencyRecord, JobImage, NewJob, Phone, StoredJob, StoredRecipient,
    ValidAddress, ValidPreferredStart, ValidatedJob,
};
use intake_core::postcode::Postcode;
use intake_core::store::{StoreCounts, StoreError};
use intake_core::Environment;
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection, SqlitePool};
use std::collections::HashMap;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime};

pub(crate) fn millis(at: OffsetDateTime) -> i64 {
    (at.unix_timestamp_nanos() / 1_000_000) as i64
}

fn other(what: &str) -> StoreError {
    StoreError::Other(format!("a stored job has a bad {what}"))
}

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
        let mut shown = Vec::with_capacity(chunk.len());
        for job in chunk {
            shown.push(
                job.received_at
                    .format(&Rfc3339)
                    .map_err(|e| StoreError::Other(e.to_string()))?,
            );
        }
        query.push_values(chunk.iter().zip(&shown), |mut row, (job, received_at)| {
            let v = &job.job;
            let address = v.address.as_ref();
            row.push_bind(&job.id)
                .push_bind(job.environment.as_str())
                .push_bind(&job.key_id)
                .push_bind(&job.application)
                .push_bind(job.creation_source.as_str())
                .push_bind(&job.request_id)
                .push_bind(received_at)
                .push_bind(millis(job.received_at))
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
                .push_bind(
                    v.preferred_start
                        .and_then(|p| p.date)
                        .map(|d| d.to_string()),
                )
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
                .push_bind(millis(job.received_at));
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

pub(crate) fn decode_idempotency(row: &SqliteRow) -> Result<IdempotencyRecord, StoreError> {
    let expires: i64 = row.try_get("expires_ms")?;
    Ok(IdempotencyRecord {
        scope: row.try_get("scope")?,
        request_hash: row.try_get("request_hash")?,
        status: row.try_get("status")?,
        body: row.try_get("body")?,
        expires_at: OffsetDateTime::from_unix_timestamp_nanos(i128::from(expires) * 1_000_000)
            .map_err(|_| other("expiry"))?,
    })
}

pub async fn idempotency(
    pool: &SqlitePool,
    scope: &str,
    now: OffsetDateTime,
) -> Result<Option<IdempotencyRecord>, StoreError> {
    let row = sqlx::query("SELECT scope, request_hash, status, body, expires_ms FROM idempotency WHERE scope = ? AND expires_ms > ?")
        .bind(scope)
        .bind(millis(now))
        .fetch_optional(pool)
        .await?;
    row.map(|row| decode_idempotency(&row)).transpose()
}

pub async fn purge_idempotency(pool: &SqlitePool, now: OffsetDateTime) -> Result<u64, StoreError> {
    let done = sqlx::query("DELETE FROM idempotency WHERE expires_ms <= ?")
        .bind(millis(now))
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

pub async fn job(pool: &SqlitePool, id: &str) -> Result<Option<StoredJob>, StoreError> {
    let Some(row) = sqlx::query("SELECT * FROM jobs WHERE id = ?")
        .bind(id)
        .fetch_optional(pool)
        .await?
    else {
        return Ok(None);
    };
    let job = decode_job(&row)?;
    let recipients = sqlx::query("SELECT company_id, name, rank, delivery_state FROM job_recipients WHERE job_id = ? ORDER BY rank")
        .bind(id)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|row| {
            Ok(StoredRecipient {
                company_id: row.try_get::<i64, _>("company_id")? as u64,
                name: row.try_get("name")?,
                rank: row.try_get("rank")?,
                delivery_state: row.try_get("delivery_state")?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let states = crate::deliveries::states_of_job(pool, id).await?;
    let recipients = recipients
        .into_iter()
        .map(|mut recipient| {
            if job.environment == Environment::Production {
                recipient.delivery_state = intake_core::delivery::recipient_state(
                    states
                        .iter()
                        .filter(|(company, _)| *company == recipient.company_id)
                        .map(|(_, state)| *state),
                )
                .to_owned();
            }
            recipient
        })
        .collect::<Vec<_>>();
    let mut job = job;
    job.images = sqlx::query(
        "SELECT image_id, object_key, file_name, content_type, width, height, bytes FROM job_images WHERE job_id = ? ORDER BY position",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|row| {
        Ok(JobImage {
            id: row.try_get("image_id")?,
            object_key: row.try_get("object_key")?,
            file_name: row.try_get("file_name")?,
            content_type: row.try_get("content_type")?,
            width: row.try_get("width")?,
            height: row.try_get("height")?,
            bytes: row.try_get::<i64, _>("bytes")? as u64,
        })
    })
    .collect::<Result<Vec<_>, StoreError>>()?;
    job.recipients = recipients
        .iter()
        .map(|r| intake_core::jobs::NewRecipient {
            company_id: r.company_id,
            name: r.name.clone(),
            rank: r.rank,
        })
        .collect();
    Ok(Some(StoredJob { job, recipients }))
}

fn decode_job(row: &SqliteRow) -> Result<NewJob, StoreError> {
    let get = |name: &str| row.try_get::<String, _>(name).map_err(StoreError::from);
    let opt = |name: &str| {
        row.try_get::<Option<String>, _>(name)
            .map_err(StoreError::from)
    };
    let postcode = |text: String| Postcode::parse(&text).map_err(|_| other("postcode"));
    let address = match (
        opt("address_line1")?,
        opt("address_city")?,
        opt("address_postcode")?,
    ) {
        (Some(line1), Some(city), Some(code)) => Some(ValidAddress {
            line1,
            line2: opt("address_line2")?,
            line3: opt("address_line3")?,
            city,
            postcode: postcode(code)?,
        }),
        _ => None,
    };
    let preferred_start = match opt("preferred_start_id")? {
        Some(id) => Some(ValidPreferredStart {
            id: PreferredStartId::parse(&id).ok_or_else(|| other("preferred start"))?,
            date: opt("preferred_start_date")?
                .map(|text| {
                    Date::parse(&text, format_description!("[year]-[month]-[day]"))
                        .map_err(|_| other("date"))
                })
                .transpose()?,
        }),
        None => None,
    };
    Ok(NewJob {
        id: get("id")?,
        environment: get("environment")?
            .parse()
            .map_err(|_| other("environment"))?,
        key_id: get("key_id")?,
        application: get("application")?,
        creation_source: CreationSource::parse(&get("creation_source")?)
            .ok_or_else(|| other("creation source"))?,
        request_id: get("request_id")?,
        received_at: OffsetDateTime::parse(&get("received_at")?, &Rfc3339)
            .map_err(|_| other("time"))?,
        job: ValidatedJob {
            category_id: row.try_get("category_id")?,
            description: get("description")?,
            email: Email::parse(&get("email")?).map_err(|_| other("e-mail"))?,
            phone: Phone::parse(&get("phone")?).ok_or_else(|| other("phone"))?,
            first_name: get("first_name")?,
            last_name: get("last_name")?,
            postcode: postcode(get("postcode")?)?,
            address,
            preferred_start,
        },
        recipients: Vec::new(),
        images: Vec::new(),
        idempotency: Vec::new(),
    })
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
    query.push_bind(millis(since)).push(" AND company_id IN (");
    let mut ids = query.separated(", ");
    for id in company_ids {
        ids.push_bind(*id as i64);
    }
    query.push(") GROUP BY company_id");
    let rows = query.build().fetch_all(pool).await?;
    rows.iter()
        .map(|row| {
            Ok((
                row.try_get::<i64, _>(0)? as u64,
                row.try_get::<i64, _>(1)? as u32,
            ))
        })
        .collect()
}

pub async fn counts(pool: &SqlitePool) -> Result<StoreCounts, StoreError> {
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM job_recipients), (SELECT COUNT(*) FROM idempotency), \
         (SELECT COUNT(*) FROM deliveries)",
    )
    .fetch_one(pool)
    .await?;
    let count = |index: usize| {
        row.try_get::<i64, _>(index)
            .map(|n| n as u64)
            .map_err(StoreError::from)
    };
    Ok(StoreCounts {
        jobs: count(0)?,
        recipients: count(1)?,
        idempotency: count(2)?,
        deliveries: count(3)?,
    })
}
