//! SQL of the spam quarantine.

use crate::jobs::insert_jobs;
use intake_core::jobs::{NewJob, Quarantined};
use intake_core::store::StoreError;
use intake_store_sql::rows::quarantine::{QuarantineRow, QUARANTINE_COLUMNS};
use sqlx::SqlitePool;

pub async fn insert(pool: &SqlitePool, entry: &Quarantined) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO quarantine ({QUARANTINE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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

pub async fn list(
    pool: &SqlitePool,
    include_released: bool,
) -> Result<Vec<Quarantined>, StoreError> {
    let filter = if include_released {
        ""
    } else {
        "WHERE released_job_id IS NULL"
    };
    let rows: Vec<QuarantineRow> = sqlx::query_as(&format!(
        "SELECT {QUARANTINE_COLUMNS} FROM quarantine {filter} ORDER BY received_at, id"
    ))
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(QuarantineRow::into_entry).collect()
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
