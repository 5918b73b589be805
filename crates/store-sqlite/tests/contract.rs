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

#[tokio::test]
async fn a_database_file_keeps_its_keys_across_reopening() {
    let (store, dir) = fresh_store().await.unwrap();
    let master = intake_core::MasterKey::generate();
    let new = intake_core::NewKey::generate(
        "x",
        intake_core::Environment::Staging,
        Default::default(),
        &master,
    );
    intake_core::KeyStore::insert_key(&store, &new.key)
        .await
        .unwrap();
    store.close().await;
    let url = format!("sqlite://{}", dir.path().join("intake.db").display());
    let reopened = SqliteStore::open(&url).await.unwrap();
    let found = intake_core::KeyStore::find_key(&reopened, &new.key.key_id)
        .await
        .unwrap();
    assert_eq!(found, Some(new.key));
}
