#![forbid(unsafe_code)]
//! The embedded store: SQLite in WAL mode, migrated on open.

mod batch;
mod deliveries;
mod directory;
mod history;
mod jobs;
mod keys;
mod quarantine;

use async_trait::async_trait;
use intake_core::delivery::{Delivery, DeliveryFilter, Outcome};
use intake_core::directory::{IndexedTrade, TradeRecord, ValidTrade};
use intake_core::jobs::{CreateOutcome, IdempotencyRecord, NewJob, Quarantined, StoredJob};
use intake_core::keys::ApiKey;
use intake_core::spam::history::{ContactHistory, HistoryQuery};
use intake_core::store::{EarlierOrHistory, ImportSummary, Store, StoreCounts, StoreError};
use intake_store_sql::{BatchWriter, Dialect};
use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{ConnectOptions, Connection};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

/// SQLite's SQL dialect.
#[derive(Debug, Clone, Copy)]
pub struct SqliteDialect;

impl Dialect for SqliteDialect {
    type Db = Sqlite;
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
}

/// A [`Store`] on one SQLite database file.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    writer: intake_core::group_commit::JobQueue,
    writer_connection: Arc<tokio::sync::Mutex<Option<sqlx::SqliteConnection>>>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `url` (`sqlite://path/to.db`,
    /// or `sqlite::memory:` for a private in-memory database) and migrates it.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let in_memory = url.contains(":memory:");
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|error| StoreError::Other(format!("bad SQLite URL `{url}`: {error}")))?
            .create_if_missing(true)
            .journal_mode(if in_memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            // FULL: a commit is on disk before the answer goes out, so an
            // acknowledged request survives a power cut, not only a crash.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        if !in_memory {
            // Switching a new file to WAL takes an exclusive lock that the busy
            // timeout does not wait for, so pool connections opening at once
            // on a fresh file could fail with `database is locked`. WAL is kept
            // in the file: set it once, alone, before the pool opens.
            let bootstrap = options.connect().await?;
            bootstrap.close().await?;
        }
        let pool = SqlitePoolOptions::new()
            // An in-memory database exists once per connection: keep one.
            .max_connections(if in_memory { 1 } else { 8 })
            .min_connections(1)
            .acquire_timeout(Duration::from_secs(5))
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|error| {
                StoreError::Other(format!("migrating the SQLite store failed: {error}"))
            })?;
        let rebuilt = directory::rebuild_stale_cards(&pool).await?;
        if rebuilt > 0 {
            tracing::info!(
                trades = rebuilt,
                "search cards rebuilt in the current format"
            );
        }
        // The writer's own connection keeps a larger page cache: the index
        // pages every job touches stay in it from one batch to the next.
        let writer_options = (!in_memory).then(|| options.pragma("cache_size", "-16384"));
        let batch_writer = BatchWriter::<SqliteDialect>::new(writer_options, pool.clone());
        let writer_connection = batch_writer.connection();
        let writer = intake_core::group_commit::JobQueue::spawn_on_own_thread(batch_writer)
            .map_err(|error| StoreError::Other(format!("starting the job writer: {error}")))?;
        Ok(SqliteStore {
            pool,
            writer,
            writer_connection,
        })
    }

    /// Closes every connection, checkpointing the WAL.
    pub async fn close(&self) {
        if let Some(conn) = self.writer_connection.lock().await.take() {
            let _ = conn.close().await;
        }
        self.pool.close().await;
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn insert_key(&self, key: &ApiKey) -> Result<(), StoreError> {
        keys::insert(&self.pool, key).await
    }

    async fn find_key(&self, key_id: &str) -> Result<Option<ApiKey>, StoreError> {
        keys::find(&self.pool, key_id).await
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>, StoreError> {
        keys::list(&self.pool).await
    }

    async fn revoke_key(&self, key_id: &str, at: OffsetDateTime) -> Result<ApiKey, StoreError> {
        keys::revoke(&self.pool, key_id, at).await
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
        jobs::idempotency(&self.pool, scope, now).await
    }

    async fn purge_idempotency(&self, now: OffsetDateTime) -> Result<u64, StoreError> {
        jobs::purge_idempotency(&self.pool, now).await
    }

    async fn job(&self, id: &str) -> Result<Option<StoredJob>, StoreError> {
        jobs::job(&self.pool, id).await
    }

    async fn recent_leads(
        &self,
        company_ids: &[u64],
        since: OffsetDateTime,
    ) -> Result<HashMap<u64, u32>, StoreError> {
        jobs::recent_leads(&self.pool, company_ids, since).await
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
        jobs::counts(&self.pool).await
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
