//! The backend contract suite (`intake-store-contract`), run against PostgreSQL: each
//! test on its own fresh database on the server of `INTAKE_TEST_POSTGRES_URL`
//! (skipped with a note when unset, failed when `INTAKE_REQUIRE_POSTGRES=1`).

use intake_store_postgres::PostgresStore;
use intake_test_support::postgres::TestDatabase;

/// A store on a database of its own, or `None` when no server is configured.
async fn fresh_store() -> Option<(PostgresStore, TestDatabase)> {
    let database = TestDatabase::from_env().await?;
    let store = PostgresStore::open(&database.url).await.unwrap();
    Some((store, database))
}

intake_store_contract::store_contract_tests!(fresh_store);

#[tokio::test]
async fn a_database_keeps_its_keys_across_reopening() {
    let Some((store, database)) = fresh_store().await else {
        return;
    };
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
    let reopened = PostgresStore::open(&database.url).await.unwrap();
    let found = intake_core::KeyStore::find_key(&reopened, &new.key.key_id)
        .await
        .unwrap();
    assert_eq!(found, Some(new.key));
    reopened.close().await;
}

#[tokio::test]
async fn a_closed_store_is_unavailable_not_an_error() {
    let Some((store, _database)) = fresh_store().await else {
        return;
    };
    store.close().await;
    assert!(matches!(
        intake_core::Ping::ping(&store).await,
        Err(intake_core::StoreError::Unavailable(_))
    ));
}

#[tokio::test]
async fn an_unreachable_server_is_unavailable_within_seconds() {
    let started = std::time::Instant::now();
    // Nothing listens on port 1.
    let result = PostgresStore::open("postgres://postgres@127.0.0.1:1/postgres").await;
    assert!(
        matches!(result, Err(intake_core::StoreError::Unavailable(_))),
        "{result:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}
