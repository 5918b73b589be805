//! SQL of the spam quarantine.

use crate::jobs::insert_jobs;
use intake_core::jobs::{NewJob, Quarantined};
use intake_core::store::StoreError;
use intake_store_sql::rows::quarantine::{QuarantineRow, QUARANTINE_COLUMNS};
use sqlx::PgPool;

pub async fn insert(pool: &PgPool, entry: &Quarantined) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO quarantine ({QUARANTINE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
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
    let rows: Vec<QuarantineRow> = sqlx::query_as(&format!(
        "SELECT {QUARANTINE_COLUMNS} FROM quarantine {filter} ORDER BY received_at, id"
    ))
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(QuarantineRow::into_entry).collect()
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
