#![forbid(unsafe_code)]
//! The PostgreSQL store: many `intake serve` processes on one database.
//! Migrated on open; concurrent jobs of a process are committed together.

mod batch;
mod deliveries;
mod directory;
mod history;
mod idempotency;
mod jobs;
mod key_cache;
mod keys;
mod quarantine;
mod read;
pub mod testing;

use async_trait::async_trait;
use intake_core::delivery::{Delivery, DeliveryFilter, Outcome};
use intake_core::directory::{IndexedTrade, TradeRecord, ValidTrade};
use intake_core::jobs::{CreateOutcome, IdempotencyRecord, NewJob, Quarantined, StoredJob};
use intake_core::keys::ApiKey;
use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::{EarlierOrHistory, ImportSummary, Store, StoreCounts, StoreError};
use intake_store_sql::{BatchWriter, Dialect};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, Postgres};
use std::collections::HashMap;
use std::str::FromStr;
use std::time::Duration;
use time::OffsetDateTime;

/// How long a request waits for a connection before the store counts as
/// unavailable (503), so that an outage answers quickly instead of hanging.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// No statement runs longer than this: a database that stops answering
/// becomes an error, not a hung request.
const STATEMENT_TIMEOUT: &str = "30s";

/// PostgreSQL's SQL dialect.
#[derive(Debug, Clone, Copy)]
pub struct PostgresDialect;

impl Dialect for PostgresDialect {
    type Db = Postgres;
    const BEGIN_WRITE: &'static str = "BEGIN";
}

/// A [`Store`] on one PostgreSQL database.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
    writer: intake_core::group_commit::JobQueue,
    keys: key_cache::KeyCache,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/database`) and migrates
    /// the database. Many processes may open the same database at once: the
    /// migrator takes an advisory lock.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|error| StoreError::Other(format!("bad PostgreSQL URL: {error}")))?
            .application_name("intake")
            .options([
                ("statement_timeout", STATEMENT_TIMEOUT),
                // Every statement is prepared once per connection and run
                // thousands of times with equality and range parameters that
                // the same index plan serves whatever their values. Planning
                // each run afresh (the default while custom plans look
                // cheaper) made PostgreSQL the bottleneck of POST /jobs
                // (BENCHMARKS.md).
                ("plan_cache_mode", "force_generic_plan"),
            ]);
        let pool = PgPoolOptions::new()
            .max_connections(10)
            .min_connections(0)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            // No round trip before each use: sqlx already pings every
            // connection as it goes back to the pool and drops a dead one
            // then, and a connection that died while idle fails its one
            // statement as `Unavailable` (503) and is dropped on release.
            .test_before_acquire(false)
            .idle_timeout(Duration::from_secs(300))
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|error| {
                StoreError::Other(format!("migrating the PostgreSQL store failed: {error}"))
            })?;
        let rebuilt = directory::rebuild_stale_cards(&pool).await?;
        if rebuilt > 0 {
            tracing::info!(
                trades = rebuilt,
                "search cards rebuilt in the current format"
            );
        }
        let writer = intake_core::group_commit::JobQueue::spawn(
            BatchWriter::<PostgresDialect>::new(None, pool.clone()),
        );
        Ok(PostgresStore {
            pool,
            writer,
            keys: key_cache::KeyCache::default(),
        })
    }

    /// Closes every connection; later calls fail as `Unavailable`.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

#[async_trait]
impl Store for PostgresStore {
    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn insert_key(&self, key: &ApiKey) -> Result<(), StoreError> {
        keys::insert(&self.pool, key).await
    }

    async fn find_key(&self, key_id: &str) -> Result<Option<ApiKey>, StoreError> {
        if let Some(key) = self.keys.get(key_id) {
            return Ok(Some(key));
        }
        let key = keys::find(&self.pool, key_id).await?;
        if let Some(key) = &key {
            self.keys.put(key);
        }
        Ok(key)
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError> {
        keys::list(&self.pool).await
    }

    async fn revoke_key(&self, key_id: &str, at: OffsetDateTime) -> Result<ApiKey, StoreError> {
        let key = keys::revoke(&self.pool, key_id, at).await?;
        self.keys.put(&key);
        Ok(key)
    }

    async fn import_trades(&self, trades: &[ValidTrade]) -> Result<ImportSummary, StoreError> {
        directory::import(&self.pool, trades).await
    }

    async fn directory(&self) -> Result<Vec<IndexedTrade>, StoreError> {
        directory::index(&self.pool).await
    }

    async fn trade_cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
        directory::cards(&self.pool, company_ids).await
    }

    async fn trade_records(&self, company_ids: &[u64]) -> Result<Vec<TradeRecord>, StoreError> {
        directory::records(&self.pool, company_ids).await
    }

    async fn directory_version(&self) -> Result<i64, StoreError> {
        directory::version(&self.pool).await
    }

    async fn save_category_tree(&self, json: &str) -> Result<(), StoreError> {
        directory::save_tree(&self.pool, json).await
    }

    async fn category_tree(&self) -> Result<Option<String>, StoreError> {
        directory::tree(&self.pool).await
    }

    async fn create_job(&self, job: &NewJob) -> Result<CreateOutcome, StoreError> {
        self.writer.write(job.clone()).await
    }

    async fn idempotency(
        &self,
        scope: &str,
        now: OffsetDateTime,
    ) -> Result<Option<IdempotencyRecord>, StoreError> {
        idempotency::find(&self.pool, scope, now).await
    }

    async fn purge_idempotency(&self, now: OffsetDateTime) -> Result<u64, StoreError> {
        idempotency::purge(&self.pool, now).await
    }

    async fn job(&self, id: &str) -> Result<Option<StoredJob>, StoreError> {
        read::job(&self.pool, id).await
    }

    async fn recent_leads(
        &self,
        company_ids: &[u64],
        since: OffsetDateTime,
    ) -> Result<HashMap<u64, u32>, StoreError> {
        read::recent_leads(&self.pool, company_ids, since).await
    }

    async fn quarantine(&self, entry: &Quarantined) -> Result<(), StoreError> {
        quarantine::insert(&self.pool, entry).await
    }

    async fn quarantined(&self, include_released: bool) -> Result<Vec<Quarantined>, StoreError> {
        quarantine::list(&self.pool, include_released).await
    }

    async fn release(&self, id: &str, job: &NewJob) -> Result<(), StoreError> {
        quarantine::release(&self.pool, id, job).await
    }

    async fn counts(&self) -> Result<StoreCounts, StoreError> {
        read::counts(&self.pool).await
    }

    async fn contact_history(&self, query: &HistoryQuery) -> Result<ContactHistory, StoreError> {
        history::contact_history(&self.pool, query).await
    }

    async fn earlier_answer_or_history(
        &self,
        scopes: &[String],
        now: OffsetDateTime,
        query: &HistoryQuery,
    ) -> Result<EarlierOrHistory, StoreError> {
        history::earlier_answer_or_history(&self.pool, scopes, now, query).await
    }

    async fn claim_deliveries(
        &self,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<Delivery>, StoreError> {
        deliveries::claim(&self.pool, now, lease, limit).await
    }

    async fn finish_delivery(
        &self,
        id: &str,
        attempt: u32,
        outcome: &Outcome,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        deliveries::finish(&self.pool, id, attempt, outcome, now).await
    }

    async fn deliveries(&self, filter: &DeliveryFilter) -> Result<Vec<Delivery>, StoreError> {
        deliveries::list(&self.pool, filter).await
    }

    async fn retry_deliveries(
        &self,
        filter: &DeliveryFilter,
        now: OffsetDateTime,
    ) -> Result<u64, StoreError> {
        deliveries::retry(&self.pool, filter, now).await
    }
}
