//! Mapping of sqlx errors onto the store's narrow error enum.

use intake_core::store::StoreError;

/// Maps a sqlx error: unique violations become `Conflict`, connection and
/// busy conditions `Unavailable`, the rest `Other`.
pub fn map_error(error: sqlx::Error) -> StoreError {
    match &error {
        sqlx::Error::RowNotFound => StoreError::NotFound,
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Conflict(db.message().to_owned())
        }
        sqlx::Error::Database(db) if is_busy(db.code().as_deref()) => {
            StoreError::Unavailable(db.message().to_owned())
        }
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::WorkerCrashed => StoreError::Unavailable(error.to_string()),
        _ => StoreError::Other(error.to_string()),
    }
}

/// SQLITE_BUSY (5), SQLITE_LOCKED (6) and their extended codes.
fn is_busy(code: Option<&str>) -> bool {
    code.and_then(|code| code.parse::<i32>().ok())
        .is_some_and(|code| matches!(code & 0xff, 5 | 6))
}
