//! The search cards of a page of trades, read on the calling thread with
//! connections of rusqlite's, without sqlx's round trip to a connection
//! thread (issue 15: the search profile's context switches). A page is a
//! few rows found by primary key in pages the OS has cached: tens of
//! microseconds, short enough to run on a runtime thread.

use intake_core::store::StoreError;
use intake_store_sql::CardReader;
use rusqlite::{params_from_iter, Connection, OpenFlags};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// Idle connections kept for the next page; one per runtime thread is
/// what is ever in use at once.
const IDLE: usize = 4;

/// Read-only connections to one database file.
pub struct InlineCards {
    path: PathBuf,
    /// `None` once closed.
    idle: Mutex<Option<Vec<Connection>>>,
}

impl InlineCards {
    /// Cards of the database at `path`, opened as the first page is read.
    pub fn new(path: PathBuf) -> Self {
        InlineCards {
            path,
            idle: Mutex::new(Some(Vec::new())),
        }
    }

    fn connection(&self) -> Result<Connection, StoreError> {
        match self.idle.lock().expect("never poisoned").as_mut() {
            None => return Err(StoreError::Unavailable("the store is closed".to_owned())),
            Some(idle) => {
                if let Some(conn) = idle.pop() {
                    return Ok(conn);
                }
            }
        }
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(unavailable)?;
        conn.busy_timeout(Duration::from_secs(1))
            .map_err(unavailable)?;
        Ok(conn)
    }
}

impl CardReader for InlineCards {
    fn cards(&self, company_ids: &[u64]) -> Result<Vec<String>, StoreError> {
        if company_ids.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.connection()?;
        let read = read(&conn, company_ids);
        if read.is_ok() {
            if let Some(idle) = self.idle.lock().expect("never poisoned").as_mut() {
                if idle.len() < IDLE {
                    idle.push(conn);
                }
            }
        }
        let mut by_id = read.map_err(unavailable)?;
        Ok(company_ids
            .iter()
            .filter_map(|id| by_id.remove(id))
            .collect())
    }

    fn close(&self) {
        self.idle.lock().expect("never poisoned").take();
    }
}

fn read(conn: &Connection, company_ids: &[u64]) -> rusqlite::Result<HashMap<u64, String>> {
    let marks = vec!["?"; company_ids.len()].join(", ");
    let mut select = conn.prepare_cached(&format!(
        "SELECT company_id, card_json FROM trades WHERE company_id IN ({marks})"
    ))?;
    let rows = select.query_map(
        params_from_iter(company_ids.iter().map(|&id| id as i64)),
        |row| Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?)),
    )?;
    rows.collect()
}

fn unavailable(error: rusqlite::Error) -> StoreError {
    StoreError::Unavailable(format!("reading search cards: {error}"))
}
