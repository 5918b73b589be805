//! The token bucket of each key (GCRA, from `governor`).

use super::retry_after_seconds;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};
use std::fmt;
use std::num::NonZeroU32;

/// One bucket per key id: `per_second` tokens added a second, holding at most `burst`.
pub struct Bucket<C: Clock = DefaultClock> {
    limiter: RateLimiter<String, DashMapStateStore<String>, C, NoOpMiddleware<C::Instant>>,
    per_second: NonZeroU32,
    burst: NonZeroU32,
}

impl fmt::Debug for Bucket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bucket({}/s, burst {})", self.per_second, self.burst)
    }
}

impl Bucket {
    /// A bucket on the real clock, or none when `per_second` is 0 (disabled).
    /// A zero `burst` with a rate is taken as a burst of one request.
    pub fn new(per_second: u32, burst: u32) -> Option<Self> {
        Bucket::with_clock(per_second, burst, DefaultClock::default())
    }
}

impl<C: Clock> Bucket<C> {
    fn with_clock(per_second: u32, burst: u32, clock: C) -> Option<Self> {
        let per_second = NonZeroU32::new(per_second)?;
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::per_second(per_second).allow_burst(burst);
        Some(Bucket {
            limiter: RateLimiter::new(quota, DashMapStateStore::default(), clock),
            per_second,
            burst,
        })
    }

    /// Takes a token of `key_id`'s bucket, or tells the whole seconds until
    /// one is there.
    pub fn check(&self, key_id: &String) -> Result<(), u64> {
        self.limiter.check_key(key_id).map_err(|not_until| {
            retry_after_seconds(not_until.wait_time_from(self.limiter.clock().now()))
        })
    }

    /// The configured rate.
    pub fn per_second(&self) -> u32 {
        self.per_second.get()
    }

    /// The configured burst.
    pub fn burst(&self) -> u32 {
        self.burst.get()
    }
}

#[cfg(test)]
mod tests {
    use super::Bucket;
    use governor::clock::FakeRelativeClock;
    use std::time::Duration;

    fn bucket(per_second: u32, burst: u32) -> (Bucket<FakeRelativeClock>, FakeRelativeClock) {
        let clock = FakeRelativeClock::default();
        (
            Bucket::with_clock(per_second, burst, clock.clone()).unwrap(),
            clock,
        )
    }

    #[test]
    fn a_zero_rate_is_no_bucket() {
        assert!(Bucket::new(0, 100).is_none());
    }

    #[test]
    fn a_full_bucket_lets_a_burst_through_then_asks_for_the_time_to_the_next_token() {
        let (bucket, _clock) = bucket(2, 3);
        let key = "stg_a".to_owned();
        for _ in 0..3 {
            assert_eq!(bucket.check(&key), Ok(()));
        }
        // Two tokens a second: the next one is half a second away, rounded up.
        assert_eq!(bucket.check(&key), Err(1));
    }

    #[test]
    fn the_wait_for_the_next_token_is_rounded_up_to_a_whole_second() {
        // One token a second, bucket of one: right after the first request the
        // next token is a second away; 300 ms later it is 700 ms away, still 1 s.
        let (bucket, clock) = bucket(1, 1);
        let key = "stg_a".to_owned();
        assert_eq!(bucket.check(&key), Ok(()));
        assert_eq!(bucket.check(&key), Err(1));
        clock.advance(Duration::from_millis(300));
        assert_eq!(bucket.check(&key), Err(1));
        clock.advance(Duration::from_millis(700));
        assert_eq!(bucket.check(&key), Ok(()));
    }

    #[test]
    fn a_drained_bucket_refills_at_the_rate() {
        // One token a second and a burst of 5, drained: the next token is 1 s
        // away however large the burst; after 2.5 s, two are back.
        let (bucket, clock) = bucket(1, 5);
        let key = "stg_a".to_owned();
        for _ in 0..5 {
            assert_eq!(bucket.check(&key), Ok(()));
        }
        assert_eq!(bucket.check(&key), Err(1));
        clock.advance(Duration::from_millis(2500));
        assert_eq!(bucket.check(&key), Ok(()));
        assert_eq!(bucket.check(&key), Ok(()));
        assert_eq!(bucket.check(&key), Err(1));
    }

    #[test]
    fn each_key_has_its_own_bucket() {
        let (bucket, _clock) = bucket(1, 1);
        assert_eq!(bucket.check(&"stg_a".to_owned()), Ok(()));
        assert_eq!(bucket.check(&"stg_a".to_owned()), Err(1));
        assert_eq!(bucket.check(&"stg_b".to_owned()), Ok(()));
    }
}
