//! The process's budget of memory for image work (issue 13): five 40-megapixel
//! PNGs of one request held 3 GB, three such requests at once 9 GB.
//!
//! Before its pixels are decoded, an image takes its weight (what cleaning it
//! holds at its peak, from its header: see `intake_images::Inspected`)
//! from one weighted semaphore, and gives it back when the work on it ends,
//! whether it finished, failed or was stopped. Images wait their turn in
//! the order they asked (tokio's semaphore is fair), so a large image is not
//! passed over for ever by small ones; a request waits a bounded time in all,
//! then gets a 503.

use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// Permits count KiB: a `u32` of them (what one take may ask) is 4 TiB.
const UNIT: u64 = 1024;

/// The memory image work of this process may hold at once.
#[derive(Debug)]
pub struct ImageBudget {
    permits: Arc<Semaphore>,
    bytes: u64,
}

/// A share of the budget, given back when dropped.
#[derive(Debug)]
pub struct Share(#[allow(dead_code)] OwnedSemaphorePermit);

/// Why no share was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The share did not come free before the deadline.
    Deadline,
    /// The share is larger than the whole budget: it could never be had.
    /// `intake serve` refuses a budget that cannot hold one image at the
    /// limits, so only a configuration made in code meets this.
    OverBudget,
}

impl ImageBudget {
    /// A budget of `bytes` (rounded down to whole KiB).
    pub fn new(bytes: u64) -> Self {
        let units = usize::try_from(bytes / UNIT)
            .unwrap_or(usize::MAX)
            .min(Semaphore::MAX_PERMITS);
        ImageBudget {
            permits: Arc::new(Semaphore::new(units)),
            bytes,
        }
    }

    /// The configured size, in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Takes `weight` bytes (rounded up to whole KiB), waiting for them
    /// until `deadline` at the latest.
    pub async fn take(&self, weight: u64, deadline: Instant) -> Result<Share, Refused> {
        let units = weight.div_ceil(UNIT);
        let units = u32::try_from(units).map_err(|_| Refused::OverBudget)?;
        if u64::from(units) > self.bytes / UNIT {
            return Err(Refused::OverBudget);
        }
        let wanted = self.permits.clone().acquire_many_owned(units);
        match tokio::time::timeout_at(deadline, wanted).await {
            Ok(Ok(permit)) => Ok(Share(permit)),
            // The semaphore is never closed.
            Ok(Err(_)) | Err(_) => Err(Refused::Deadline),
        }
    }

    /// Bytes free right now.
    pub fn available(&self) -> u64 {
        self.permits.available_permits() as u64 * UNIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn shares_are_given_back_when_dropped() {
        let budget = ImageBudget::new(10 * 1024 * 1024);
        let soon = Instant::now() + Duration::from_millis(50);
        let first = budget.take(6 * 1024 * 1024, soon).await.unwrap();
        assert_eq!(budget.available(), 4 * 1024 * 1024);
        assert_eq!(
            budget.take(6 * 1024 * 1024, soon).await.unwrap_err(),
            Refused::Deadline
        );
        drop(first);
        let later = Instant::now() + Duration::from_millis(50);
        assert!(budget.take(6 * 1024 * 1024, later).await.is_ok());
    }

    #[tokio::test]
    async fn a_weight_over_the_whole_budget_is_refused_without_waiting() {
        let budget = ImageBudget::new(1024 * 1024);
        let never = Instant::now() + Duration::from_secs(3600);
        assert_eq!(
            budget.take(1024 * 1024 + 1, never).await.unwrap_err(),
            Refused::OverBudget
        );
    }

    #[tokio::test]
    async fn weights_are_rounded_up_to_whole_kib() {
        let budget = ImageBudget::new(4096);
        let soon = Instant::now() + Duration::from_millis(50);
        let _share = budget.take(1, soon).await.unwrap();
        assert_eq!(budget.available(), 3072);
    }
}
