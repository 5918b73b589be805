//! A cap on the request body bytes this process holds at once, across all
//! its requests (issue 13).
//!
//! Bodies are read whole into memory once their signature is good (the
//! digest, the bindings and the handlers need all of them), so each one
//! costs up to its body limit: 50 MiB for a job with photos. The per-key
//! limits bound what one key has in flight, not what all keys together
//! have. A request takes its share of this budget before its body is
//! buffered (its Content-Length, or step by step for a chunked body) and
//! holds it until its answer is made; a request that cannot get its share
//! within [`BODY_BUDGET_WAIT`] is answered `503` with `Retry-After`, having
//! created nothing.

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a request waits for its share of the budget before its `503`:
/// long enough for requests in flight to finish and give theirs back,
/// short against the body read timeout.
pub const BODY_BUDGET_WAIT: Duration = Duration::from_secs(2);

/// Shares are counted in KiB, so that one acquisition (at most `u32::MAX`
/// units) covers any body limit.
const UNIT: usize = 1024;

/// The budget of one process; see the module documentation.
#[derive(Debug)]
pub struct BodyBudget {
    units: Arc<Semaphore>,
    total_units: usize,
    wait: Duration,
}

/// The part of the budget one request holds; given back when dropped.
#[derive(Debug, Default)]
pub struct Share {
    permit: Option<OwnedSemaphorePermit>,
}

/// The budget did not have the room asked for within the wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exhausted {
    /// The whole budget, in bytes.
    pub budget_bytes: usize,
}

impl BodyBudget {
    /// A budget of `bytes` (rounded down to whole KiB) whose requests wait
    /// at most `wait` for their share.
    pub fn new(bytes: usize, wait: Duration) -> Self {
        let total_units = (bytes / UNIT).min(Semaphore::MAX_PERMITS);
        BodyBudget {
            units: Arc::new(Semaphore::new(total_units)),
            total_units,
            wait,
        }
    }

    /// The whole budget, in bytes.
    pub fn budget_bytes(&self) -> usize {
        self.total_units * UNIT
    }

    /// Bytes not held by any request just now.
    pub fn available_bytes(&self) -> usize {
        self.units.available_permits() * UNIT
    }

    /// Grows `share` until it covers `bytes` in all, waiting at most the
    /// budget's wait for the room; `share` is left as it was on failure.
    pub async fn cover(&self, share: &mut Share, bytes: usize) -> Result<(), Exhausted> {
        let exhausted = Exhausted {
            budget_bytes: self.budget_bytes(),
        };
        let held = share.permit.as_ref().map_or(0, |p| p.num_permits());
        let wanted = bytes.div_ceil(UNIT);
        let Some(more) = wanted.checked_sub(held).filter(|more| *more > 0) else {
            return Ok(());
        };
        // More than the whole budget never fits: no use waiting for it.
        if wanted > self.total_units {
            return Err(exhausted);
        }
        let more = u32::try_from(more).map_err(|_| exhausted)?;
        let acquire = self.units.clone().acquire_many_owned(more);
        let permit = match tokio::time::timeout(self.wait, acquire).await {
            Ok(Ok(permit)) => permit,
            // Timed out, or the semaphore was closed (it never is).
            Ok(Err(_)) | Err(_) => return Err(exhausted),
        };
        match &mut share.permit {
            Some(held) => held.merge(permit),
            None => share.permit = Some(permit),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIB: usize = 1024;

    fn budget(kib: usize) -> BodyBudget {
        BodyBudget::new(kib * KIB, Duration::from_millis(50))
    }

    #[tokio::test]
    async fn a_share_is_held_until_dropped_and_then_given_back() {
        let budget = budget(100);
        let mut share = Share::default();
        budget.cover(&mut share, 60 * KIB).await.unwrap();
        assert_eq!(budget.available_bytes(), 40 * KIB);
        drop(share);
        assert_eq!(budget.available_bytes(), 100 * KIB);
    }

    #[tokio::test]
    async fn a_share_grows_by_what_it_lacks_and_never_shrinks() {
        let budget = budget(100);
        let mut share = Share::default();
        budget.cover(&mut share, 10 * KIB).await.unwrap();
        budget.cover(&mut share, 30 * KIB).await.unwrap();
        budget.cover(&mut share, 20 * KIB).await.unwrap();
        assert_eq!(budget.available_bytes(), 70 * KIB);
        // A part of a KiB takes a whole one.
        budget.cover(&mut share, 30 * KIB + 1).await.unwrap();
        assert_eq!(budget.available_bytes(), 69 * KIB);
    }

    #[tokio::test]
    async fn a_share_that_does_not_fit_is_refused_after_the_wait_and_leaves_the_share_as_it_was() {
        let budget = budget(100);
        let mut first = Share::default();
        budget.cover(&mut first, 90 * KIB).await.unwrap();
        let mut second = Share::default();
        budget.cover(&mut second, 5 * KIB).await.unwrap();
        assert_eq!(
            budget.cover(&mut second, 20 * KIB).await,
            Err(Exhausted {
                budget_bytes: 100 * KIB
            })
        );
        assert_eq!(budget.available_bytes(), 5 * KIB);
        drop(first);
        budget.cover(&mut second, 20 * KIB).await.unwrap();
        assert_eq!(budget.available_bytes(), 80 * KIB);
    }

    #[tokio::test]
    async fn more_than_the_whole_budget_is_refused_at_once() {
        let budget = BodyBudget::new(100 * KIB, Duration::from_secs(3600));
        let mut share = Share::default();
        let refused = budget.cover(&mut share, 101 * KIB).await;
        assert!(refused.is_err());
        assert_eq!(budget.available_bytes(), 100 * KIB);
    }

    #[tokio::test]
    async fn a_waiting_share_gets_its_room_when_another_is_given_back_in_time() {
        let budget = Arc::new(BodyBudget::new(100 * KIB, Duration::from_secs(3600)));
        let mut first = Share::default();
        budget.cover(&mut first, 100 * KIB).await.unwrap();
        let waiting = {
            let budget = budget.clone();
            tokio::spawn(async move {
                let mut share = Share::default();
                budget.cover(&mut share, 50 * KIB).await.map(|()| share)
            })
        };
        drop(first);
        let share = waiting.await.unwrap().unwrap();
        assert_eq!(budget.available_bytes(), 50 * KIB);
        drop(share);
    }
}
