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
        (
            "INTAKE_ENVIRONMENT",
            "prod",
            "INTAKE_ENVIRONMENT: unknown environment `prod`",
        ),
        (
            "INTAKE_LISTEN",
            "nowhere",
            "INTAKE_LISTEN: `nowhere` is not a socket address",
        ),
        ("INTAKE_MAX_SKEW_SECONDS", "0", "max_skew_seconds"),
        (
            "INTAKE_DATABASE_URL",
            "mysql://x",
            "INTAKE_DATABASE_URL: a database URL of scheme `mysql` is not supported",
        ),
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
fn a_value_of_the_wrong_type_is_refused_naming_its_variable_in_each_section() {
    let (_tmp, dir) = data_dir();
    for (name, value, expected) in [
        // server
        (
            "INTAKE_LOG_FORMAT",
            "xml",
            "INTAKE_LOG_FORMAT: `xml` is not one of `text`, `json`",
        ),
        (
            "INTAKE_SHUTDOWN_GRACE_SECONDS",
            "soon",
            "INTAKE_SHUTDOWN_GRACE_SECONDS: expected a whole number of seconds, found string \"soon\"",
        ),
        (
            "INTAKE_DEMO_DATA",
            "maybe",
            "INTAKE_DEMO_DATA: expected a boolean, found string \"maybe\"",
        ),
        // connections
        (
            "INTAKE_IDLE_TIMEOUT_SECONDS",
            "-5",
            "INTAKE_IDLE_TIMEOUT_SECONDS: -5 is below 0",
        ),
        // limits
        (
            "INTAKE_BODY_LIMIT_BYTES",
            "lots",
            "INTAKE_BODY_LIMIT_BYTES: expected usize, found string \"lots\"",
        ),
        (
            "INTAKE_IMAGE_MEMORY_BUDGET_MIB",
            "1.5",
            "INTAKE_IMAGE_MEMORY_BUDGET_MIB: expected a whole number of mebibytes",
        ),
        // jobs
        (
            "INTAKE_SPAM_THRESHOLD",
            "high",
            "INTAKE_SPAM_THRESHOLD: expected f64, found string \"high\"",
        ),
        (
            "INTAKE_PUBLIC_BASE_URL",
            "trades.example",
            "INTAKE_PUBLIC_BASE_URL: `trades.example` is not an http(s) address",
        ),
        // delivery
        (
            "INTAKE_DELIVERY_POLL_MILLIS",
            "often",
            "INTAKE_DELIVERY_POLL_MILLIS: expected a whole number of milliseconds",
        ),
        (
            "INTAKE_PUBLIC_API_URL",
            "api.example",
            "INTAKE_PUBLIC_API_URL: `api.example` is not an http(s) address",
        ),
        // storage
        (
            "INTAKE_IMAGE_STORE",
            "ftp://photos",
            "INTAKE_IMAGE_STORE: image store `ftp://photos`: the scheme `ftp` is not supported",
        ),
    ] {
        let output = intake()
            .args(["keys", "list", "--data-dir"])
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
fn a_flag_of_the_wrong_form_is_refused_naming_the_flag() {
    let (_tmp, dir) = data_dir();
    let output = intake()
        .args(["serve", "--listen", "8080", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--listen: `8080` is not a socket address"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_key_in_the_configuration_file_stops_the_server_naming_the_key_and_the_file() {
    let (tmp, dir) = data_dir();
    let file = tmp.path().join("intake.toml");
    std::fs::write(
        &file,
        "environment = \"staging\"\nlistn = \"127.0.0.1:0\"\n",
    )
    .unwrap();
    for (args, envs) in [
        (vec!["--config", file.to_str().unwrap()], vec![]),
        (vec![], vec![("INTAKE_CONFIG", file.to_str().unwrap())]),
    ] {
        let output = intake()
            .arg("serve")
            .args(&args)
            .arg("--data-dir")
            .arg(&dir)
            .envs(envs)
            .output()
            .unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!("unknown setting `listn` in {}", file.display())),
            "{stderr}"
        );
    }
}

#[test]
fn a_value_of_the_wrong_type_in_the_file_is_refused_naming_the_key_and_the_file() {
    let (tmp, dir) = data_dir();
    let file = tmp.path().join("intake.toml");
    std::fs::write(&file, "max_skew_seconds = \"five minutes\"\n").unwrap();
    let output = intake()
        .args(["keys", "list", "--config"])
        .arg(&file)
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "`max_skew_seconds` in {}: expected a whole number of seconds",
        file.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
}

/// The `INTAKE_*` variables README.md documents for settings.
fn documented_variables() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let table = readme.split_once("Settings come in layers").unwrap().1;
    table
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| {
            let cell = line.split('|').nth(2)?;
            let name = cell.split('`').nth(1)?;
            name.starts_with("INTAKE_").then(|| name.to_owned())
        })
        .collect()
}

#[test]
fn every_documented_variable_is_read_under_its_name() {
    let (_tmp, dir) = data_dir();
    let variables = documented_variables();
    assert!(variables.len() > 30, "{variables:?}");
    for name in variables {
        // Any path is a data dir; the one given here is shown to be used below.
        if name == "INTAKE_DATA_DIR" {
            continue;
        }
        let mut command = intake();
        command.args(["keys", "list", "--data-dir"]).arg(&dir);
        // The sender is checked with the relay it is for.
        if name == "INTAKE_MAIL_FROM" {
            command.env("INTAKE_SMTP_URL", "smtp://127.0.0.1:2525");
        }
        let output = command.env(&name, "x").output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains(&name),
            "{name}=x was not refused by name: {stderr}"
        );
    }

    let output = intake()
        .args(["keys", "list"])
        .env("INTAKE_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(dir.join("master.key").is_file() || dir.join("intake.db").is_file());
}

#[test]
fn other_intake_variables_in_the_environment_are_left_alone() {
    let (_tmp, dir) = data_dir();
    let output = intake()
        .args(["keys", "list", "--data-dir"])
        .arg(&dir)
        .env("INTAKE_TEST_POSTGRES_URL", "postgres://nowhere")
        .env("INTAKE_REQUIRE_POSTGRES", "1")
        .env("INTAKE_KEY_SECRET", "not a setting")
        .env("INTAKE_LISTN", "typo")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
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
