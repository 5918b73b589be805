//! Migration 0009 carries a directory written in the earlier shape forward,
//! and opening the store rebuilds its search cards.

use intake_store_contract::migration;
use intake_store_sqlite::SqliteStore;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use std::borrow::Cow;
use std::str::FromStr;

#[tokio::test]
async fn a_directory_from_before_0009_is_carried_forward() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("intake.db").display());
    let pool = SqlitePool::connect_with(
        SqliteConnectOptions::from_str(&url)
            .unwrap()
            .create_if_missing(true),
    )
    .await
    .unwrap();
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

    let store = SqliteStore::open(&url).await.unwrap();
    migration::a_directory_from_before_0009_is_carried_forward(&store).await;
}
