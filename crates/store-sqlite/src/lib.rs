#![forbid(unsafe_code)]
//! The embedded store: SQLite in WAL mode, migrated on open. What it holds
//! of its own is its dialect ([`SqliteDialect`]); the store itself is
//! `intake_store_sql`'s, shared with PostgreSQL.

pub mod backup;
mod batch;
mod cards;
mod checkpoint;
mod deliveries;
mod history;
mod jobs;

use async_trait::async_trait;
use intake_core::store::StoreError;
use intake_store_sql::migrations;
use intake_store_sql::{Backend, Dialect, JobWriter, Millis, SqlStore, Statement};
pub use intake_store_sql::{MigrationEntry, MigrationState, MigrationStatus};
use sqlx::migrate::Migrator;
use sqlx::sqlite::{
    Sqlite, SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteQueryResult,
    SqliteSynchronous,
};
use sqlx::{ConnectOptions, Connection};
use std::str::FromStr;
use std::time::Duration;

/// A [`Store`](intake_core::Store) on one SQLite database file: open it with
/// `SqliteStore::open(url)`, where `url` is `sqlite://path/to.db` (created
/// if missing) or `sqlite::memory:` for a private in-memory database.
pub type SqliteStore = SqlStore<SqliteDialect>;

/// SQLite's SQL dialect. Times that are compared are unix milliseconds.
#[derive(Debug, Clone, Copy)]
pub struct SqliteDialect;

impl Dialect for SqliteDialect {
    type Db = Sqlite;
    type Time = Millis;
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    const FOR_UPDATE: &'static str = "";
    const CHECKPOINT: Option<&'static str> = Some("PRAGMA wal_checkpoint(TRUNCATE)");

    fn push_ids(statement: &mut Statement<'_, Sqlite>, ids: &[i64]) {
        statement.push(" IN ").push_list(ids.iter().copied());
    }

    fn push_texts(statement: &mut Statement<'_, Sqlite>, values: &[String]) {
        statement.push(" IN ").push_list(values.iter().cloned());
    }

    fn rows_affected(result: &SqliteQueryResult) -> u64 {
        result.rows_affected()
    }
}

/// The embedded store's migrations, in `migrations/`.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

#[async_trait]
impl Backend for SqliteDialect {
    async fn open(url: &str, migrate: bool) -> Result<SqliteStore, StoreError> {
        let in_memory = url.contains(":memory:");
        let options = connect_options(url)?;
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
            // A connection to a file cannot drop while idle, so it is not
            // pinged (a round trip to its thread) each time it is taken:
            // that ping was 3 % of the server's CPU under POST /jobs.
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options.clone())
            .await?;
        if migrate {
            MIGRATOR
                .run(&pool)
                .await
                .map_err(migrations::migrate_error)?;
        }
        if in_memory {
            // An in-memory database exists once per connection: the writer
            // and every read use the pool's one connection.
            return SqlStore::start(pool, JobWriter::OwnThread(None)).await;
        }
        // The writer has a connection of its own with a larger page cache:
        // the index pages every job touches stay in it from one batch to the
        // next. Its WAL is checkpointed beside it ([`checkpoint`]), and the
        // search cards are read on the caller's thread ([`cards`]).
        checkpoint::spawn(options.clone(), pool.clone());
        let cards = cards::InlineCards::new(options.get_filename().to_owned());
        let writer_options = options.pragma("cache_size", "-16384").pragma(
            "wal_autocheckpoint",
            checkpoint::WRITER_AUTOCHECKPOINT_PAGES.to_string(),
        );
        let store = SqlStore::start(pool, JobWriter::OwnThread(Some(writer_options))).await?;
        Ok(store.with_card_reader(std::sync::Arc::new(cards)))
    }

    async fn migration_status(url: &str) -> Result<MigrationStatus, StoreError> {
        let options = connect_options(url)?;
        if !url.contains(":memory:") && !options.get_filename().exists() {
            return Ok(MigrationStatus::empty(&MIGRATOR));
        }
        let mut conn = options.connect().await?;
        let status = migrations::status(&MIGRATOR, &mut conn).await;
        conn.close().await?;
        status
    }

    async fn migrate(url: &str) -> Result<Vec<MigrationEntry>, StoreError> {
        let mut conn = connect_options(url)?.connect().await?;
        let before = migrations::status(&MIGRATOR, &mut conn).await?;
        MIGRATOR
            // `run` on a connection fails the `Send` check of the
            // `async_trait` future ("`Acquire` is not general enough");
            // sqlx keeps `run_direct` public for exactly this.
            .run_direct(&mut conn)
            .await
            .map_err(migrations::migrate_error)?;
        conn.close().await?;
        Ok(before.in_state(MigrationState::Pending).cloned().collect())
    }
}

/// How every connection to the database at `url` is made.
fn connect_options(url: &str) -> Result<SqliteConnectOptions, StoreError> {
    let in_memory = url.contains(":memory:");
    Ok(SqliteConnectOptions::from_str(url)
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
        // What is deleted (an erasure, retention) is overwritten in its
        // pages, not only unlinked (docs/operations.md, "Personal data").
        .pragma("secure_delete", "ON")
        .busy_timeout(Duration::from_secs(5)))
}
