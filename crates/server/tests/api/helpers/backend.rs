//! The store a test server runs on. The suite of `tests/api/` is compiled
//! twice: as the `api` test binary on SQLite, and as `api_postgres`
//! (`tests/api_postgres.rs`) on PostgreSQL, where every test gets a database
//! of its own on the server of `INTAKE_TEST_POSTGRES_URL`.

use intake_core::Store;
use intake_store_postgres::PostgresStore;
use intake_store_sqlite::SqliteStore;
use intake_test_support::postgres::{OutageProxy, TestDatabase};
use std::path::Path;
use std::sync::Arc;

/// One test's store, of the backend its test binary runs on.
pub enum TestStore {
    Sqlite(SqliteStore),
    /// The store reaches its database through a proxy that outage tests
    /// cut; the database is dropped with the value, when the test ends.
    Postgres {
        store: PostgresStore,
        proxy: OutageProxy,
        _database: TestDatabase,
    },
}

/// Whether this test binary is the PostgreSQL run of the suite.
pub fn on_postgres() -> bool {
    env!("CARGO_CRATE_NAME") == "api_postgres"
}

impl TestStore {
    /// A fresh, migrated store; an embedded one lives in `dir`.
    pub async fn open(dir: &Path) -> TestStore {
        if on_postgres() {
            let database = TestDatabase::from_env()
                .await
                .expect("the PostgreSQL suite is built only when INTAKE_TEST_POSTGRES_URL is set");
            let proxy = OutageProxy::start(database.server_address()).await.unwrap();
            let store = PostgresStore::open(&proxy.url_through(&database.url))
                .await
                .unwrap();
            return TestStore::Postgres {
                store,
                proxy,
                _database: database,
            };
        }
        let url = format!("sqlite://{}", dir.join("intake.db").display());
        TestStore::Sqlite(SqliteStore::open(&url).await.unwrap())
    }

    /// The store as the server holds it.
    pub fn store(&self) -> Arc<dyn Store> {
        match self {
            TestStore::Sqlite(store) => Arc::new(store.clone()),
            TestStore::Postgres { store, .. } => Arc::new(store.clone()),
        }
    }

    /// Closes every connection: from now on the store is unavailable.
    pub async fn close(&self) {
        match self {
            TestStore::Sqlite(store) => store.close().await,
            TestStore::Postgres { store, .. } => store.close().await,
        }
    }
}

impl super::TestApp {
    /// The switch that takes the database away and gives it back, on
    /// PostgreSQL; `None` on SQLite.
    pub fn outage(&self) -> Option<&OutageProxy> {
        match &self.backend {
            TestStore::Sqlite(_) => None,
            TestStore::Postgres { proxy, .. } => Some(proxy),
        }
    }
}
