//! A point in time as a dialect's columns hold it: PostgreSQL as
//! `timestamptz` ([`OffsetDateTime`]), SQLite, where times are compared, as
//! unix milliseconds ([`Millis`]). Rows that hold such a time are generic
//! over it, so one row type and one conversion serve both.

use intake_core::store::StoreError;
use time::OffsetDateTime;

/// A time as stored, and back.
pub trait StoredTime: Sized + Send + Sync + Unpin + 'static {
    /// `at` as this dialect stores it.
    fn stored(at: OffsetDateTime) -> Self;

    /// The time this stored value stands for.
    fn time(self) -> Result<OffsetDateTime, StoreError>;
}

impl StoredTime for OffsetDateTime {
    fn stored(at: OffsetDateTime) -> Self {
        at
    }

    fn time(self) -> Result<OffsetDateTime, StoreError> {
        Ok(self)
    }
}

/// Unix milliseconds (an `INTEGER` column): what SQLite compares and orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, sqlx::Type)]
#[sqlx(transparent)]
pub struct Millis(pub i64);

impl StoredTime for Millis {
    /// Truncated to the millisecond.
    fn stored(at: OffsetDateTime) -> Self {
        Millis((at.unix_timestamp_nanos() / 1_000_000) as i64)
    }

    fn time(self) -> Result<OffsetDateTime, StoreError> {
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(self.0) * 1_000_000)
            .map_err(|_| StoreError::Other(format!("a stored time is out of range: {} ms", self.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_keep_the_millisecond_and_drop_the_rest() {
        let at = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789).unwrap();
        let stored = Millis::stored(at);
        assert_eq!(stored, Millis(1_700_000_000_123));
        assert_eq!(
            stored.time().unwrap(),
            OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_000_000).unwrap()
        );
        assert!(Millis(i64::MAX).time().is_err());
    }
}
