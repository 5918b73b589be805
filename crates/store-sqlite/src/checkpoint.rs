//! Checkpoints beside the job writer.
//!
//! Every job dirties a handful of index pages with random keys (e-mail,
//! phone, scope, trade), so the WAL grows by a few pages per job, and
//! SQLite's automatic checkpoint (every 1,000 pages by default) ran inside
//! the writer's commit every few batches: copying those pages into the
//! database file and syncing it while every waiting job waited too. Here a
//! task of its own checkpoints passively (never waiting for the writer or a
//! reader) on a connection of its own, so that the writer mostly only
//! appends to the WAL and syncs it.
//!
//! The WAL can start over only once all of it has been copied, which a
//! passive checkpoint seldom catches while jobs keep coming; so the writer
//! keeps an automatic checkpoint at a far larger threshold
//! ([`WRITER_AUTOCHECKPOINT_PAGES`]): by then this task has copied most of
//! the log, the writer's checkpoint finishes it and the log starts over. It
//! is also the bound on the WAL should this task fail.

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqlitePool};
use sqlx::{ConnectOptions, Connection};
use std::time::Duration;

/// How often the WAL is checkpointed.
pub const INTERVAL: Duration = Duration::from_millis(200);

/// The writer's own automatic checkpoint, in pages (of 4 KiB): far above
/// what one [`INTERVAL`] of jobs writes, so it only acts when the task does
/// not.
pub const WRITER_AUTOCHECKPOINT_PAGES: u32 = 16_384;

/// Starts checkpointing the database of `options` every [`INTERVAL`], on the
/// current runtime, until `pool` is closed (the store closing).
pub fn spawn(options: SqliteConnectOptions, pool: SqlitePool) {
    tokio::spawn(async move {
        let mut conn: Option<SqliteConnection> = None;
        let mut ticks = tokio::time::interval(INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if pool.is_closed() {
                break;
            }
            let open = match &mut conn {
                Some(open) => open,
                empty => match options.connect().await {
                    Ok(open) => empty.insert(open),
                    Err(error) => {
                        tracing::warn!(%error, "the checkpointer could not connect; the writer checkpoints on its own meanwhile");
                        continue;
                    }
                },
            };
            if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&mut *open)
                .await
            {
                tracing::warn!(%error, "a checkpoint failed; trying again on a new connection");
                if let Some(broken) = conn.take() {
                    let _ = broken.close().await;
                }
            }
        }
        if let Some(open) = conn {
            let _ = open.close().await;
        }
    });
}
