use crate::helpers::{client, create_key, data_dir, intake, run_ok, Server};

#[tokio::test]
async fn a_secret_is_shown_once_and_appears_in_no_log_even_at_debug_level() {
    let (_tmp, dir) = data_dir();
    let key = create_key(&dir, "staging");
    assert_eq!(key.json.as_object().unwrap().len(), 4, "{}", key.json);
    assert_eq!(key.json["environment"], "staging");
    assert_eq!(key.json["name"], "Acme Quotes");

    let mut server = Server::start(&dir, &[], &[]);
    let good = client(&server, &key);
    assert_eq!(good.preferred_start_options().await.unwrap().len(), 5);
    let wrong =
        intake_client::Client::new(&server.base_url(), &key.key_id, "wrong-secret").unwrap();
    assert_eq!(
        wrong.preferred_start_options().await.unwrap_err().status(),
        Some(401)
    );
    run_ok(&dir, &["keys", "revoke", &key.key_id]);
    // Revoked by another process: refused within the 2 s of docs/operations.md.
    let revoked = std::time::Instant::now();
    loop {
        match good.preferred_start_options().await {
            Err(error) => {
                assert_eq!(error.status(), Some(401), "{error:?}");
                break;
            }
            Ok(_) => assert!(
                revoked.elapsed() < std::time::Duration::from_secs(2),
                "the revoked key still worked after 2 s"
            ),
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let listed = run_ok(&dir, &["keys", "list", "--json"]);
    assert!(server.terminate(), "the server exits 0 on SIGTERM");

    let log = server.log();
    assert!(
        log.contains("signature verified"),
        "debug logging was on: {log}"
    );
    assert!(log.contains(&key.key_id));
    for (what, text) in [
        ("server log", log.as_str()),
        ("keys create stderr", key.stderr.as_str()),
        ("keys list", &String::from_utf8_lossy(&listed.stdout)),
        ("keys list stderr", &String::from_utf8_lossy(&listed.stderr)),
    ] {
        assert!(
            !text.contains(&key.secret),
            "the secret appeared in the {what}"
        );
    }
    let database = std::fs::read(dir.join("intake.db")).unwrap();
    let wal = std::fs::read(dir.join("intake.db-wal")).unwrap_or_default();
    for bytes in [database, wal] {
        assert!(
            !bytes
                .windows(key.secret.len())
                .any(|w| w == key.secret.as_bytes()),
            "the secret is stored in plain text"
        );
    }
}

#[test]
fn the_master_key_file_is_created_private_and_an_environment_key_replaces_it() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, dir) = data_dir();
    create_key(&dir, "staging");
    let mode = std::fs::metadata(dir.join("master.key"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);

    let (_tmp2, other) = data_dir();
    let output = intake()
        .args([
            "keys",
            "create",
            "--name",
            "x",
            "--environment",
            "production",
            "--json",
            "--data-dir",
        ])
        .arg(&other)
        .env("INTAKE_MASTER_KEY", "11".repeat(32))
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(
        !other.join("master.key").exists(),
        "INTAKE_MASTER_KEY given: no key file is made"
    );

    // A store opened with the wrong master key cannot use its secrets.
    let output = intake()
        .args(["keys", "list", "--data-dir"])
        .arg(&other)
        .env("INTAKE_MASTER_KEY", "zz")
        .output()
        .unwrap();
    assert!(output.status.success(), "listing needs no secrets");
}

#[test]
fn a_master_key_file_readable_by_others_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, dir) = data_dir();
    create_key(&dir, "staging");
    std::fs::set_permissions(
        dir.join("master.key"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let output = intake()
        .args([
            "keys",
            "create",
            "--name",
            "y",
            "--environment",
            "staging",
            "--data-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("chmod 600"));
}
