#![forbid(unsafe_code)]
//! The PostgreSQL store: many `intake serve` processes on one database.
//! Migrated on open; concurrent jobs of a process are committed together.
//! What it holds of its own is its dialect ([`PostgresDialect`]); the store
//! itself is `intake_store_sql`'s, shared with SQLite.

mod batch;
mod deliveries;
mod history;
mod jobs;
mod tls;

use async_trait::async_trait;
use intake_core::store::StoreError;
use intake_store_sql::migrations;
use intake_store_sql::{Backend, Dialect, JobWriter, SqlStore, Statement};
pub use intake_store_sql::{MigrationEntry, MigrationState, MigrationStatus};
use sqlx::migrate::{Migrate, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgQueryResult, Postgres};
use sqlx::{ConnectOptions, Connection};
use std::str::FromStr;
use std::time::Duration;
use time::OffsetDateTime;

/// A [`Store`](intake_core::Store) on one PostgreSQL database: open it with
/// `PostgresStore::open(url)`, where `url` is
/// `postgres://user@host:port/database`, with `?sslmode=verify-full&sslrootcert=ca.crt`
/// for TLS (rustls; `require` and `verify-ca` too). Many processes may open
/// the same database at once: the migrator takes an advisory lock.
pub type PostgresStore = SqlStore<PostgresDialect>;

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
    type Time = OffsetDateTime;
    const BEGIN_WRITE: &'static str = "BEGIN";
    const FOR_UPDATE: &'static str = " FOR UPDATE";
    const CHECKPOINT: Option<&'static str> = None;

    fn push_ids(statement: &mut Statement<'_, Postgres>, ids: &[i64]) {
        statement.push(" = ANY(").push_bind(ids.to_vec()).push(")");
    }

    fn push_texts(statement: &mut Statement<'_, Postgres>, values: &[String]) {
        statement
            .push(" = ANY(")
            .push_bind(values.to_vec())
            .push(")");
    }

    fn rows_affected(result: &PgQueryResult) -> u64 {
        result.rows_affected()
    }
}

/// The PostgreSQL store's migrations, in `migrations/`.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

#[async_trait]
impl Backend for PostgresDialect {
    async fn open(url: &str, migrate: bool) -> Result<PostgresStore, StoreError> {
        let options = connect_options(url)?;
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
            .connect_with(options.clone())
            .await
            .map_err(|error| tls::connect_error(error, &options))?;
        if migrate {
            // The migrator takes an advisory lock: concurrent starts take turns.
            MIGRATOR
                .run(&pool)
                .await
                .map_err(migrations::migrate_error)?;
        }
        // The writer stays on the shared runtime and the pool, where its
        // connections' sockets are registered.
        SqlStore::start(pool, JobWriter::Pooled).await
    }

    async fn migration_status(url: &str) -> Result<MigrationStatus, StoreError> {
        let mut conn = connect_options(url)?.connect().await?;
        let status = migrations::status(&MIGRATOR, &mut conn).await;
        conn.close().await?;
        status
    }

    async fn migrate(url: &str) -> Result<Vec<MigrationEntry>, StoreError> {
        let mut conn = connect_options(url)?.connect().await?;
        // Read and applied under the migrator's advisory lock, so that a
        // concurrent run's migrations are not counted as this one's.
        conn.lock().await.map_err(migrations::migrate_error)?;
        let applied = async {
            let before = migrations::status(&MIGRATOR, &mut conn).await?;
            MIGRATOR
                // `run` on a connection fails the `Send` check of the
                // `async_trait` future ("`Acquire` is not general enough");
                // sqlx keeps `run_direct` public for exactly this.
                .run_direct(&mut conn)
                .await
                .map_err(migrations::migrate_error)?;
            Ok::<_, StoreError>(before.in_state(MigrationState::Pending).cloned().collect())
        }
        .await;
        conn.unlock().await.map_err(migrations::migrate_error)?;
        conn.close().await?;
        applied
    }
}

/// How every connection to the database at `url` is made.
fn connect_options(url: &str) -> Result<PgConnectOptions, StoreError> {
    Ok(PgConnectOptions::from_str(url)
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
        ]))
}
