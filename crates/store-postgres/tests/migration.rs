//! Migration 0009 carries a directory written in the earlier shape forward,
//! and opening the store rebuilds its search cards.

use intake_store_contract::migration;
use intake_store_postgres::PostgresStore;
use intake_test_support::postgres::TestDatabase;
use std::borrow::Cow;

#[tokio::test]
async fn a_directory_from_before_0009_is_carried_forward() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    let mut before = sqlx::migrate!("./migrations");
    before.migrations = Cow::Owned(
        before
            .migrations
            .iter()
            .filter(|migration| migration.version < 9)
            .cloned()
            .collect(),
    );
    before.run(&pool).await.unwrap();
    sqlx::raw_sql(migration::DIRECTORY_BEFORE_0009)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    let store = PostgresStore::open(&database.url).await.unwrap();
    migration::a_directory_from_before_0009_is_carried_forward(&store).await;
    store.close().await;
}
