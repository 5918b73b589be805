//! SQL of the delivery outbox. Dispatchers in any number of processes claim
//! rows with `FOR UPDATE SKIP LOCKED`, so no row goes to two claimers at once.

use intake_core::delivery::{Delivery, DeliveryFilter, Outcome};
use intake_core::store::StoreError;
use intake_store_sql::rows::deliveries::DeliveryRow;
use sqlx::{PgPool, Postgres, QueryBuilder};
use std::time::Duration;
use time::OffsetDateTime;

const COLUMNS: &str =
    "id, job_id, company_id, channel, target, state, attempts, next_attempt_at, created_at, \
                       COALESCE(window_from, created_at) AS window_from, last_error, delivered_at";

/// One statement: pending rows to a gone target are marked gone, and up to
/// `$3` other due rows are leased (attempts + 1, next attempt at the lease's
/// end). Rows another claimer holds are skipped, not waited for.
const CLAIM: &str = "\
WITH gone AS (
    UPDATE deliveries SET state = 'gone', updated_at = $1,
        last_error = 'the target answered 410 Gone earlier'
    WHERE id IN (
        SELECT d.id FROM deliveries d
        JOIN gone_targets g ON g.channel = d.channel AND g.target = d.target
        WHERE d.state = 'pending' AND d.next_attempt_at <= $1
        FOR UPDATE OF d SKIP LOCKED)
)
UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = $2, updated_at = $1
WHERE id IN (
    SELECT d.id FROM deliveries d
    WHERE d.state = 'pending' AND d.next_attempt_at <= $1
        AND NOT EXISTS (SELECT 1 FROM gone_targets g WHERE g.channel = d.channel AND g.target = d.target)
    ORDER BY d.next_attempt_at, d.id
    LIMIT $3
    FOR UPDATE SKIP LOCKED)
RETURNING ";

pub async fn claim(
    pool: &PgPool,
    now: OffsetDateTime,
    lease: Duration,
    limit: u32,
) -> Result<Vec<Delivery>, StoreError> {
    let rows: Vec<DeliveryRow<OffsetDateTime>> = sqlx::query_as(&format!("{CLAIM}{COLUMNS}"))
        .bind(now)
        .bind(now + lease)
        .bind(i64::from(limit))
        .fetch_all(pool)
        .await?;
    let mut claimed = rows
        .into_iter()
        .map(DeliveryRow::into_delivery)
        .collect::<Result<Vec<_>, _>>()?;
    claimed.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(claimed)
}

pub async fn finish(
    pool: &PgPool,
    id: &str,
    attempt: u32,
    outcome: &Outcome,
    now: OffsetDateTime,
) -> Result<bool, StoreError> {
    let attempt = attempt as i32;
    let done = match outcome {
        Outcome::Delivered => sqlx::query(
            "UPDATE deliveries SET state = 'delivered', delivered_at = $2, updated_at = $2, last_error = NULL \
             WHERE id = $1 AND state = 'pending'",
        )
        .bind(id)
        .bind(now)
        .execute(pool)
        .await,
        Outcome::Retry { at, error } => sqlx::query(
            "UPDATE deliveries SET next_attempt_at = $3, last_error = $4, updated_at = $5 \
             WHERE id = $1 AND state = 'pending' AND attempts = $2",
        )
        .bind(id)
        .bind(attempt)
        .bind(at)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await,
        Outcome::Dead { error } => sqlx::query(
            "UPDATE deliveries SET state = 'dead', last_error = $3, updated_at = $4 \
             WHERE id = $1 AND state = 'pending' AND attempts = $2",
        )
        .bind(id)
        .bind(attempt)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await,
        Outcome::Gone { error } => return gone(pool, id, attempt, error, now).await,
    };
    Ok(done?.rows_affected() > 0)
}

/// Marks the delivery gone, its target gone, and every pending delivery to
/// that target gone, in one statement.
async fn gone(
    pool: &PgPool,
    id: &str,
    attempt: i32,
    error: &str,
    now: OffsetDateTime,
) -> Result<bool, StoreError> {
    let applied: Option<i32> = sqlx::query_scalar(
        "WITH this AS (
            UPDATE deliveries SET state = 'gone', last_error = $3, updated_at = $4
            WHERE id = $1 AND state = 'pending' AND attempts = $2
            RETURNING channel, target
        ), marked AS (
            INSERT INTO gone_targets (channel, target, marked_at)
            SELECT channel, target, $4 FROM this
            ON CONFLICT (channel, target) DO NOTHING
        ), others AS (
            UPDATE deliveries d SET state = 'gone', last_error = $3, updated_at = $4
            FROM this WHERE d.channel = this.channel AND d.target = this.target
                AND d.state = 'pending' AND d.id <> $1
        )
        SELECT 1 FROM this",
    )
    .bind(id)
    .bind(attempt)
    .bind(error)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok(applied.is_some())
}

/// Appends ` WHERE …` for `filter`, with `extra` (a condition) when given.
fn push_filter(query: &mut QueryBuilder<'_, Postgres>, filter: &DeliveryFilter, extra: &str) {
    query.push(" WHERE TRUE");
    if !filter.ids.is_empty() {
        query
            .push(" AND id = ANY(")
            .push_bind(filter.ids.clone())
            .push(")");
    }
    if let Some(job_id) = &filter.job_id {
        query.push(" AND job_id = ").push_bind(job_id.clone());
    }
    if let Some(state) = filter.state {
        query.push(" AND state = ").push_bind(state.as_str());
    }
    if !extra.is_empty() {
        query.push(" AND ").push(extra);
    }
    query.push(" ORDER BY created_at, id");
    if filter.limit > 0 {
        query.push(" LIMIT ").push_bind(i64::from(filter.limit));
    }
}

pub async fn list(pool: &PgPool, filter: &DeliveryFilter) -> Result<Vec<Delivery>, StoreError> {
    let mut query = QueryBuilder::new(format!("SELECT {COLUMNS} FROM deliveries"));
    push_filter(&mut query, filter, "");
    let rows: Vec<DeliveryRow<OffsetDateTime>> = query.build_query_as().fetch_all(pool).await?;
    rows.into_iter().map(DeliveryRow::into_delivery).collect()
}

pub async fn retry(
    pool: &PgPool,
    filter: &DeliveryFilter,
    now: OffsetDateTime,
) -> Result<u64, StoreError> {
    let mut query = QueryBuilder::new("WITH picked AS (SELECT id FROM deliveries");
    push_filter(&mut query, filter, "state IN ('dead', 'gone')");
    query
        .push(" FOR UPDATE), retried AS (UPDATE deliveries d SET state = 'pending', next_attempt_at = ")
        .push_bind(now)
        .push(", window_from = ")
        .push_bind(now)
        .push(", updated_at = ")
        .push_bind(now)
        .push(
            " FROM picked WHERE d.id = picked.id RETURNING d.channel, d.target), \
             freed AS (DELETE FROM gone_targets g USING retried \
             WHERE g.channel = retried.channel AND g.target = retried.target) \
             SELECT COUNT(*) FROM retried",
        );
    let count: i64 = query.build_query_scalar().fetch_one(pool).await?;
    Ok(count as u64)
}
