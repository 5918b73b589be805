//! The fast path of group commit on SQLite: a whole batch of jobs in a few
//! statements, whatever its size, instead of seven or more a job. The batch
//! transaction began IMMEDIATE, so it holds the database's one write lock
//! from its first statement: what it reads of the idempotency records cannot
//! change under it, and a check followed by an insert is safe.
//!
//! A job meeting an unexpired record of one of its scopes writes nothing. The
//! batches this path declines (a scope shared by two jobs of the batch, a
//! failed statement) are written again through it one job at a time, each
//! in a savepoint ([`intake_store_sql::writer`]).

use crate::SqliteDialect;
use async_trait::async_trait;
use intake_core::jobs::{CreateOutcome, IdempotencyRecord, NewJob};
use intake_core::store::StoreError;
use intake_store_sql::group_commit::scope_owners;
use intake_store_sql::rows::jobs::{records_by_scope, IdempotencyRow};
use intake_store_sql::{Batch, Declined, Jobs, Millis, StoredTime};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};
use std::collections::HashMap;
use time::OffsetDateTime;

/// Scopes per statement: each is one bound value, far under SQLite's limit.
const SCOPES: usize = 500;

#[async_trait]
impl Batch for SqliteDialect {
    async fn write_batch(
        conn: &mut SqliteConnection,
        jobs: &[&NewJob],
    ) -> Result<Vec<CreateOutcome>, Declined> {
        write(conn, jobs).await
    }
}

/// Writes `jobs` inside the caller's IMMEDIATE transaction; one outcome per job.
async fn write(
    conn: &mut SqliteConnection,
    jobs: &[&NewJob],
) -> Result<Vec<CreateOutcome>, Declined> {
    let owner = scope_owners(jobs).ok_or(Declined::Slow)?;
    let scopes: Vec<&str> = owner.keys().copied().collect();
    // Expired records count as free: the new ones replace them (below).
    let now = OffsetDateTime::now_utc();
    let mut existing = HashMap::new();
    for chunk in scopes.chunks(SCOPES) {
        existing.extend(select(conn, chunk).await?);
    }
    existing.retain(|_, record| record.expires_at > now);
    let mut outcomes = Vec::with_capacity(jobs.len());
    let mut winners = Vec::with_capacity(jobs.len());
    for job in jobs {
        match job
            .idempotency
            .iter()
            .find_map(|record| existing.get(&record.scope))
        {
            Some(record) => outcomes.push(CreateOutcome::Existing(record.clone())),
            None => {
                winners.push(*job);
                outcomes.push(CreateOutcome::Created);
            }
        }
    }
    if !winners.is_empty() {
        let records: Vec<&IdempotencyRecord> =
            winners.iter().flat_map(|job| &job.idempotency).collect();
        insert_records(conn, &records, winners.len() == 1).await?;
        SqliteDialect::insert_jobs(conn, &winners).await?;
    }
    Ok(outcomes)
}

/// The stored records of `scopes`, expired or not, by scope.
async fn select(
    conn: &mut SqliteConnection,
    scopes: &[&str],
) -> Result<HashMap<String, IdempotencyRecord>, StoreError> {
    let mut select = QueryBuilder::<Sqlite>::new(
        "SELECT scope, request_hash, status, body, expires_ms AS expires_at FROM idempotency WHERE scope IN (",
    );
    let mut list = select.separated(", ");
    for scope in scopes {
        list.push_bind(*scope);
    }
    select.push(")");
    let rows: Vec<IdempotencyRow<Millis>> = select
        .build_query_as()
        .persistent(scopes.len() <= 2)
        .fetch_all(&mut *conn)
        .await?;
    records_by_scope(rows)
}

/// Stores the records of the jobs being written, in one statement per
/// hundred records (five bound values each). A scope can only be taken
/// here when it is free or its record expired: an expired record is
/// replaced.
async fn insert_records(
    conn: &mut SqliteConnection,
    records: &[&IdempotencyRecord],
    lone: bool,
) -> Result<(), StoreError> {
    for chunk in records.chunks(100) {
        let mut insert = QueryBuilder::<Sqlite>::new(
            "INSERT INTO idempotency (scope, request_hash, status, body, expires_ms) ",
        );
        insert.push_values(chunk, |mut row, record| {
            row.push_bind(&record.scope)
                .push_bind(&record.request_hash)
                .push_bind(record.status)
                .push_bind(&record.body)
                .push_bind(Millis::stored(record.expires_at));
        });
        insert.push(
            " ON CONFLICT (scope) DO UPDATE SET request_hash = excluded.request_hash, \
             status = excluded.status, body = excluded.body, expires_ms = excluded.expires_ms",
        );
        insert.build().persistent(lone).execute(&mut *conn).await?;
    }
    Ok(())
}
