//! PostgreSQL's SQL of the delivery outbox. Dispatchers in any number of
//! processes claim rows with `FOR UPDATE SKIP LOCKED`, so no row goes to two
//! claimers at once.

use crate::PostgresDialect;
use async_trait::async_trait;
use intake_core::delivery::DeliveryFilter;
use intake_store_sql::rows::deliveries::DeliveryRow;
use intake_store_sql::{push_filter, Deliveries, Statement};
use sqlx::{PgPool, Postgres};
use std::time::Duration;
use time::OffsetDateTime;

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

/// Marks the delivery gone, its target gone, and every pending delivery to
/// that target gone, in one statement.
const GONE: &str = "WITH this AS (
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
        SELECT 1 FROM this";

#[async_trait]
impl Deliveries for PostgresDialect {
    const DELIVERY_COLUMNS: &'static str =
        "id, job_id, company_id, channel, target, state, attempts, next_attempt_at, created_at, \
         COALESCE(window_from, created_at) AS window_from, last_error, delivered_at";

    const DELIVERY_ORDER: &'static str = " ORDER BY created_at, id";

    const DELIVERED: &'static str =
        "UPDATE deliveries SET state = 'delivered', delivered_at = $2, updated_at = $2, last_error = NULL \
         WHERE id = $1 AND state = 'pending'";

    const RETRY: &'static str =
        "UPDATE deliveries SET next_attempt_at = $3, last_error = $4, updated_at = $5 \
         WHERE id = $1 AND state = 'pending' AND attempts = $2";

    const DEAD: &'static str =
        "UPDATE deliveries SET state = 'dead', last_error = $3, updated_at = $4 \
         WHERE id = $1 AND state = 'pending' AND attempts = $2";

    async fn backlog(pool: &PgPool) -> Result<(i64, Option<OffsetDateTime>), sqlx::Error> {
        sqlx::query_as("SELECT COUNT(*), MIN(created_at) FROM deliveries WHERE state = 'pending'")
            .fetch_one(pool)
            .await
    }

    async fn claim(
        pool: &PgPool,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<DeliveryRow<OffsetDateTime>>, sqlx::Error> {
        sqlx::query_as(&format!("{CLAIM}{}", Self::DELIVERY_COLUMNS))
            .bind(now)
            .bind(now + lease)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
    }

    async fn gone(
        pool: &PgPool,
        id: &str,
        attempt: i32,
        error: &str,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let applied: Option<i32> = sqlx::query_scalar(GONE)
            .bind(id)
            .bind(attempt)
            .bind(error)
            .bind(now)
            .fetch_optional(pool)
            .await?;
        Ok(applied.is_some())
    }

    /// One statement: the rows picked (and locked), made pending, and their
    /// targets no longer gone.
    async fn retry(
        pool: &PgPool,
        filter: &DeliveryFilter,
        now: OffsetDateTime,
    ) -> Result<u64, sqlx::Error> {
        let mut query = Statement::<Postgres>::new("WITH picked AS (SELECT id FROM deliveries");
        push_filter::<Self>(&mut query, filter);
        query.push(" AND state IN ('dead', 'gone')");
        query.push(Self::DELIVERY_ORDER);
        if filter.limit > 0 {
            query.push(" LIMIT ").push_bind(i64::from(filter.limit));
        }
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
        let (sql, arguments) = query.into_parts()?;
        let count: i64 = sqlx::query_scalar_with(&sql, arguments)
            .fetch_one(pool)
            .await?;
        Ok(count as u64)
    }
}
