//! Every key of the store, held in memory and read again from the database
//! at most every [`TTL`], so that a signed request costs no database read for
//! its key (on SQLite that read, a round trip to sqlx's connection thread,
//! was most of what the preferred-start options cost; BENCHMARKS.md).
//!
//! A key is found or not found in memory alike, so an unknown key id costs
//! what a known one costs: no read tells them apart by time (issue 13).
//!
//! - A key created or revoked through this store takes effect here at once,
//!   also when a read of the table that began before its write (and so may
//!   not hold it) ends after it: such a read's answer gets the write again.
//! - A revocation made through another process (`intake keys revoke`,
//!   another server) takes effect within [`TTL`] plus the read under way, so
//!   within the 2 s that docs/operations.md gives.
//! - A key created through another process is found within [`MISS_TTL`]: an
//!   id not in memory makes the whole table be read again if the last read
//!   is older than that, so made-up ids cost the database at most one read
//!   of the keys per [`MISS_TTL`], however many are sent.

use intake_core::keys::ApiKey;
use intake_core::store::StoreError;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// How long the keys read are used before they are read again.
pub const TTL: Duration = Duration::from_secs(1);

/// How old the keys read may be when an id is not among them before they
/// are read again to look for it.
pub const MISS_TTL: Duration = Duration::from_millis(250);

/// The keys by id and when they were read; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct KeyCache {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    keys: RwLock<Option<Snapshot>>,
    /// Held while the keys are read, so that many requests finding them old
    /// make one read, not one each.
    reading: tokio::sync::Mutex<()>,
    /// The keys written through this store, with when, since the start of
    /// the last read: a read under way may have missed them. Locked before
    /// `keys` wherever both are.
    written: std::sync::Mutex<Vec<(Instant, ApiKey)>>,
}

#[derive(Debug)]
struct Snapshot {
    read: Instant,
    keys: HashMap<String, ApiKey>,
}

impl KeyCache {
    /// The key `key_id`, from memory, reading every key with `read_all`
    /// first when the keys in memory are too old to answer.
    pub async fn find<F, Fut>(
        &self,
        key_id: &str,
        read_all: F,
    ) -> Result<Option<ApiKey>, StoreError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Vec<ApiKey>, StoreError>>,
    {
        if let Some(answer) = self.lookup(key_id, Instant::now()) {
            return Ok(answer);
        }
        let _reading = self.inner.reading.lock().await;
        // Another request may have read them while this one waited.
        if let Some(answer) = self.lookup(key_id, Instant::now()) {
            return Ok(answer);
        }
        let read = Instant::now();
        let keys = read_all().await?;
        let found = keys.iter().find(|key| key.key_id == key_id).cloned();
        self.replace(read, keys);
        Ok(found)
    }

    /// Keeps `key`, just written through this store.
    pub fn put(&self, key: &ApiKey) {
        let mut written = self
            .inner
            .written
            .lock()
            .expect("the key cache is never poisoned");
        written.push((Instant::now(), key.clone()));
        let mut keys = self
            .inner
            .keys
            .write()
            .expect("the key cache is never poisoned");
        if let Some(snapshot) = keys.as_mut() {
            snapshot.keys.insert(key.key_id.clone(), key.clone());
        }
    }

    /// The answer the keys in memory give: the key, or `Some(None)` when
    /// they were read recently enough for a miss to be believed; `None`
    /// when they are too old to answer from.
    fn lookup(&self, key_id: &str, now: Instant) -> Option<Option<ApiKey>> {
        let keys = self
            .inner
            .keys
            .read()
            .expect("the key cache is never poisoned");
        let snapshot = keys.as_ref()?;
        let age = now.saturating_duration_since(snapshot.read);
        match snapshot.keys.get(key_id) {
            Some(key) if age < TTL => Some(Some(key.clone())),
            None if age < MISS_TTL => Some(None),
            _ => None,
        }
    }

    /// Keeps the keys of a read that began at `read`, with the writes made
    /// through this store since then (which the read may not hold).
    fn replace(&self, read: Instant, keys: Vec<ApiKey>) {
        let mut keys: HashMap<String, ApiKey> = keys
            .into_iter()
            .map(|key| (key.key_id.clone(), key))
            .collect();
        let mut written = self
            .inner
            .written
            .lock()
            .expect("the key cache is never poisoned");
        written.retain(|(at, _)| *at >= read);
        for (_, key) in written.iter() {
            keys.insert(key.key_id.clone(), key.clone());
        }
        *self
            .inner
            .keys
            .write()
            .expect("the key cache is never poisoned") = Some(Snapshot { read, keys });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_core::keys::KeyPolicy;
    use intake_core::secrets::SealedSecret;
    use intake_core::Environment;
    use std::sync::atomic::{AtomicUsize, Ordering};
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

    /// A table of keys that counts how often it is read.
    #[derive(Default)]
    struct Table {
        keys: std::sync::Mutex<Vec<ApiKey>>,
        reads: AtomicUsize,
    }

    impl Table {
        async fn read_all(&self) -> Result<Vec<ApiKey>, StoreError> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            Ok(self.keys.lock().unwrap().clone())
        }
        /// What `cache` answers for `key_id` over this table.
        async fn find(&self, cache: &KeyCache, key_id: &str) -> Option<ApiKey> {
            cache.find(key_id, || self.read_all()).await.unwrap()
        }
        fn reads(&self) -> usize {
            self.reads.load(Ordering::SeqCst)
        }
    }

    #[tokio::test]
    async fn known_and_unknown_ids_are_answered_from_one_read_of_the_table() {
        let table = Table::default();
        table.keys.lock().unwrap().push(key("stg_a"));
        let cache = KeyCache::default();
        assert_eq!(table.find(&cache, "stg_a").await, Some(key("stg_a")));
        for _ in 0..100 {
            assert!(table.find(&cache, "stg_a").await.is_some());
            assert!(table.find(&cache, "stg_nope").await.is_none());
        }
        assert_eq!(table.reads(), 1);
    }

    #[tokio::test]
    async fn a_key_made_elsewhere_is_found_after_the_miss_ttl_and_made_up_ids_read_at_most_once_per_miss_ttl(
    ) {
        let table = Table::default();
        let cache = KeyCache::default();
        assert!(table.find(&cache, "stg_new").await.is_none());
        table.keys.lock().unwrap().push(key("stg_new"));
        // Within the miss TTL the earlier read is believed.
        assert!(table.find(&cache, "stg_new").await.is_none());
        assert_eq!(table.reads(), 1);
        tokio::time::sleep(MISS_TTL).await;
        assert!(table.find(&cache, "stg_new").await.is_some());
        assert_eq!(table.reads(), 2);
        for n in 0..1000 {
            let made_up = format!("stg_{n}");
            assert!(table.find(&cache, &made_up).await.is_none());
        }
        assert!(table.reads() <= 3, "{} reads", table.reads());
    }

    #[tokio::test]
    async fn a_revocation_elsewhere_is_seen_within_the_ttl_and_one_made_here_at_once() {
        let table = Table::default();
        table
            .keys
            .lock()
            .unwrap()
            .extend([key("stg_a"), key("stg_b")]);
        let cache = KeyCache::default();
        assert!(table
            .find(&cache, "stg_a")
            .await
            .unwrap()
            .revoked_at
            .is_none());
        let revoked = |id: &str| ApiKey {
            revoked_at: Some(OffsetDateTime::UNIX_EPOCH),
            ..key(id)
        };
        // Through this store: at once.
        cache.put(&revoked("stg_b"));
        assert_eq!(table.find(&cache, "stg_b").await, Some(revoked("stg_b")));
        // Elsewhere: once the keys in memory are older than the TTL.
        table.keys.lock().unwrap()[0] = revoked("stg_a");
        assert!(table
            .find(&cache, "stg_a")
            .await
            .unwrap()
            .revoked_at
            .is_none());
        tokio::time::sleep(TTL).await;
        assert_eq!(table.find(&cache, "stg_a").await, Some(revoked("stg_a")));
    }

    /// A key written through this store while a read of the table is under
    /// way, which that read does not hold, is still found (as revoked when
    /// the write revoked it): the read's answer does not undo it.
    #[tokio::test]
    async fn a_write_during_a_read_that_missed_it_is_kept() {
        let cache = KeyCache::default();
        let table = Table::default();
        table.keys.lock().unwrap().push(key("stg_old"));
        assert!(table.find(&cache, "stg_old").await.is_some());
        let revoked = ApiKey {
            revoked_at: Some(OffsetDateTime::UNIX_EPOCH),
            ..key("stg_old")
        };
        tokio::time::sleep(TTL).await;
        let (started, start) = tokio::sync::oneshot::channel::<()>();
        let (finish, finished) = tokio::sync::oneshot::channel::<()>();
        let before_the_writes = vec![key("stg_old")];
        let reader = {
            let cache = cache.clone();
            tokio::spawn(async move {
                cache
                    .find("stg_other", || async move {
                        started.send(()).unwrap();
                        finished.await.unwrap();
                        Ok(before_the_writes)
                    })
                    .await
            })
        };
        start.await.unwrap();
        cache.put(&key("stg_new"));
        cache.put(&revoked);
        finish.send(()).unwrap();
        assert_eq!(reader.await.unwrap().unwrap(), None);
        // Answered from memory: a read of this table would not be believed.
        let unread = Table::default();
        assert_eq!(unread.find(&cache, "stg_new").await, Some(key("stg_new")));
        assert_eq!(unread.find(&cache, "stg_old").await, Some(revoked));
        assert_eq!(unread.reads(), 0);
    }

    #[tokio::test]
    async fn a_failed_read_is_an_error_and_the_next_request_reads_again() {
        let cache = KeyCache::default();
        let failed = cache
            .find("stg_a", || async {
                Err(StoreError::Unavailable("down".to_owned()))
            })
            .await;
        assert!(failed.is_err());
        let table = Table::default();
        table.keys.lock().unwrap().push(key("stg_a"));
        assert!(table.find(&cache, "stg_a").await.is_some());
    }
}
