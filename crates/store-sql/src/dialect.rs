//! What a SQL backend supplies: its database, and the parts of the
//! operations whose SQL differs between the dialects. Everything else is
//! written once over these traits ([`crate::SqlStore`]); statements that both
//! dialects read alike are written once too, with `$N` parameters (which
//! SQLite takes as well).
//!
//! Generic code over a dialect needs the sqlx capabilities it uses (see
//! [`Column`]) in its `where` clause: Rust does not carry bounds on other
//! types over from a trait to its users, so they are written once, in the
//! attribute `#[sqlx_bounds(D)]` of `intake-store-sql-macros`, put on each
//! such `impl` block.

use crate::migrations::{MigrationEntry, MigrationStatus};
use crate::rows::deliveries::DeliveryRow;
use crate::statement::Statement;
use crate::writer::Declined;
use crate::{SqlStore, StoredTime};
use async_trait::async_trait;
use intake_core::delivery::DeliveryFilter;
use intake_core::jobs::{CreateOutcome, NewJob};
use intake_core::store::StoreError;
use sqlx::{Database, Decode, Encode, Pool, Type};
use std::time::Duration;
use time::OffsetDateTime;

/// A Rust type a database stores in a column: bound, read and typed.
pub trait Column<DB: Database>:
    for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB> + Send + Sync
{
}

impl<DB: Database, T> Column<DB> for T where
    T: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB> + Send + Sync
{
}

/// A SQL dialect: its database and what every area of it shares.
pub trait Dialect: Send + Sync + Sized + 'static {
    /// The sqlx database.
    type Db: Database;

    /// A point in time as the dialect's compared columns hold it.
    type Time: StoredTime + Column<Self::Db>;

    /// The statement that begins a transaction that writes: SQLite takes
    /// its one write lock at once (`BEGIN IMMEDIATE`), so that what the
    /// transaction reads cannot change before it writes.
    const BEGIN_WRITE: &'static str;

    /// What ends a `SELECT` of a row that the transaction goes on to change,
    /// so that concurrent writers take turns at it: ` FOR UPDATE` on
    /// PostgreSQL; nothing on SQLite, whose writers take turns from `BEGIN`.
    const FOR_UPDATE: &'static str;

    /// A statement that folds the write-ahead log back into the database
    /// after a large write, if the dialect wants one.
    const CHECKPOINT: Option<&'static str>;

    /// Appends a membership test of `ids` to a condition on a column:
    /// ` IN (…)` with a parameter each, or ` = ANY($n)` with one array.
    fn push_ids(statement: &mut Statement<'_, Self::Db>, ids: &[i64]);

    /// [`Dialect::push_ids`] for text values.
    fn push_texts(statement: &mut Statement<'_, Self::Db>, values: &[String]);

    /// How many rows a statement changed.
    fn rows_affected(result: &<Self::Db as Database>::QueryResult) -> u64;
}

/// The fast path of group commit ([`crate::group_commit`]).
#[async_trait]
pub trait Batch: Dialect {
    /// Writes `jobs` in a few statements, whatever their number, inside the
    /// caller's write transaction on `conn`; one outcome per job. A job that
    /// meets an unexpired idempotency record of one of its scopes writes
    /// nothing and answers [`CreateOutcome::Existing`]. A batch it cannot
    /// decide in one go is declined ([`Declined::Slow`]), as is one a
    /// statement of which failed ([`Declined::Failed`]); the transaction
    /// must then be rolled back.
    async fn write_batch(
        conn: &mut <Self::Db as Database>::Connection,
        jobs: &[&NewJob],
    ) -> Result<Vec<CreateOutcome>, Declined>;
}

/// Jobs and their idempotency records.
#[async_trait]
pub trait Jobs: Dialect {
    /// The unexpired record (an [`IdempotencyRow`]) of scope `$1` at `$2`.
    ///
    /// [`IdempotencyRow`]: crate::rows::jobs::IdempotencyRow
    const IDEMPOTENCY: &'static str;

    /// Deletes the idempotency records expired at `$1`.
    const PURGE_IDEMPOTENCY: &'static str;

    /// `SELECT company_id, COUNT(*) FROM job_recipients WHERE` its time
    /// `>=`: the leads of the trades since a time (bound next), to which the
    /// membership test of `company_id` and `GROUP BY company_id` are added.
    const RECENT_LEADS: &'static str;

    /// The ids of the jobs whose e-mail address is `$1` without regard to
    /// ASCII case, oldest first.
    const JOBS_BY_EMAIL: &'static str;

    /// The ids of up to `$2` jobs received before `$1` (a stored time),
    /// oldest first.
    const EXPIRED_JOBS: &'static str;

    /// Deletes up to `$2` quarantine entries received before `$1` (an
    /// `OffsetDateTime`, as the entries' own column is bound).
    const PURGE_QUARANTINE: &'static str;

    /// Deletes up to `$2` deliveries that are not pending and were last
    /// changed before `$1` (a stored time).
    const PURGE_DELIVERIES: &'static str;

    /// Writes `jobs` whole, without their idempotency records: the jobs,
    /// their recipients and images and, for a production job, one delivery
    /// per recipient and channel that the trade's directory record names
    /// (pending and due at once; `gone` at once for a target marked gone).
    async fn insert_jobs(
        conn: &mut <Self::Db as Database>::Connection,
        jobs: &[&NewJob],
    ) -> Result<(), sqlx::Error>;
}

/// The delivery outbox.
#[async_trait]
pub trait Deliveries: Dialect {
    /// The columns of a [`DeliveryRow`], as `SELECT` and `RETURNING` list them.
    const DELIVERY_COLUMNS: &'static str;

    /// ` ORDER BY` creation, then id.
    const DELIVERY_ORDER: &'static str;

    /// Delivery `$1` is delivered at `$2`, if pending.
    const DELIVERED: &'static str;

    /// Delivery `$1`, if pending at attempt `$2`, is due again at `$3`
    /// after error `$4`, at `$5`.
    const RETRY: &'static str;

    /// Delivery `$1`, if pending at attempt `$2`, is dead after error `$3`,
    /// at `$4`.
    const DEAD: &'static str;

    /// Marks pending deliveries due at `now` whose target is gone as gone,
    /// and leases up to `limit` other due ones until `now + lease` (one more
    /// attempt each). Concurrent claimers never get the same row.
    async fn claim(
        pool: &Pool<Self::Db>,
        now: OffsetDateTime,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<DeliveryRow<Self::Time>>, sqlx::Error>;

    /// The number of pending deliveries and the creation time of the oldest.
    async fn backlog(pool: &Pool<Self::Db>) -> Result<(i64, Option<OffsetDateTime>), sqlx::Error>;

    /// Marks delivery `id`, if pending at `attempt`, gone with `error`, its
    /// target gone, and every other pending delivery to that target gone,
    /// in one transaction; whether it applied.
    async fn gone(
        pool: &Pool<Self::Db>,
        id: &str,
        attempt: i32,
        error: &str,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error>;

    /// Makes the dead and gone deliveries of `filter` pending again, due at
    /// `now`, with a new retry window; their targets stop being gone.
    async fn retry(
        pool: &Pool<Self::Db>,
        filter: &DeliveryFilter,
        now: OffsetDateTime,
    ) -> Result<u64, sqlx::Error>;
}

/// What the spam screen asks of a consumer's earlier jobs.
pub trait History: Dialect {
    /// One [`HistoryRow`]: the consumer's earlier jobs since `$5` in
    /// environment `$6`, by e-mail `$1` (without regard to ASCII case), by
    /// phone `$2`, and with fingerprint `$3` through keys other than `$4`.
    ///
    /// [`HistoryRow`]: crate::rows::history::HistoryRow
    const HISTORY: &'static str;

    /// One [`EarlierRow`]: the history (parameters as [`History::HISTORY`])
    /// with the first unexpired record at `$8` of the scopes `$7`, in their
    /// order, and the leads since `$9` of the trades `$10`.
    ///
    /// [`EarlierRow`]: crate::rows::history::EarlierRow
    const EARLIER: &'static str;

    /// A list of scopes as one parameter.
    type Scopes: Column<Self::Db>;

    /// `scopes` as one parameter.
    fn scopes(scopes: &[String]) -> Self::Scopes;

    /// A list of company ids as one parameter.
    type Ids: Column<Self::Db>;

    /// `ids` as one parameter.
    fn ids(ids: &[u64]) -> Self::Ids;
}

/// A whole backend: its dialect of every area, how it opens a store and
/// how it migrates a database.
#[async_trait]
pub trait Backend: Batch + Jobs + Deliveries + History {
    /// Opens the store at `url` (creating an embedded database if missing),
    /// applying pending migrations first when `migrate`. Without, the caller
    /// has checked [`Backend::migration_status`]: statements on a database
    /// that is behind fail.
    async fn open(url: &str, migrate: bool) -> Result<SqlStore<Self>, StoreError>;

    /// Where the database at `url` stands against this build's migrations;
    /// changes nothing but creating sqlx's table of them (an embedded
    /// database that does not exist yet has every migration pending).
    async fn migration_status(url: &str) -> Result<MigrationStatus, StoreError>;

    /// Applies the pending migrations to the database at `url` (creating an
    /// embedded one if missing); the ones it applied, in order. Concurrent
    /// runs take turns.
    async fn migrate(url: &str) -> Result<Vec<MigrationEntry>, StoreError>;
}
