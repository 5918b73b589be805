//! The SQL store: a pool, a job writer and the keys in memory, over
//! a [`Backend`]'s dialect. Its [`Store`] implementation is in
//! `store/`, a file per part of the trait.
//!
//! [`Store`]: intake_core::Store

use crate::dialect::{Backend, Dialect};
use crate::group_commit::JobQueue;
use crate::key_cache::KeyCache;
use crate::migrations::{MigrationEntry, MigrationStatus};
use crate::writer::{BatchWriter, Connect};
use intake_core::store::StoreError;
use intake_store_sql_macros::sqlx_bounds;
use sqlx::{Connection, Database, Pool};
use std::sync::Arc;
use tokio::sync::Mutex;

mod directory;
mod jobs;
mod keys;
mod outbox;
mod personal;
mod retention;
mod spam;

/// A [`Store`](intake_core::Store) on one SQL database of dialect `D`;
/// cheap to clone.
pub struct SqlStore<D: Dialect> {
    pub(crate) pool: Pool<D::Db>,
    writer: JobQueue,
    /// The job writer's own connection, if it has one, so that `close`
    /// closes it.
    writer_connection: Arc<Mutex<Option<<D::Db as Database>::Connection>>>,
    /// Every key, read again at most every second.
    keys: KeyCache,
    /// Where search cards are read instead of the pool, if the backend has
    /// a faster way ([`CardReader`]).
    pub(crate) card_reader: Option<Arc<dyn CardReader>>,
}

/// Reads search cards on the calling thread: SQLite's way around a round
/// trip to sqlx's connection thread per page (docs/decisions.md).
pub trait CardReader: Send + Sync + 'static {
    /// The cards of these trades, in the order asked; unknown ids skipped.
    fn cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError>;

    /// Closes its connections; later reads fail as `Unavailable`.
    fn close(&self);
}

impl<D: Dialect> Clone for SqlStore<D> {
    fn clone(&self) -> Self {
        SqlStore {
            pool: self.pool.clone(),
            writer: self.writer.clone(),
            writer_connection: self.writer_connection.clone(),
            keys: self.keys.clone(),
            card_reader: self.card_reader.clone(),
        }
    }
}

impl<D: Dialect> std::fmt::Debug for SqlStore<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqlStore")
            .field("pool", &self.pool)
            .field("writer", &self.writer)
            .finish_non_exhaustive()
    }
}

/// Where a store's job writer runs ([`crate::group_commit`]).
pub enum JobWriter<D: Dialect> {
    /// On the current runtime, on the pool's connections.
    Pooled,
    /// On a thread and runtime of its own, so that each of its statements
    /// is answered at once instead of waiting its turn among the requests'
    /// tasks; on a connection of its own opened with these options, so that
    /// its transaction never waits behind their reads (with `None`, on the
    /// pool's connections).
    OwnThread(Option<Connect<D>>),
}

impl<D: Backend> SqlStore<D> {
    /// Opens (creating or migrating as needed) the store at `url`: see the
    /// backend's crate for the URLs it takes.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        D::open(url, true).await
    }

    /// Opens the store at `url` without migrating it, for deployments that
    /// migrate once, apart (`intake db migrate`): refused as
    /// [`StoreError::Other`] with what [`MigrationStatus::problem`] says
    /// unless the database is current.
    pub async fn open_migrated(url: &str) -> Result<Self, StoreError> {
        if let Some(problem) = D::migration_status(url).await?.problem() {
            return Err(StoreError::Other(problem));
        }
        D::open(url, false).await
    }

    /// Where the database at `url` stands against this build's migrations.
    pub async fn migration_status(url: &str) -> Result<MigrationStatus, StoreError> {
        D::migration_status(url).await
    }

    /// Applies the pending migrations to the database at `url`; the ones
    /// applied, in order.
    pub async fn migrate(url: &str) -> Result<Vec<MigrationEntry>, StoreError> {
        D::migrate(url).await
    }

    /// Reads search cards with `reader` instead of the pool.
    pub fn with_card_reader(mut self, reader: Arc<dyn CardReader>) -> Self {
        self.card_reader = Some(reader);
        self
    }

    /// Closes every connection; later calls fail as `Unavailable`.
    pub async fn close(&self) {
        if let Some(conn) = self.writer_connection.lock().await.take() {
            let _ = conn.close().await;
        }
        if let Some(reader) = &self.card_reader {
            reader.close();
        }
        self.pool.close().await;
    }
}

#[sqlx_bounds(D)]
impl<D: Backend> SqlStore<D> {
    /// The store on a migrated `pool`: rebuilds search cards written in an
    /// older format and starts the job writer. Keys are held in memory
    /// ([`KeyCache`]): a signed request costs no read for its key.
    pub async fn start(pool: Pool<D::Db>, writer: JobWriter<D>) -> Result<Self, StoreError> {
        let rebuilt = Self::rebuild_stale_cards(&pool).await?;
        if rebuilt > 0 {
            tracing::info!(
                trades = rebuilt,
                "search cards rebuilt in the current format"
            );
        }
        let (writer, writer_connection) = match writer {
            JobWriter::Pooled => {
                let batches = BatchWriter::<D>::new(None, pool.clone());
                (JobQueue::spawn(batches), Arc::default())
            }
            JobWriter::OwnThread(options) => {
                let batches = BatchWriter::<D>::new(options, pool.clone());
                let connection = batches.connection();
                let queue = JobQueue::spawn_on_own_thread(batches).map_err(|error| {
                    StoreError::Other(format!("starting the job writer: {error}"))
                })?;
                (queue, connection)
            }
        };
        Ok(SqlStore {
            pool,
            writer,
            writer_connection,
            keys: KeyCache::default(),
            card_reader: None,
        })
    }
}
