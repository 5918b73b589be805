//! Mapping of sqlx errors onto the store's narrow error enum.

use intake_core::store::StoreError;

/// Maps a sqlx error: unique violations become `Conflict`; lost connections,
/// an exhausted pool and a server shutting down or refusing connections
/// `Unavailable`; the rest `Other`.
pub fn map_error(error: sqlx::Error) -> StoreError {
    match &error {
        sqlx::Error::RowNotFound => StoreError::NotFound,
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Conflict(db.message().to_owned())
        }
        sqlx::Error::Database(db) if is_transient(db.code().as_deref()) => {
            StoreError::Unavailable(db.message().to_owned())
        }
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => StoreError::Unavailable(error.to_string()),
        _ => StoreError::Other(error.to_string()),
    }
}

/// SQLSTATE classes worth retrying later: 08 (connection exception),
/// 53 (insufficient resources), 57P (operator intervention: admin shutdown,
/// crash shutdown, cannot connect now), 57014 (statement timeout), 40001 and
/// 40P01 (serialization failure, deadlock).
fn is_transient(code: Option<&str>) -> bool {
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
    fn connection_and_shutdown_codes_are_transient() {
        for code in [
            "08006", "08001", "57P01", "57P03", "53300", "40001", "40P01",
        ] {
            assert!(is_transient(Some(code)), "{code}");
        }
        for code in ["23505", "42P01", "22P02"] {
            assert!(!is_transient(Some(code)), "{code}");
        }
        assert!(!is_transient(None));
    }

    #[test]
    fn pool_timeouts_are_unavailable() {
        assert!(matches!(
            map_error(sqlx::Error::PoolTimedOut),
            StoreError::Unavailable(_)
        ));
        assert!(matches!(
            map_error(sqlx::Error::RowNotFound),
            StoreError::NotFound
        ));
    }
}
