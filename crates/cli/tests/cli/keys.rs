use crate::helpers::{create_key, data_dir, intake, run_ok};

#[test]
fn keys_are_listed_without_secrets_and_revoked_by_id() {
    let (_tmp, dir) = data_dir();
    let staging = create_key(&dir, "staging");
    let production = create_key(&dir, "production");
    assert!(staging.key_id.starts_with("stg_") && production.key_id.starts_with("prd_"));

    let listed: serde_json::Value =
        serde_json::from_slice(&run_ok(&dir, &["keys", "list", "--json"]).stdout).unwrap();
    let rows = listed.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows
        .iter()
        .all(|row| row.get("secret").is_none() && row["revokedAt"].is_null()));

    let revoked = run_ok(&dir, &["keys", "revoke", &staging.key_id]);
    assert!(String::from_utf8_lossy(&revoked.stdout).contains(&staging.key_id));
    let listed: serde_json::Value =
        serde_json::from_slice(&run_ok(&dir, &["keys", "list", "--json"]).stdout).unwrap();
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["keyId"] == staging.key_id.as_str())
        .unwrap()
        .clone();
    assert!(row["revokedAt"].is_string());

    let table = String::from_utf8(run_ok(&dir, &["keys", "list"]).stdout).unwrap();
    assert!(
        table.contains("revoked") && table.contains("active"),
        "{table}"
    );
}

#[test]
fn revoking_an_unknown_key_says_so_and_fails() {
    let (_tmp, dir) = data_dir();
    let output = intake()
        .args(["keys", "revoke", "stg_nope", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains("stg_nope"), "stderr: {stderr}");
}

#[test]
fn a_key_needs_a_known_environment_and_a_name() {
    let (_tmp, dir) = data_dir();
    for args in [
        ["--name", "x", "--environment", "prod"],
        ["--name", " ", "--environment", "staging"],
    ] {
        let output = intake()
            .args(["keys", "create"])
            .args(args)
            .arg("--data-dir")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
    }
}
