//! Keys read in the last second, so that a busy key costs the database one
//! read a second instead of one a request (without that read, POST /jobs
//! on PostgreSQL took about a tenth more jobs a second; BENCHMARKS.md).
//!
//! A revocation made through this store takes effect at once here; one made
//! through another process (`intake keys revoke`, another server) within
//! [`TTL`] plus the read that was under way, so within the 2 s that
//! docs/operations.md gives. Only keys that exist are kept: unknown key ids
//! are always read, so a client cannot grow the cache with made-up ones.

use intake_core::keys::ApiKey;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a key read is used without reading it again.
pub const TTL: Duration = Duration::from_secs(1);

/// Keys by id, each with when it was read; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct KeyCache {
    keys: Arc<Mutex<HashMap<String, (Instant, ApiKey)>>>,
}

impl KeyCache {
    /// The key, if it was read less than [`TTL`] ago.
    pub fn get(&self, key_id: &str) -> Option<ApiKey> {
        let keys = self.keys.lock().expect("the key cache is never poisoned");
        keys.get(key_id)
            .filter(|(read, _)| read.elapsed() < TTL)
            .map(|(_, key)| key.clone())
    }

    /// Keeps `key`, read just now.
    pub fn put(&self, key: &ApiKey) {
        let mut keys = self.keys.lock().expect("the key cache is never poisoned");
        keys.insert(key.key_id.clone(), (Instant::now(), key.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_core::keys::KeyPolicy;
    use intake_core::secrets::SealedSecret;
    use intake_core::Environment;
    use time::OffsetDateTime;

    fn key(id: &str) -> ApiKey {
        ApiKey {
            key_id: id.to_owned(),
            name: "Acme".to_owned(),
            environment: Environment::Staging,
            secret: SealedSecret {
                nonce: vec![0; 24],
                ciphertext: vec![1; 48],
            },
            policy: KeyPolicy::parse(""),
            created_at: OffsetDateTime::UNIX_EPOCH,
            revoked_at: None,
        }
    }

    #[test]
    fn a_key_read_is_used_for_its_ttl_and_the_latest_read_wins() {
        let cache = KeyCache::default();
        assert!(cache.get("stg_a").is_none());
        cache.put(&key("stg_a"));
        assert_eq!(cache.get("stg_a"), Some(key("stg_a")));
        assert!(cache.get("stg_b").is_none());
        let revoked = ApiKey {
            revoked_at: Some(OffsetDateTime::UNIX_EPOCH),
            ..key("stg_a")
        };
        cache.put(&revoked);
        assert_eq!(cache.get("stg_a"), Some(revoked));
        std::thread::sleep(TTL);
        assert!(cache.get("stg_a").is_none());
    }
}
