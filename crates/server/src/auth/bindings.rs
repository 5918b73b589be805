//! Which request each unbound signature was first seen with, in this process.
//!
//! A signature that does not cover `(request-target)`, or whose request has a
//! body no digest covers, could be sent again with another method, path or
//! body and still verify. This map binds such a signature to the first request
//! it came with, for as long as the signature can verify (twice the allowed
//! clock skew); a repeat of that request is let through, any other is refused.
//!
//! The map is bounded: at most `cap` entries in all, and at most `per_key` of
//! one key, so a key holder flooding it with fresh signatures shuts out its
//! own unbound signatures before anyone else's. A full map never forgets an
//! entry early (that would let a flood unbind a victim's signature); it refuses
//! new signatures until the oldest entry expires. About 9 MB at 100,000
//! entries: see `docs/decisions.md`.

use crate::config::ServerConfig;
use sha2::{Digest, Sha256};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most entries the map holds, in all.
pub const CAP: usize = 100_000;

/// The first 16 bytes of a SHA-256: 128 bits, which an attacker who cannot
/// forge a signature cannot usefully collide.
pub type Hash = [u8; 16];

/// Whether a signature pins its request by itself: it covers
/// `(request-target)` and, when the request has a body, a digest of it. Only
/// the others need an entry.
pub fn pins_its_request(covered: &[String], has_body: bool) -> bool {
    let covers = |name: &str| covered.iter().any(|c| c.eq_ignore_ascii_case(name));
    covers("(request-target)") && (!has_body || covers("digest") || covers("content-digest"))
}

/// The hash a signature is known by: its key and its MAC bytes.
pub fn signature_hash(key_id: &str, signature: &[u8]) -> Hash {
    truncated(
        Sha256::new()
            .chain_update(key_id.as_bytes())
            .chain_update([0])
            .chain_update(signature),
    )
}

/// The hash of a request: its method, its target as sent and its body.
pub fn request_hash(method: &str, target: &str, body: &[u8]) -> Hash {
    truncated(
        Sha256::new()
            .chain_update(method.as_bytes())
            .chain_update(b" ")
            .chain_update(target.as_bytes())
            .chain_update(b"\n")
            .chain_update(body),
    )
}

fn truncated(hasher: Sha256) -> Hash {
    let mut hash = Hash::default();
    hash.copy_from_slice(&hasher.finalize()[..16]);
    hash
}

/// How a signature stands after [`Bindings::bind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Seen for the first time: now bound to this request.
    First,
    /// Seen before with this very request.
    Again,
}

/// Why [`Bindings::bind`] refused a signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The signature is bound to another request.
    OtherRequest,
    /// The key holds its whole share of entries; one frees after `retry_after`.
    KeyShareFull { share: usize, retry_after: Duration },
    /// The map holds `cap` entries; one frees after `retry_after`.
    Full { cap: usize, retry_after: Duration },
}

/// The map; see the module documentation.
#[derive(Debug)]
pub struct Bindings {
    lifetime: Duration,
    cap: usize,
    per_key: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Signature hash to the hash of its first request.
    requests: HashMap<Hash, Hash>,
    /// Each key's signatures, oldest first, with when they expire. Every entry
    /// lives as long, so each queue is also in order of expiry.
    by_key: HashMap<String, VecDeque<(Hash, Instant)>>,
}

impl Bindings {
    /// A map whose entries live `lifetime`, holding at most `cap` entries and
    /// `per_key` of one key (`per_key` is taken as at most `cap`).
    pub fn new(lifetime: Duration, cap: usize, per_key: usize) -> Self {
        Bindings {
            lifetime,
            cap,
            per_key: per_key.min(cap),
            inner: Mutex::default(),
        }
    }

    /// The map of a server: entries live twice the allowed skew (a signature
    /// verifies from `max_skew` before its date to `max_skew` after, so no
    /// longer than that from its first use), [`CAP`] in all, and a key's
    /// share what its rate limit lets it send in that time (burst included),
    /// so a key that keeps to its rate is never refused for its share.
    pub fn for_config(config: &ServerConfig) -> Self {
        let lifetime = config.max_skew * 2;
        let per_key = if config.rate_limit_per_second == 0 {
            CAP
        } else {
            let per_second = u64::from(config.rate_limit_per_second);
            let sent = u64::from(config.rate_limit_burst) + per_second * lifetime.as_secs();
            usize::try_from(sent).unwrap_or(CAP)
        };
        Bindings::new(lifetime, CAP, per_key)
    }

    /// Binds `signature` (of `key_id`) to `request` at `now`, or tells why not.
    pub fn bind(
        &self,
        key_id: &str,
        signature: Hash,
        request: Hash,
        now: Instant,
    ) -> Result<Bound, Refused> {
        let mut inner = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        inner.expire(now);
        if let Some(first) = inner.requests.get(&signature) {
            return if *first == request {
                Ok(Bound::Again)
            } else {
                Err(Refused::OtherRequest)
            };
        }
        if inner.requests.len() >= self.cap {
            return Err(Refused::Full {
                cap: self.cap,
                retry_after: inner.first_expiry(now),
            });
        }
        let queue = match inner.by_key.entry(key_id.to_owned()) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(VecDeque::new()),
        };
        if queue.len() >= self.per_key {
            let oldest = queue.front().map(|(_, expires)| *expires);
            return Err(Refused::KeyShareFull {
                share: self.per_key,
                retry_after: oldest.map_or(Duration::ZERO, |at| at.saturating_duration_since(now)),
            });
        }
        queue.push_back((signature, now + self.lifetime));
        inner.requests.insert(signature, request);
        Ok(Bound::First)
    }

    /// How long an entry lives.
    pub fn lifetime(&self) -> Duration {
        self.lifetime
    }

    /// Entries held now (expired ones may linger until the next [`Bindings::bind`]).
    pub fn held(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .requests
            .len()
    }
}

impl Inner {
    /// Forgets every entry expired at `now`: the fronts of the keys' queues.
    fn expire(&mut self, now: Instant) {
        let requests = &mut self.requests;
        self.by_key.retain(|_, queue| {
            while let Some((signature, _)) = queue.front().filter(|(_, at)| *at <= now) {
                requests.remove(signature);
                queue.pop_front();
            }
            !queue.is_empty()
        });
    }

    /// How long until the first entry of any key expires.
    fn first_expiry(&self, now: Instant) -> Duration {
        self.by_key
            .values()
            .filter_map(|queue| queue.front().map(|(_, at)| *at))
            .min()
            .map_or(Duration::ZERO, |at| at.saturating_duration_since(now))
    }
}

#[cfg(test)]
mod tests {
    use super::{pins_its_request, request_hash, signature_hash, Bindings, Bound, Hash, Refused};
    use std::time::{Duration, Instant};

    const LIFETIME: Duration = Duration::from_secs(600);

    fn hash(n: u8) -> Hash {
        [n; 16]
    }

    #[test]
    fn a_signature_is_bound_to_its_first_request_and_refused_with_another() {
        let bindings = Bindings::new(LIFETIME, 10, 10);
        let now = Instant::now();
        assert_eq!(bindings.bind("k", hash(1), hash(10), now), Ok(Bound::First));
        assert_eq!(bindings.bind("k", hash(1), hash(10), now), Ok(Bound::Again));
        assert_eq!(
            bindings.bind("k", hash(1), hash(11), now),
            Err(Refused::OtherRequest)
        );
        assert_eq!(bindings.bind("k", hash(2), hash(11), now), Ok(Bound::First));
        assert_eq!(bindings.held(), 2);
    }

    #[test]
    fn an_entry_holds_for_its_whole_lifetime_and_is_forgotten_after() {
        let bindings = Bindings::new(LIFETIME, 10, 10);
        let start = Instant::now();
        bindings.bind("k", hash(1), hash(10), start).unwrap();
        let last_moment = start + LIFETIME - Duration::from_millis(1);
        assert_eq!(
            bindings.bind("k", hash(1), hash(11), last_moment),
            Err(Refused::OtherRequest)
        );
        // Expired: the signature can no longer verify, so its entry goes.
        assert_eq!(
            bindings.bind("k", hash(1), hash(11), start + LIFETIME),
            Ok(Bound::First)
        );
        assert_eq!(bindings.held(), 1);
    }

    #[test]
    fn a_full_map_refuses_new_signatures_until_the_oldest_expires_and_never_evicts() {
        let bindings = Bindings::new(LIFETIME, 3, 3);
        let start = Instant::now();
        for n in 0..3u8 {
            let at = start + Duration::from_secs(u64::from(n) * 10);
            bindings
                .bind(&format!("k{n}"), hash(n), hash(10), at)
                .unwrap();
        }
        let later = start + Duration::from_secs(100);
        assert_eq!(
            bindings.bind("k9", hash(9), hash(10), later),
            Err(Refused::Full {
                cap: 3,
                retry_after: Duration::from_secs(500)
            })
        );
        // Every bound signature still holds to its request.
        for n in 0..3u8 {
            assert_eq!(
                bindings.bind(&format!("k{n}"), hash(n), hash(11), later),
                Err(Refused::OtherRequest)
            );
            assert_eq!(
                bindings.bind(&format!("k{n}"), hash(n), hash(10), later),
                Ok(Bound::Again)
            );
        }
        assert_eq!(
            bindings.bind("k9", hash(9), hash(10), start + LIFETIME),
            Ok(Bound::First)
        );
        assert_eq!(bindings.held(), 3);
    }

    #[test]
    fn a_key_over_its_share_is_refused_while_other_keys_still_bind() {
        let bindings = Bindings::new(LIFETIME, 10, 2);
        let start = Instant::now();
        bindings.bind("flood", hash(1), hash(10), start).unwrap();
        bindings
            .bind("flood", hash(2), hash(10), start + Duration::from_secs(1))
            .unwrap();
        let now = start + Duration::from_secs(60);
        assert_eq!(
            bindings.bind("flood", hash(3), hash(10), now),
            Err(Refused::KeyShareFull {
                share: 2,
                retry_after: Duration::from_secs(540)
            })
        );
        assert_eq!(
            bindings.bind("other", hash(4), hash(10), now),
            Ok(Bound::First)
        );
        // Once its oldest entry expires, the key has room for one more.
        assert_eq!(
            bindings.bind("flood", hash(3), hash(10), start + LIFETIME),
            Ok(Bound::First)
        );
        assert_eq!(
            bindings.bind("flood", hash(5), hash(10), start + LIFETIME),
            Err(Refused::KeyShareFull {
                share: 2,
                retry_after: Duration::from_secs(1)
            })
        );
    }

    #[test]
    fn a_share_above_the_cap_is_the_cap() {
        let bindings = Bindings::new(LIFETIME, 2, 100);
        let now = Instant::now();
        bindings.bind("k", hash(1), hash(10), now).unwrap();
        bindings.bind("k", hash(2), hash(10), now).unwrap();
        assert!(matches!(
            bindings.bind("k", hash(3), hash(10), now),
            Err(Refused::Full { cap: 2, .. })
        ));
    }

    #[test]
    fn expired_entries_of_every_key_are_forgotten_and_their_keys_with_them() {
        let bindings = Bindings::new(LIFETIME, 100, 100);
        let start = Instant::now();
        for n in 0..50u8 {
            bindings
                .bind(&format!("k{}", n % 5), hash(n), hash(10), start)
                .unwrap();
        }
        assert_eq!(bindings.held(), 50);
        bindings
            .bind("late", hash(99), hash(10), start + LIFETIME)
            .unwrap();
        assert_eq!(bindings.held(), 1);
        let inner = bindings.inner.lock().unwrap();
        assert_eq!(inner.by_key.len(), 1, "keys without entries are dropped");
    }

    #[test]
    fn only_a_signature_over_the_target_and_any_body_pins_its_request() {
        let list = |names: &str| names.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert!(pins_its_request(&list("(request-target) host date"), false));
        assert!(pins_its_request(
            &list("(request-target) date digest"),
            true
        ));
        assert!(pins_its_request(
            &list("date (request-target) content-digest"),
            true
        ));
        assert!(!pins_its_request(&list("date"), false));
        assert!(!pins_its_request(&list("date digest"), true));
        assert!(!pins_its_request(&list("(request-target) host date"), true));
    }

    #[test]
    fn the_hashes_tell_apart_keys_methods_targets_and_bodies() {
        let sig = signature_hash("stg_a", b"mac");
        assert_ne!(sig, signature_hash("stg_b", b"mac"));
        assert_ne!(sig, signature_hash("stg_a", b"mad"));
        let request = request_hash("POST", "/v1/affiliate-job/jobs", b"{}");
        assert_eq!(
            request,
            request_hash("POST", "/v1/affiliate-job/jobs", b"{}")
        );
        assert_ne!(
            request,
            request_hash("GET", "/v1/affiliate-job/jobs", b"{}")
        );
        assert_ne!(
            request,
            request_hash("POST", "/v1/affiliate-job/jobs?x", b"{}")
        );
        assert_ne!(
            request,
            request_hash("POST", "/v1/affiliate-job/jobs", b"{ }")
        );
    }
}
