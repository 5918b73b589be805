//! The backend contract suite (`intake-store-contract`), run against SQLite: each test
//! on its own fresh database file.

use intake_store_sqlite::SqliteStore;

/// A store on a database file of its own.
async fn fresh_store() -> Option<(SqliteStore, tempfile::TempDir)> {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("intake.db").display());
    Some((SqliteStore::open(&url).await.unwrap(), dir))
}

intake_store_contract::store_contract_tests!(fresh_store);

/// Makes and stores a staging key named `name`.
async fn insert_key(store: &SqliteStore, name: &str) -> intake_core::ApiKey {
    let master = intake_core::MasterKey::generate();
    let new = intake_core::NewKey::generate(
        name,
        intake_core::Environment::Staging,
        Default::default(),
        &master,
    );
    intake_core::KeyStore::insert_key(store, &new.key)
        .await
        .unwrap();
    new.key
}

#[tokio::test]
async fn a_database_file_keeps_its_keys_across_reopening() {
    let (store, dir) = fresh_store().await.unwrap();
    let key = insert_key(&store, "x").await;
    store.close().await;
    let url = format!("sqlite://{}", dir.path().join("intake.db").display());
    let reopened = SqliteStore::open(&url).await.unwrap();
    let found = intake_core::KeyStore::find_key(&reopened, &key.key_id)
        .await
        .unwrap();
    assert_eq!(found, Some(key));
}

/// The WAL is copied into the database file by the store's own checkpoint
/// task, with no further write to trigger SQLite's automatic checkpoint: a
/// copy of `intake.db` alone, without its `-wal`, soon holds every commit.
#[tokio::test]
async fn commits_reach_the_database_file_without_another_write() {
    use sqlx::{ConnectOptions, Connection};
    let (store, dir) = fresh_store().await.unwrap();
    for n in 0..20 {
        insert_key(&store, &format!("key {n}")).await;
    }
    let copy = tempfile::tempdir().unwrap();
    let mut in_file = 0;
    for _ in 0..30 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        std::fs::copy(dir.path().join("intake.db"), copy.path().join("intake.db")).unwrap();
        let _ = std::fs::remove_file(copy.path().join("intake.db-wal"));
        let _ = std::fs::remove_file(copy.path().join("intake.db-shm"));
        let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(copy.path().join("intake.db"))
            .connect()
            .await
            .unwrap();
        // Until a checkpoint, even the tables are only in the WAL.
        in_file = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM api_keys")
            .fetch_one(&mut conn)
            .await
            .unwrap_or(0);
        conn.close().await.unwrap();
        if in_file == 20 {
            break;
        }
    }
    assert_eq!(
        in_file, 20,
        "keys found in the database file without its WAL"
    );
    store.close().await;
}

/// Search cards are read beside the pool (rusqlite, on the calling thread):
/// they see what the pool's writes committed, and a closed store refuses
/// them as it refuses everything else.
#[tokio::test]
async fn search_cards_follow_the_stores_writes_and_its_closing() {
    use intake_core::store::{DirectoryStore, StoreError};
    let (store, _dir) = fresh_store().await.unwrap();
    assert!(store.trade_cards(&[7]).await.unwrap().is_empty());
    let seven = intake_store_contract::fixtures::trade(7, "Seven", 2);
    store
        .import_trades(std::slice::from_ref(&seven))
        .await
        .unwrap();
    assert_eq!(
        store.trade_cards(&[7, 8]).await.unwrap(),
        [seven.card_json()]
    );
    store.close().await;
    assert!(matches!(
        store.trade_cards(&[7]).await,
        Err(StoreError::Unavailable(_))
    ));
}
