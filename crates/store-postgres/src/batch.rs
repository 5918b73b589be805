//! The fast path of group commit: a whole batch of jobs in a few statements,
//! whatever its size. All idempotency scopes of the batch are taken in one
//! statement (in scope order, so that two processes' batches lock them in
//! the same order); the jobs whose every scope was free are written in one
//! more. A job meeting an unexpired record writes nothing. The batches this
//! path declines (a scope shared by two jobs of the batch, a record purged
//! between its statements, a lock conflict, a failed statement) are written
//! again through it one job at a time, each in a savepoint
//! ([`intake_store_sql::writer`]).

use crate::PostgresDialect;
use async_trait::async_trait;
use intake_core::jobs::{CreateOutcome, IdempotencyRecord, NewJob};
use intake_store_sql::group_commit::scope_owners;
use intake_store_sql::rows::jobs::{records_by_scope, IdempotencyRow};
use intake_store_sql::{Batch, Declined, Jobs};
use sqlx::PgConnection;
use std::collections::{HashMap, HashSet};
use time::OffsetDateTime;

#[async_trait]
impl Batch for PostgresDialect {
    async fn write_batch(
        conn: &mut PgConnection,
        jobs: &[&NewJob],
    ) -> Result<Vec<CreateOutcome>, Declined> {
        write(conn, jobs).await
    }
}

/// Writes `jobs` inside the caller's transaction; one outcome per job.
async fn write(conn: &mut PgConnection, jobs: &[&NewJob]) -> Result<Vec<CreateOutcome>, Declined> {
    if scope_owners(jobs).is_none() {
        return Err(Declined::Slow);
    }
    let mut records: Vec<&IdempotencyRecord> =
        jobs.iter().flat_map(|job| &job.idempotency).collect();
    records.sort_by(|a, b| a.scope.cmp(&b.scope));
    records.dedup_by(|a, b| a.scope == b.scope);
    let taken = take(conn, &records).await?;
    let held: Vec<&str> = records
        .iter()
        .map(|r| r.scope.as_str())
        .filter(|scope| !taken.contains(*scope))
        .collect();
    let mut existing = HashMap::new();
    if !held.is_empty() {
        existing = find(conn, &held).await?;
        // A job that met a held scope writes nothing: its free scopes go back.
        let undo: Vec<&str> = jobs
            .iter()
            .filter(|job| job.idempotency.iter().any(|r| !taken.contains(&r.scope)))
            .flat_map(|job| &job.idempotency)
            .map(|r| r.scope.as_str())
            .filter(|scope| taken.contains(*scope))
            .collect();
        if !undo.is_empty() {
            sqlx::query("DELETE FROM idempotency WHERE scope = ANY($1)")
                .bind(undo)
                .execute(&mut *conn)
                .await?;
        }
    }
    let mut outcomes = Vec::with_capacity(jobs.len());
    let mut winners = Vec::with_capacity(jobs.len());
    for job in jobs {
        let mut scopes: Vec<&str> = job.idempotency.iter().map(|r| r.scope.as_str()).collect();
        scopes.sort_unstable();
        match scopes.iter().find(|scope| !taken.contains(**scope)) {
            None => {
                winners.push(*job);
                outcomes.push(CreateOutcome::Created);
            }
            Some(scope) => match existing.get(*scope) {
                Some(record) => outcomes.push(CreateOutcome::Existing(record.clone())),
                // Gone between the two statements (purged): let the slow path decide.
                None => return Err(Declined::Slow),
            },
        }
    }
    if !winners.is_empty() {
        PostgresDialect::insert_jobs(conn, &winners).await?;
    }
    Ok(outcomes)
}

/// Takes every free or expired scope; returns the ones taken.
async fn take(
    conn: &mut PgConnection,
    records: &[&IdempotencyRecord],
) -> Result<HashSet<String>, sqlx::Error> {
    if records.is_empty() {
        return Ok(HashSet::new());
    }
    let taken: Vec<String> = sqlx::query_scalar(
        "INSERT INTO idempotency (scope, request_hash, status, body, expires_at) \
         SELECT * FROM UNNEST($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[]) \
         ON CONFLICT (scope) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, \
         body = EXCLUDED.body, expires_at = EXCLUDED.expires_at WHERE idempotency.expires_at <= $6 \
         RETURNING scope",
    )
    .bind(records.iter().map(|r| r.scope.clone()).collect::<Vec<_>>())
    .bind(records.iter().map(|r| r.request_hash.clone()).collect::<Vec<_>>())
    .bind(records.iter().map(|r| i32::from(r.status)).collect::<Vec<_>>())
    .bind(records.iter().map(|r| r.body.clone()).collect::<Vec<_>>())
    .bind(records.iter().map(|r| r.expires_at).collect::<Vec<_>>())
    .bind(OffsetDateTime::now_utc())
    .fetch_all(&mut *conn)
    .await?;
    Ok(taken.into_iter().collect())
}

async fn find(
    conn: &mut PgConnection,
    scopes: &[&str],
) -> Result<HashMap<String, IdempotencyRecord>, Declined> {
    let rows: Vec<IdempotencyRow<OffsetDateTime>> = sqlx::query_as(
        "SELECT scope, request_hash, status, body, expires_at FROM idempotency WHERE scope = ANY($1)",
    )
    .bind(scopes)
    .fetch_all(&mut *conn)
    .await?;
    Ok(records_by_scope(rows)?)
}
