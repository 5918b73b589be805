//! SQL of the delivery outbox. SQLite has one writer at a time, so a claim is
//! a compare-and-set UPDATE: the rows it moves past their lease are no longer
//! due for anyone else, in this process or another.

use intake_core::delivery::{Channel, Delivery, DeliveryFilter, DeliveryState, Outcome};
use intake_core::jobs::NewJob;
use intake_core::store::StoreError;
use intake_core::Environment;
use intake_store_sql::rows::deliveries::{DeliveryRow, DeliveryStateRow};
use intake_store_sql::{Millis, StoredTime};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection, SqlitePool};
use std::time::Duration;
use time::OffsetDateTime;

/// The columns of a [`DeliveryRow`], its times named as PostgreSQL names them.
const COLUMNS: &str = "id, job_id, company_id, channel, target, state, attempts, next_attempt_ms AS next_attempt_at, \
                       created_ms AS created_at, COALESCE(window_from_ms, created_ms) AS window_from, last_error, \
                       delivered_ms AS delivered_at";

fn millis(at: OffsetDateTime) -> Millis {
    Millis::stored(at)
}

/// Writes the deliveries of production jobs inside their transaction: one
/// per recipient and channel that the trade's record names now, due at the
/// job's time (its recipients' `created_ms`). Two statements, whatever the
/// number of jobs.
pub async fn insert_for(conn: &mut SqliteConnection, jobs: &[&NewJob]) -> Result<(), StoreError> {
    let production: Vec<&str> = jobs
        .iter()
        .filter(|job| job.environment == Environment::Production)
        .map(|job| job.id.as_str())
        .collect();
    for chunk in production.chunks(500) {
        for (channel, column) in [(Channel::Webhook, "webhook_url"), (Channel::Email, "email")] {
            let channel = channel.as_str();
            let mut query = QueryBuilder::<Sqlite>::new(format!(
                "INSERT INTO deliveries (id, job_id, company_id, channel, target, state, attempts, \
                 next_attempt_ms, created_ms, updated_ms) \
                 SELECT r.job_id || '.' || r.company_id || '.{channel}', r.job_id, r.company_id, '{channel}', t.{column}, \
                 CASE WHEN EXISTS (SELECT 1 FROM gone_targets g WHERE g.channel = '{channel}' AND g.target = t.{column}) \
                 THEN 'gone' ELSE 'pending' END, 0, r.created_ms, r.created_ms, r.created_ms \
                 FROM job_recipients r JOIN trades t ON t.company_id = r.company_id \
                 WHERE t.{column} IS NOT NULL AND r.job_id IN ("
            ));
            let mut ids = query.separated(", ");
            for id in chunk {
                ids.push_bind(*id);
            }
            query.push(")");
            query
                .build()
                .persistent(chunk.len() == 1)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

pub async fn claim(
    pool: &SqlitePool,
    now: OffsetDateTime,
    lease: Duration,
    limit: u32,
) -> Result<Vec<Delivery>, StoreError> {
    let now_ms = millis(now);
    let lease_end = millis(now + lease);
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    sqlx::query(
        "UPDATE deliveries SET state = 'gone', updated_ms = ?1, last_error = 'the target answered 410 Gone earlier' \
         WHERE state = 'pending' AND next_attempt_ms <= ?1 AND EXISTS \
         (SELECT 1 FROM gone_targets g WHERE g.channel = deliveries.channel AND g.target = deliveries.target)",
    )
    .bind(now_ms)
    .execute(&mut *tx)
    .await?;
    let rows: Vec<DeliveryRow<Millis>> = sqlx::query_as(&format!(
        "UPDATE deliveries SET attempts = attempts + 1, next_attempt_ms = ?1, updated_ms = ?2 \
         WHERE id IN (SELECT id FROM deliveries WHERE state = 'pending' AND next_attempt_ms <= ?2 \
         ORDER BY next_attempt_ms, id LIMIT ?3) RETURNING {COLUMNS}"
    ))
    .bind(lease_end)
    .bind(now_ms)
    .bind(i64::from(limit))
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    let mut claimed = rows
        .into_iter()
        .map(DeliveryRow::into_delivery)
        .collect::<Result<Vec<_>, _>>()?;
    claimed.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(claimed)
}

pub async fn finish(
    pool: &SqlitePool,
    id: &str,
    attempt: u32,
    outcome: &Outcome,
    now: OffsetDateTime,
) -> Result<bool, StoreError> {
    let now_ms = millis(now);
    let applied = match outcome {
        Outcome::Delivered => sqlx::query(
            "UPDATE deliveries SET state = 'delivered', delivered_ms = ?1, updated_ms = ?1, last_error = NULL \
             WHERE id = ?2 AND state = 'pending'",
        )
        .bind(now_ms)
        .bind(id)
        .execute(pool)
        .await?
        .rows_affected(),
        Outcome::Retry { at, error } => sqlx::query(
            "UPDATE deliveries SET next_attempt_ms = ?1, updated_ms = ?2, last_error = ?3 \
             WHERE id = ?4 AND state = 'pending' AND attempts = ?5",
        )
        .bind(millis(*at))
        .bind(now_ms)
        .bind(error)
        .bind(id)
        .bind(attempt)
        .execute(pool)
        .await?
        .rows_affected(),
        Outcome::Dead { error } => sqlx::query(
            "UPDATE deliveries SET state = 'dead', updated_ms = ?1, last_error = ?2 \
             WHERE id = ?3 AND state = 'pending' AND attempts = ?4",
        )
        .bind(now_ms)
        .bind(error)
        .bind(id)
        .bind(attempt)
        .execute(pool)
        .await?
        .rows_affected(),
        Outcome::Gone { error } => return gone(pool, id, attempt, error, now_ms).await,
    };
    Ok(applied > 0)
}

/// Marks the delivery gone, remembers its target, and marks every other
/// pending delivery to that target gone too: one transaction.
async fn gone(
    pool: &SqlitePool,
    id: &str,
    attempt: u32,
    error: &str,
    now_ms: Millis,
) -> Result<bool, StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let Some((channel, target)) = sqlx::query_as::<_, (String, String)>(
        "UPDATE deliveries SET state = 'gone', updated_ms = ?1, last_error = ?2 \
         WHERE id = ?3 AND state = 'pending' AND attempts = ?4 RETURNING channel, target",
    )
    .bind(now_ms)
    .bind(error)
    .bind(id)
    .bind(attempt)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(false);
    };
    sqlx::query("INSERT INTO gone_targets (channel, target, gone_ms) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
        .bind(&channel)
        .bind(&target)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE deliveries SET state = 'gone', updated_ms = ?1, last_error = ?2 \
         WHERE state = 'pending' AND channel = ?3 AND target = ?4",
    )
    .bind(now_ms)
    .bind(error)
    .bind(&channel)
    .bind(&target)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Appends the WHERE clause of `filter` (always at least `WHERE 1 = 1`).
fn push_filter(query: &mut QueryBuilder<'_, Sqlite>, filter: &DeliveryFilter) {
    query.push(" WHERE 1 = 1");
    if !filter.ids.is_empty() {
        query.push(" AND id IN (");
        let mut ids = query.separated(", ");
        for id in &filter.ids {
            ids.push_bind(id.clone());
        }
        query.push(")");
    }
    if let Some(job_id) = &filter.job_id {
        query.push(" AND job_id = ").push_bind(job_id.clone());
    }
    if let Some(state) = filter.state {
        query.push(" AND state = ").push_bind(state.as_str());
    }
}

pub async fn list(pool: &SqlitePool, filter: &DeliveryFilter) -> Result<Vec<Delivery>, StoreError> {
    let mut query = QueryBuilder::<Sqlite>::new(format!("SELECT {COLUMNS} FROM deliveries"));
    push_filter(&mut query, filter);
    query.push(" ORDER BY created_ms, id");
    if filter.limit > 0 {
        query.push(" LIMIT ").push_bind(i64::from(filter.limit));
    }
    let rows: Vec<DeliveryRow<Millis>> = query.build_query_as().fetch_all(pool).await?;
    rows.into_iter().map(DeliveryRow::into_delivery).collect()
}

pub async fn retry(
    pool: &SqlitePool,
    filter: &DeliveryFilter,
    now: OffsetDateTime,
) -> Result<u64, StoreError> {
    let now_ms = millis(now);
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let mut forget = QueryBuilder::<Sqlite>::new(
        "DELETE FROM gone_targets WHERE (channel, target) IN (SELECT channel, target FROM deliveries",
    );
    push_filter(&mut forget, filter);
    forget.push(" AND state = 'gone')");
    forget.build().execute(&mut *tx).await?;
    let mut revive =
        QueryBuilder::<Sqlite>::new("UPDATE deliveries SET state = 'pending', next_attempt_ms = ");
    revive
        .push_bind(now_ms)
        .push(", window_from_ms = ")
        .push_bind(now_ms)
        .push(", updated_ms = ")
        .push_bind(now_ms);
    push_filter(&mut revive, filter);
    revive.push(" AND state IN ('dead', 'gone')");
    if filter.limit > 0 {
        revive.push(" AND id IN (SELECT id FROM deliveries");
        push_filter(&mut revive, filter);
        revive
            .push(" AND state IN ('dead', 'gone') ORDER BY created_ms, id LIMIT ")
            .push_bind(i64::from(filter.limit))
            .push(")");
    }
    let done = revive.build().execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}

/// Delivery states of a job's recipients, by company id.
pub async fn states_of_job(
    pool: &SqlitePool,
    job_id: &str,
) -> Result<Vec<(u64, DeliveryState)>, StoreError> {
    let rows: Vec<DeliveryStateRow> =
        sqlx::query_as("SELECT company_id, state FROM deliveries WHERE job_id = ?")
            .bind(job_id)
            .fetch_all(pool)
            .await?;
    rows.into_iter().map(DeliveryStateRow::into_state).collect()
}
