//! `intake` on PostgreSQL: keys, imports, demo data and a server sharing one
//! database given by `--database` or `INTAKE_DATABASE_URL`. Skipped with a
//! note unless `INTAKE_TEST_POSTGRES_URL` is set (required when
//! `INTAKE_REQUIRE_POSTGRES=1`).

use crate::helpers::{data_dir, intake, run_ok, Server};
use intake_test_support::postgres::TestDatabase;

const TRADE: &str = r#"{"companyId":987654,"companyName":"Westminster Heating","basePostcode":"SW1A 2AA","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@wh.co.uk"}}"#;

#[tokio::test]
async fn keys_imports_and_a_signed_search_share_one_postgres_database() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let url = database.url.as_str();
    let (tmp, dir) = data_dir();

    // A key made with --database, used by a server given the same database.
    let key = {
        let output = run_ok(
            &dir,
            &[
                "keys",
                "create",
                "--name",
                "Acme Quotes",
                "--environment",
                "staging",
                "--json",
                "--database",
                url,
            ],
        );
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        (
            json["keyId"].as_str().unwrap().to_owned(),
            json["secret"].as_str().unwrap().to_owned(),
        )
    };
    // Nothing went to an embedded store in the data dir.
    assert!(!dir.join("intake.db").exists());
    let listed = intake()
        .args(["keys", "list", "--json", "--data-dir"])
        .arg(&dir)
        .env("INTAKE_DATABASE_URL", url)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&listed.stdout).contains(&key.0));

    let demo = run_ok(&dir, &["demo-data", "--trades", "40", "--database", url]);
    assert!(String::from_utf8_lossy(&demo.stdout).contains("loaded 40 demo trades"));
    let trades = tmp.path().join("trades.jsonl");
    std::fs::write(&trades, format!("{TRADE}\n")).unwrap();
    let imported = intake()
        .args(["import", "trades"])
        .arg(&trades)
        .arg("--data-dir")
        .arg(&dir)
        .env("INTAKE_DATABASE_URL", url)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&imported.stdout).contains("1 new, 0 replaced"),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );

    let server = Server::start(&dir, &["--database", url], &[]);
    assert!(
        server.log().contains("postgres://"),
        "the log names the database"
    );
    let client = intake_client::Client::new(&server.base_url(), &key.0, &key.1).unwrap();
    let request = client
        .signed_request(
            reqwest::Method::GET,
            "/trades/search?postcode=SW1A%201AA&category=1335&size=50",
            None,
        )
        .unwrap();
    let response = reqwest::Client::new().execute(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    let ids: Vec<_> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["companyId"].clone())
        .collect();
    assert!(ids.contains(&serde_json::json!(987654)), "{body}");
    drop(server);
    drop(database);
}

#[test]
fn an_unreachable_database_fails_quickly_with_a_message() {
    let (_tmp, dir) = data_dir();
    let started = std::time::Instant::now();
    let output = intake()
        .args([
            "keys",
            "list",
            "--database",
            "postgres://intake:hunter2@127.0.0.1:1/intake",
        ])
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("PostgreSQL"), "{stderr}");
    assert!(
        !stderr.contains("hunter2"),
        "no password in errors: {stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(15));
}
