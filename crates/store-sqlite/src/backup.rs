//! A consistent copy of a live embedded database, and the check of one.
//!
//! Copying the files of a database in WAL mode while it is written is not a
//! backup: the copy of `intake.db` and that of `intake.db-wal` come from
//! different moments. `VACUUM INTO` instead writes, from one read
//! transaction, a new database as it stood when that transaction began,
//! while writers carry on (WAL lets a reader and the writer run at once).

use intake_core::store::StoreError;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// Writes a copy of the database at `url` into the new file `into`, as the
/// database stood at one moment, and makes it durable. The database must
/// exist; `into` must not.
pub async fn copy_database(url: &str, into: &Path) -> Result<(), StoreError> {
    let mut conn = SqliteConnectOptions::from_str(url)
        .map_err(|error| StoreError::Other(format!("bad SQLite URL `{url}`: {error}")))?
        .create_if_missing(false)
        .busy_timeout(Duration::from_secs(5))
        .connect()
        .await?;
    let target = into
        .to_str()
        .ok_or_else(|| StoreError::Other(format!("{} is not UTF-8", into.display())))?;
    let copied = sqlx::query("VACUUM INTO $1")
        .bind(target)
        .execute(&mut conn)
        .await;
    conn.close().await?;
    copied?;
    // SQLite writes the copy without syncing it.
    std::fs::File::open(into)
        .and_then(|file| file.sync_all())
        .map_err(|error| StoreError::Other(format!("syncing {}: {error}", into.display())))
}

/// `PRAGMA integrity_check` of the existing database file `path`: `["ok"]`
/// for a sound one, else the problems it found.
pub async fn integrity_check(path: &Path) -> Result<Vec<String>, StoreError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(false)
        .connect()
        .await?;
    let rows: Vec<(String,)> = sqlx::query_as("PRAGMA integrity_check")
        .fetch_all(&mut conn)
        .await?;
    conn.close().await?;
    Ok(rows.into_iter().map(|(line,)| line).collect())
}
