//! Migration 0009 carries a directory written in the earlier shape forward,
//! and opening the store rebuilds its search cards; a database behind the
//! build is listed, refused unmigrated and migrated apart from opening.

use intake_store_contract::migration;
use intake_store_postgres::{MigrationState, PostgresStore};
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

#[tokio::test]
async fn a_database_behind_the_build_is_listed_refused_unmigrated_and_migrated_apart() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let url = database.url.as_str();
    let fresh = PostgresStore::migration_status(url).await.unwrap();
    let known = fresh.migrations.len();
    assert!(known >= 9, "{fresh:?}");
    assert_eq!(fresh.in_state(MigrationState::Pending).count(), known);

    // Migrated by an earlier build, up to 0008.
    let pool = sqlx::PgPool::connect(url).await.unwrap();
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
    pool.close().await;

    let behind = PostgresStore::migration_status(url).await.unwrap();
    let pending: Vec<i64> = behind
        .in_state(MigrationState::Pending)
        .map(|entry| entry.version)
        .collect();
    assert_eq!(pending, (9..=known as i64).collect::<Vec<_>>());
    let refused = PostgresStore::open_migrated(url).await.unwrap_err();
    assert!(
        refused.to_string().contains("the database is not migrated"),
        "{refused}"
    );

    // Two runs at once: each migration is applied once, by one of them.
    let (first, second) = tokio::join!(PostgresStore::migrate(url), PostgresStore::migrate(url));
    let mut applied: Vec<i64> = first
        .unwrap()
        .into_iter()
        .chain(second.unwrap())
        .map(|entry| entry.version)
        .collect();
    applied.sort_unstable();
    assert_eq!(applied, pending);
    assert!(PostgresStore::migration_status(url)
        .await
        .unwrap()
        .is_current());
    let store = PostgresStore::open_migrated(url).await.unwrap();
    store.close().await;
    drop(database);
}
