use crate::helpers::{client, create_key, data_dir, intake, Server};

#[tokio::test]
async fn the_environment_variable_overrides_the_file_and_the_flag_overrides_both() {
    let (tmp, dir) = data_dir();
    let production = create_key(&dir, "production");
    let file = tmp.path().join("intake.toml");
    std::fs::write(&file, "environment = \"staging\"\n").unwrap();
    let config = file.to_str().unwrap();

    let server = Server::start(
        &dir,
        &["--config", config],
        &[("INTAKE_ENVIRONMENT", "production")],
    );
    assert!(
        client(&server, &production)
            .preferred_start_options()
            .await
            .is_ok(),
        "env beats file"
    );
    drop(server);

    let server = Server::start(
        &dir,
        &["--config", config, "--environment", "staging"],
        &[("INTAKE_ENVIRONMENT", "production")],
    );
    assert_eq!(
        client(&server, &production)
            .preferred_start_options()
            .await
            .unwrap_err()
            .status(),
        Some(401),
        "flag beats env"
    );
    drop(server);

    let server = Server::start(&dir, &["--config", config], &[]);
    assert_eq!(
        client(&server, &production)
            .preferred_start_options()
            .await
            .unwrap_err()
            .status(),
        Some(401),
        "file beats default"
    );
}

#[test]
fn a_bad_setting_stops_the_server_at_start_with_its_name() {
    let (_tmp, dir) = data_dir();
    for (name, value, expected) in [
        ("INTAKE_ENVIRONMENT", "prod", "environment"),
        ("INTAKE_LISTEN", "nowhere", "listen"),
        ("INTAKE_MAX_SKEW_SECONDS", "0", "max_skew_seconds"),
        ("INTAKE_DATABASE_URL", "mysql://x", "database"),
        (
            "INTAKE_HEADER_READ_TIMEOUT_SECONDS",
            "0",
            "header_read_timeout_seconds",
        ),
        ("INTAKE_IDLE_TIMEOUT_SECONDS", "0", "idle_timeout_seconds"),
        // A body may not outlast the request it belongs to.
        (
            "INTAKE_BODY_READ_TIMEOUT_SECONDS",
            "30",
            "body_read_timeout_seconds",
        ),
        ("INTAKE_MAX_CONNECTIONS", "0", "max_connections"),
        // Too small to hold one image at the limits: it could never be cleaned.
        (
            "INTAKE_IMAGE_MEMORY_BUDGET_MIB",
            "64",
            "image_memory_budget_mib must be",
        ),
        // A wait for image memory may not outlast the request.
        (
            "INTAKE_IMAGE_BUDGET_WAIT_SECONDS",
            "30",
            "image_budget_wait_seconds",
        ),
        // The budget must hold a body at the multipart limit (50 MiB by default).
        ("INTAKE_BODY_BUDGET_BYTES", "1048576", "body_budget_bytes"),
    ] {
        let output = intake()
            .args(["serve", "--data-dir"])
            .arg(&dir)
            .env(name, value)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{name}={value}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{name}={value}: {stderr}");
    }
}

#[test]
fn logs_written_to_a_pipe_or_file_carry_no_colour_codes() {
    let (_tmp, dir) = data_dir();
    let output = intake()
        .env_remove("NO_COLOR")
        .args([
            "keys",
            "create",
            "--name",
            "x",
            "--environment",
            "staging",
            "--data-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("key created"), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "ANSI escapes in a piped log: {stderr:?}"
    );
}
