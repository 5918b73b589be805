//! SQL of the spam quarantine.

use crate::jobs::insert_jobs;
use intake_core::jobs::{CreationSource, NewJob, Quarantined};
use intake_core::store::StoreError;
use sqlx::{Row, SqlitePool};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

const COLUMNS: &str =
    "id, environment, key_id, application, creation_source, request_id, received_at, submission, score, reasons, released_job_id";

pub async fn insert(pool: &SqlitePool, entry: &Quarantined) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO quarantine ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    ))
    .bind(&entry.id)
    .bind(entry.environment.as_str())
    .bind(&entry.key_id)
    .bind(&entry.application)
    .bind(entry.creation_source.as_str())
    .bind(&entry.request_id)
    .bind(
        entry
            .received_at
            .format(&Rfc3339)
            .map_err(|e| StoreError::Other(e.to_string()))?,
    )
    .bind(&entry.submission)
    .bind(entry.score)
    .bind(&entry.reasons)
    .bind(&entry.released_job_id)
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn list(
    pool: &SqlitePool,
    include_released: bool,
) -> Result<Vec<Quarantined>, StoreError> {
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

pub async fn release(pool: &SqlitePool, id: &str, job: &NewJob) -> Result<(), StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let released: Option<Option<String>> =
        sqlx::query_scalar("SELECT released_job_id FROM quarantine WHERE id = ?")
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
    sqlx::query("UPDATE quarantine SET released_job_id = ? WHERE id = ?")
        .bind(&job.id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(tx.commit().await?)
}

fn decode(row: &sqlx::sqlite::SqliteRow) -> Result<Quarantined, StoreError> {
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
        received_at: OffsetDateTime::parse(&text("received_at")?, &Rfc3339)
            .map_err(|_| bad("time"))?,
        submission: text("submission")?,
        score: row.try_get("score")?,
        reasons: text("reasons")?,
        released_job_id: row.try_get("released_job_id")?,
    })
}
