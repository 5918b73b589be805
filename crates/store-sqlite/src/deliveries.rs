//! SQLite's SQL of the delivery outbox. SQLite has one writer at a time, so
//! a claim is a compare-and-set UPDATE: the rows it moves past their lease
//! are no longer due for anyone else, in this process or another.

use crate::SqliteDialect;
use async_trait::async_trait;
use intake_core::delivery::{Channel, DeliveryFilter};
use intake_core::jobs::NewJob;
use intake_core::Environment;
use intake_store_sql::rows::deliveries::DeliveryRow;
use intake_store_sql::{push_filter, Deliveries, Dialect, Millis, Statement, StoredTime};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection, SqlitePool};
use std::time::Duration;
use time::OffsetDateTime;

#[async_trait]
impl Deliveries for SqliteDialect {
    const DELIVERY_COLUMNS: &'static str =
        "id, job_id, company_id, channel, target, state, attempts, next_attempt_ms AS next_attempt_at, \
         created_ms AS created_at, COALESCE(window_from_ms, created_ms) AS window_from, last_error, \
         delivered_ms AS delivered_at";

    const DELIVERY_ORDER: &'static str = " ORDER BY created_ms, id";

    const DELIVERED: &'static str =
        "UPDATE deliveries SET state = 'delivered', delivered_ms = ?2, updated_ms = ?2, last_error = NULL \
         WHERE id = ?1 AND state = 'pending'";

    const RETRY: &'static str =
        "UPDATE deliveries SET next_attempt_ms = ?3, last_error = ?4, updated_ms = ?5 \
         WHERE id = ?1 AND state = 'pending' AND attempts = ?2";

    const DEAD: &'static str =
        "UPDATE deliveries SET state = 'dead', last_error = ?3, updated_ms = ?4 \
         WHERE id = ?1 AND state = 'pending' AND attempts = ?2";

    async fn backlog(pool: &SqlitePool) -> Result<(i64, Option<OffsetDateTime>), sqlx::Error> {
        let (pending, oldest): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), MIN(created_ms) FROM deliveries WHERE state = 'pending'",
        )
        .fetch_one(pool)
        .await?;
        let oldest = oldest
            .map(|oldest| Millis(oldest).time())
            .transpose()
            .map_err(|error| sqlx::Error::Decode(error.into()))?;
        Ok((pending, oldest))
    }

    async fn claim(
        pool: &SqlitePool,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<DeliveryRow<Millis>>, sqlx::Error> {
        let now_ms = Millis::stored(now);
        let mut tx = pool.begin_with(Self::BEGIN_WRITE).await?;
        sqlx::query(
            "UPDATE deliveries SET state = 'gone', updated_ms = ?1, last_error = 'the target answered 410 Gone earlier' \
             WHERE state = 'pending' AND next_attempt_ms <= ?1 AND EXISTS \
             (SELECT 1 FROM gone_targets g WHERE g.channel = deliveries.channel AND g.target = deliveries.target)",
        )
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        let rows = sqlx::query_as(&format!(
            "UPDATE deliveries SET attempts = attempts + 1, next_attempt_ms = ?1, updated_ms = ?2 \
             WHERE id IN (SELECT id FROM deliveries WHERE state = 'pending' AND next_attempt_ms <= ?2 \
             ORDER BY next_attempt_ms, id LIMIT ?3) RETURNING {}",
            Self::DELIVERY_COLUMNS
        ))
        .bind(Millis::stored(now + lease))
        .bind(now_ms)
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn gone(
        pool: &SqlitePool,
        id: &str,
        attempt: i32,
        error: &str,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let now_ms = Millis::stored(now);
        let mut tx = pool.begin_with(Self::BEGIN_WRITE).await?;
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
        sqlx::query(
            "INSERT INTO gone_targets (channel, target, gone_ms) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        )
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

    async fn retry(
        pool: &SqlitePool,
        filter: &DeliveryFilter,
        now: OffsetDateTime,
    ) -> Result<u64, sqlx::Error> {
        let now_ms = Millis::stored(now);
        let mut tx = pool.begin_with(Self::BEGIN_WRITE).await?;
        let mut forget = Statement::<Sqlite>::new(
            "DELETE FROM gone_targets WHERE (channel, target) IN (SELECT channel, target FROM deliveries",
        );
        push_filter::<Self>(&mut forget, filter);
        forget.push(" AND state = 'gone')");
        let (sql, arguments) = forget.into_parts()?;
        sqlx::query_with(&sql, arguments).execute(&mut *tx).await?;
        let mut revive =
            Statement::<Sqlite>::new("UPDATE deliveries SET state = 'pending', next_attempt_ms = ");
        revive
            .push_bind(now_ms)
            .push(", window_from_ms = ")
            .push_bind(now_ms)
            .push(", updated_ms = ")
            .push_bind(now_ms);
        push_filter::<Self>(&mut revive, filter);
        revive.push(" AND state IN ('dead', 'gone')");
        if filter.limit > 0 {
            revive.push(" AND id IN (SELECT id FROM deliveries");
            push_filter::<Self>(&mut revive, filter);
            revive
                .push(" AND state IN ('dead', 'gone') ORDER BY created_ms, id LIMIT ")
                .push_bind(i64::from(filter.limit))
                .push(")");
        }
        let (sql, arguments) = revive.into_parts()?;
        let done = sqlx::query_with(&sql, arguments).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }
}

/// Writes the deliveries of production jobs inside their transaction: one
/// per recipient and channel that the trade's record names now, due at the
/// job's time (its recipients' `created_ms`). Two statements, whatever the
/// number of jobs.
pub(crate) async fn insert_for(
    conn: &mut SqliteConnection,
    jobs: &[&NewJob],
) -> Result<(), sqlx::Error> {
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
