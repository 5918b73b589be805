//! `intake db migrate | status` and `INTAKE_MIGRATE_ON_START=false`
//! (docs/operations.md, "Migrations"), on the embedded store and, when
//! `INTAKE_TEST_POSTGRES_URL` is set, on PostgreSQL.

use crate::helpers::{data_dir, intake, Server};
use intake_test_support::postgres::TestDatabase;
use std::path::Path;
use std::process::Output;

const NO_MIGRATION: (&str, &str) = ("INTAKE_MIGRATE_ON_START", "false");

/// `intake ARGS --data-dir DIR [--database URL]` with migrations at start off.
fn run(dir: &Path, database: Option<&str>, args: &[&str]) -> Output {
    let mut command = intake();
    command
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .env(NO_MIGRATION.0, NO_MIGRATION.1);
    if let Some(url) = database {
        command.args(["--database", url]);
    }
    command.output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The whole story on one database: nothing starts on it unmigrated, `db
/// status` says so, `db migrate` migrates it once, and then everything starts.
fn migrated_apart(dir: &Path, database: Option<&str>) {
    let status = run(dir, database, &["db", "status"]);
    assert_eq!(status.status.code(), Some(2), "{}", text(&status.stderr));
    let listed = text(&status.stdout);
    assert!(listed.contains("0001     pending  api keys"), "{listed}");
    assert!(listed.contains("0 applied, "), "{listed}");
    assert!(listed.contains("run `intake db migrate`"), "{listed}");

    for command in [
        &["serve", "--listen", "127.0.0.1:0", "--no-demo-data"][..],
        &["worker"],
        &["keys", "list"],
    ] {
        let refused = run(dir, database, command);
        assert!(!refused.status.success(), "{command:?} started");
        let stderr = text(&refused.stderr);
        assert!(
            stderr.contains("the database is not migrated")
                && stderr.contains("run `intake db migrate`"),
            "{command:?}: {stderr}"
        );
    }

    let migrated = run(dir, database, &["db", "migrate"]);
    assert!(migrated.status.success(), "{}", text(&migrated.stderr));
    let applied = text(&migrated.stdout);
    assert!(applied.starts_with("applied 0001 api keys\n"), "{applied}");
    assert!(applied.contains("the database is up to date"), "{applied}");
    let again = run(dir, database, &["db", "migrate"]);
    assert!(
        text(&again.stdout).contains("already up to date"),
        "{}",
        text(&again.stdout)
    );

    let status = run(dir, database, &["db", "status", "--json"]);
    assert!(status.status.success());
    let rows: Vec<serde_json::Value> = text(&status.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(rows.len() >= 9);
    assert!(rows.iter().all(|row| row["state"] == "applied"), "{rows:?}");
    assert_eq!(rows[0]["version"], 1);

    let args: Vec<&str> = database
        .map(|url| vec!["--database", url])
        .unwrap_or_default();
    // Started: it logged the address it listens on.
    let server = Server::start(dir, &args, &[NO_MIGRATION]);
    drop(server);
}

#[test]
fn an_embedded_store_is_migrated_apart_and_nothing_starts_on_it_unmigrated() {
    let (_tmp, dir) = data_dir();
    migrated_apart(&dir, None);
}

#[tokio::test]
async fn a_postgres_database_is_migrated_apart_and_nothing_starts_on_it_unmigrated() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let (_tmp, dir) = data_dir();
    let url = database.url.clone();
    tokio::task::spawn_blocking(move || migrated_apart(&dir, Some(&url)))
        .await
        .unwrap();
    drop(database);
}
