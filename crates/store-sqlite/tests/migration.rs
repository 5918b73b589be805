//! Migration 0009 carries a directory written in the earlier shape forward,
//! and opening the store rebuilds its search cards; a database behind the
//! build is listed, refused unmigrated and migrated apart from opening.

use intake_store_contract::migration;
use intake_store_sqlite::{MigrationState, SqliteStore};
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

#[tokio::test]
async fn a_database_behind_the_build_is_listed_refused_unmigrated_and_migrated_apart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("intake.db");
    let url = format!("sqlite://{}", path.display());

    // A database not yet made has every migration pending, and looking does not make it.
    let fresh = SqliteStore::migration_status(&url).await.unwrap();
    let known = fresh.migrations.len();
    assert!(known >= 9, "{fresh:?}");
    assert_eq!(fresh.in_state(MigrationState::Pending).count(), known);
    assert!(!path.exists());

    // Migrated by an earlier build, up to 0008.
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
    pool.close().await;

    let behind = SqliteStore::migration_status(&url).await.unwrap();
    let pending: Vec<i64> = behind
        .in_state(MigrationState::Pending)
        .map(|entry| entry.version)
        .collect();
    assert_eq!(pending, (9..=known as i64).collect::<Vec<_>>());
    assert_eq!(behind.in_state(MigrationState::Applied).count(), 8);
    let refused = SqliteStore::open_migrated(&url).await.unwrap_err();
    assert!(
        refused.to_string().contains("the database is not migrated"),
        "{refused}"
    );
    assert_eq!(
        SqliteStore::migration_status(&url).await.unwrap(),
        behind,
        "refusing changed nothing"
    );

    let applied = SqliteStore::migrate(&url).await.unwrap();
    assert_eq!(
        applied
            .iter()
            .map(|entry| entry.version)
            .collect::<Vec<_>>(),
        pending
    );
    assert!(SqliteStore::migration_status(&url)
        .await
        .unwrap()
        .is_current());
    assert!(SqliteStore::migrate(&url).await.unwrap().is_empty());
    let store = SqliteStore::open_migrated(&url).await.unwrap();
    store.close().await;
}
