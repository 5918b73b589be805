//! Affiliate keys: written, read, listed and revoked; and the ping.

use intake_core::environment::Environment;
use intake_core::keys::{KeyPolicy, NewKey};
use intake_core::secrets::MasterKey;
use intake_core::store::{Store, StoreError};
use time::OffsetDateTime;

/// A stored key reads back exactly as written, including its sealed secret and policy.
pub async fn a_key_reads_back_as_written(store: &dyn Store) {
    let master = MasterKey::generate();
    let new = NewKey::generate(
        "Acme",
        Environment::Staging,
        KeyPolicy::parse("(request-target) date digest"),
        &master,
    );
    store.insert_key(&new.key).await.unwrap();
    let found = store
        .find_key(&new.key.key_id)
        .await
        .unwrap()
        .expect("the key was stored");
    assert_eq!(found, new.key);
    assert_eq!(
        master.open(&found.key_id, &found.secret).unwrap(),
        new.secret
    );
    assert!(store.find_key("stg_nope").await.unwrap().is_none());
}

/// A second key with the same id is a conflict, and the first stays as it was.
pub async fn a_duplicate_key_id_is_a_conflict(store: &dyn Store) {
    let master = MasterKey::generate();
    let first = NewKey::generate(
        "First",
        Environment::Production,
        KeyPolicy::default(),
        &master,
    );
    store.insert_key(&first.key).await.unwrap();
    let mut second = NewKey::generate(
        "Second",
        Environment::Staging,
        KeyPolicy::default(),
        &master,
    )
    .key;
    second.key_id = first.key.key_id.clone();
    assert!(matches!(
        store.insert_key(&second).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.find_key(&first.key.key_id).await.unwrap().unwrap(),
        first.key
    );
}

/// Keys are listed oldest first; revoking marks one key once and only that key.
pub async fn revoking_marks_one_key_and_keeps_the_first_time(store: &dyn Store) {
    let master = MasterKey::generate();
    let mut a = NewKey::generate("A", Environment::Staging, KeyPolicy::default(), &master).key;
    let mut b = NewKey::generate("B", Environment::Production, KeyPolicy::default(), &master).key;
    a.created_at = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    b.created_at = OffsetDateTime::from_unix_timestamp(1_700_000_100).unwrap();
    store.insert_key(&b).await.unwrap();
    store.insert_key(&a).await.unwrap();
    let ids: Vec<_> = store
        .list_keys()
        .await
        .unwrap()
        .into_iter()
        .map(|k| k.key_id)
        .collect();
    assert_eq!(ids, [a.key_id.clone(), b.key_id.clone()]);

    let first_time = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    let revoked = store.revoke_key(&a.key_id, first_time).await.unwrap();
    assert_eq!(revoked.revoked_at, Some(first_time));
    let again = store
        .revoke_key(&a.key_id, first_time + time::Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(
        again.revoked_at,
        Some(first_time),
        "a second revoke keeps the first time"
    );
    assert!(!store
        .find_key(&a.key_id)
        .await
        .unwrap()
        .unwrap()
        .is_active());
    assert!(store
        .find_key(&b.key_id)
        .await
        .unwrap()
        .unwrap()
        .is_active());
    assert!(matches!(
        store.revoke_key("prd_missing", first_time).await,
        Err(StoreError::NotFound)
    ));
}

/// The store answers a ping.
pub async fn a_store_answers_a_ping(store: &dyn Store) {
    store.ping().await.unwrap();
}
