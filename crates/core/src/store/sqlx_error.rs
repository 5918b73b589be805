//! How a sqlx error reads as a [`StoreError`]: one conversion for both SQL
//! backends, so that `?` takes any sqlx error to the narrow enum the HTTP
//! edge needs, and the backends cannot decide differently.

use super::StoreError;
use sqlx::error::DatabaseError;
use sqlx::postgres::PgDatabaseError;
use sqlx::sqlite::SqliteError;

impl From<sqlx::Error> for StoreError {
    /// A missing row is `NotFound`; a unique violation `Conflict`; a
    /// database that is busy, locked, out of resources, shutting down or in
    /// a lock conflict, a lost or garbled connection and an exhausted or
    /// closed pool are `Unavailable`; the rest is `Other`.
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(db.message().to_owned())
            }
            sqlx::Error::Database(db) if is_transient(db.as_ref()) => {
                StoreError::Unavailable(db.message().to_owned())
            }
            // SQLite raises `Protocol` only for a statement it cannot take
            // (a NUL byte, over 2 GiB, a bad parameter name), which the
            // stores' fixed SQL never is; on PostgreSQL it is a connection
            // whose messages stopped making sense.
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::WorkerCrashed => StoreError::Unavailable(error.to_string()),
            _ => StoreError::Other(error.to_string()),
        }
    }
}

/// Whether a database's own error is worth retrying later, as its backend
/// tells it.
fn is_transient(error: &dyn DatabaseError) -> bool {
    let code = error.code();
    if error.try_downcast_ref::<SqliteError>().is_some() {
        sqlite_busy(code.as_deref())
    } else if error.try_downcast_ref::<PgDatabaseError>().is_some() {
        postgres_transient(code.as_deref())
    } else {
        false
    }
}

/// SQLITE_BUSY (5), SQLITE_LOCKED (6) and their extended codes.
fn sqlite_busy(code: Option<&str>) -> bool {
    code.and_then(|code| code.parse::<i32>().ok())
        .is_some_and(|code| matches!(code & 0xff, 5 | 6))
}

/// SQLSTATE classes worth retrying later: 08 (connection exception),
/// 53 (insufficient resources), 57P (operator intervention: admin shutdown,
/// crash shutdown, cannot connect now), 57014 (statement timeout), 40001 and
/// 40P01 (serialization failure, deadlock).
fn postgres_transient(code: Option<&str>) -> bool {
    code.is_some_and(|code| {
        code.starts_with("08")
            || code.starts_with("53")
            || code.starts_with("57P")
            || code == "57014"
            || code == "40001"
            || code == "40P01"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_connection_shutdown_and_lock_codes_are_transient() {
        for code in [
            "08006", "08001", "57P01", "57P03", "53300", "57014", "40001", "40P01",
        ] {
            assert!(postgres_transient(Some(code)), "{code}");
        }
        for code in ["23505", "42P01", "22P02"] {
            assert!(!postgres_transient(Some(code)), "{code}");
        }
        assert!(!postgres_transient(None));
    }

    #[test]
    fn sqlite_busy_and_locked_codes_are_transient_with_their_extended_codes() {
        // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE.
        for code in ["5", "6", "517", "262"] {
            assert!(sqlite_busy(Some(code)), "{code}");
        }
        // SQLITE_CONSTRAINT_UNIQUE, SQLITE_IOERR, SQLITE_FULL.
        for code in ["2067", "10", "13"] {
            assert!(!sqlite_busy(Some(code)), "{code}");
        }
        assert!(!sqlite_busy(None));
    }

    #[test]
    fn an_exhausted_pool_is_unavailable_and_a_missing_row_not_found() {
        assert!(matches!(
            StoreError::from(sqlx::Error::PoolTimedOut),
            StoreError::Unavailable(_)
        ));
        assert!(matches!(
            StoreError::from(sqlx::Error::RowNotFound),
            StoreError::NotFound
        ));
        assert!(matches!(
            StoreError::from(sqlx::Error::ColumnNotFound("x".into())),
            StoreError::Other(_)
        ));
    }
}
