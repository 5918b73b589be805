//! SQL of the spam quarantine.

use crate::jobs::insert_jobs;
use intake_core::jobs::{CreationSource, NewJob, Quarantined};
use intake_core::store::StoreError;
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};

const COLUMNS: &str =
    "id, environment, key_id, application, creation_source, request_id, received_at, submission, score, reasons, released_job_id";

pub async fn insert(pool: &PgPool, entry: &Quarantined) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO quarantine ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
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
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn list(pool: &PgPool, include_released: bool) -> Result<Vec<Quarantined>, StoreError> {
    let filter = if include_released {
        ""
    } else {
        "WHERE released_job_id IS NULL"
    };
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM quarantine {filter} ORDER BY received_at, id"
    ))
    .fetch_all(pool)
    .await?;
    rows.iter().map(decode).collect()
}

pub async fn release(pool: &PgPool, id: &str, job: &NewJob) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    // The row lock makes two operators releasing at once take turns: the
    // second sees the first's job id and gets a conflict.
    let released: Option<Option<String>> =
        sqlx::query_scalar("SELECT released_job_id FROM quarantine WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    match released {
        None => return Err(StoreError::NotFound),
        Some(Some(job_id)) => {
            return Err(StoreError::Conflict(format!(
                "already released as job {job_id}"
            )))
        }
        Some(None) => {}
    }
    insert_jobs(&mut tx, &[job]).await?;
    sqlx::query("UPDATE quarantine SET released_job_id = $1 WHERE id = $2")
        .bind(&job.id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(tx.commit().await?)
}

fn decode(row: &PgRow) -> Result<Quarantined, StoreError> {
    let text = |name: &str| row.try_get::<String, _>(name).map_err(StoreError::from);
    let bad = |what: &str| StoreError::Other(format!("a quarantine entry has a bad {what}"));
    Ok(Quarantined {
        id: text("id")?,
        environment: text("environment")?
            .parse()
            .map_err(|_| bad("environment"))?,
        key_id: text("key_id")?,
        application: text("application")?,
        creation_source: CreationSource::parse(&text("creation_source")?)
            .ok_or_else(|| bad("creation source"))?,
        request_id: text("request_id")?,
        received_at: row.try_get("received_at")?,
        submission: text("submission")?,
        score: row.try_get("score")?,
        reasons: text("reasons")?,
        released_job_id: row.try_get("released_job_id")?,
    })
}
