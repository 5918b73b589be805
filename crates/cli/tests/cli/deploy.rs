//! The deployment files of `deploy/` and the `Dockerfile`, checked as far as
//! a machine without a container engine can (docs/deploy.md):
//!
//! - the systemd units pass `systemd-analyze verify` without a word, are
//!   rated hardened by `systemd-analyze security`, and their command lines
//!   are ones the binary takes;
//! - the compose layout runs as plain processes: each `intake` service of
//!   `deploy/compose.yaml` with its command, the image's environment under the
//!   service's own, and the image's health check, against a real PostgreSQL.
//!   What a container would give each process apart is given here by hand:
//!   its own data dir for the image's volume, a shared folder for the
//!   `images` volume, free ports for 8080 and 9090, and the test database for
//!   the `db` service.

use crate::delivery::{job, trades_file, Trade, Worker};
use crate::helpers::{self, have, intake, Server};
use intake_test_support::postgres::TestDatabase;
use intake_test_support::webhooks::Receiver;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repository().join(path))
        .unwrap_or_else(|error| panic!("{path}: {error}"))
}

#[test]
fn the_systemd_units_verify_cleanly_and_are_rated_hardened() {
    if !have("systemd-analyze") {
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    for unit in ["intake.service", "intake-worker.service"] {
        let text = read(&format!("deploy/{unit}"));
        let exec = text
            .lines()
            .find_map(|line| line.strip_prefix("ExecStart="))
            .unwrap_or_else(|| panic!("{unit} has no ExecStart"));
        let (program, arguments) = exec.split_once(' ').unwrap();
        assert_eq!(program, "/usr/local/bin/intake", "{unit}");
        // The command line is one the binary takes (clap stops at --help
        // once the subcommand and flags parsed).
        let arguments: Vec<&str> = arguments.split_whitespace().collect();
        let help = intake().args(&arguments).arg("--help").output().unwrap();
        assert!(
            help.status.success(),
            "{unit}: `intake {exec}` is not a command line of this binary: {}",
            String::from_utf8_lossy(&help.stderr)
        );

        // Verified as written, but for the binary's place on this machine.
        let here = text.replace("/usr/local/bin/intake", env!("CARGO_BIN_EXE_intake"));
        let path = folder.path().join(unit);
        std::fs::write(&path, here).unwrap();
        let verify = Command::new("systemd-analyze")
            .arg("verify")
            .arg(&path)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&verify.stdout),
            String::from_utf8_lossy(&verify.stderr)
        );
        assert!(
            verify.status.success() && said.trim().is_empty(),
            "{unit}: {said}"
        );

        let security = Command::new("systemd-analyze")
            .args(["security", "--offline=yes", "--no-pager"])
            .arg(&path)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&security.stdout);
        let exposure: f64 = report
            .lines()
            .find_map(|line| {
                line.split_once("Overall exposure level for ")
                    .map(|(_, rest)| rest)
            })
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|score| score.parse().ok())
            .unwrap_or_else(|| panic!("{unit}: no exposure level in:\n{report}"));
        assert!(
            exposure <= 2.0,
            "{unit}: exposure {exposure} (systemd-analyze security):\n{report}"
        );
    }
}

/// What the Dockerfile's runtime stage sets: its environment, command and health check.
struct Image {
    environment: BTreeMap<String, String>,
    command: Vec<String>,
    health_check: Vec<String>,
    workdir: String,
}

fn image() -> Image {
    let dockerfile = read("Dockerfile");
    // Continuation lines joined; only the last stage (the runtime) counts.
    let joined = dockerfile.replace("\\\n", " ");
    let runtime = joined.rsplit_once("\nFROM ").unwrap().1;
    let mut image = Image {
        environment: BTreeMap::new(),
        command: Vec::new(),
        health_check: Vec::new(),
        workdir: String::new(),
    };
    let exec_form = |json: &str| -> Vec<String> { serde_json::from_str(json.trim()).unwrap() };
    for line in runtime.lines() {
        if let Some(pairs) = line.strip_prefix("ENV ") {
            for pair in pairs.split_whitespace() {
                let (name, value) = pair.split_once('=').unwrap();
                image.environment.insert(name.to_owned(), value.to_owned());
            }
        } else if let Some(command) = line.strip_prefix("CMD ") {
            image.command = exec_form(command);
        } else if let Some(check) = line.strip_prefix("HEALTHCHECK ") {
            image.health_check = exec_form(check.split_once(" CMD ").unwrap().1);
        } else if let Some(entry) = line.strip_prefix("ENTRYPOINT ") {
            assert_eq!(exec_form(entry), ["intake"]);
        } else if let Some(workdir) = line.strip_prefix("WORKDIR ") {
            image.workdir = workdir.trim().to_owned();
        } else if let Some(user) = line.strip_prefix("USER ") {
            assert_ne!(user.trim(), "root", "the runtime user is not root");
        }
    }
    assert_eq!(image.health_check[0], "intake");
    image
}

/// `${NAME}`, `${NAME:?message}` and `${NAME:-default}` of a compose value, from `given`.
fn interpolate(value: &str, given: &BTreeMap<&str, String>) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some((before, after)) = rest.split_once("${") {
        out.push_str(before);
        let (expression, tail) = after.split_once('}').unwrap();
        let (name, default) = match expression.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (expression.split(":?").next().unwrap(), None),
        };
        out.push_str(&match (given.get(name), default) {
            (Some(value), _) => value.clone(),
            (None, Some(default)) => default.to_owned(),
            (None, None) => panic!("compose needs {name}"),
        });
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// One `intake` service of the compose file, as a process here would run it.
struct Service {
    name: String,
    command: Vec<String>,
    environment: BTreeMap<String, String>,
    workdir: PathBuf,
}

impl Service {
    fn command(&self, arguments: &[String]) -> Command {
        let mut command = intake();
        command
            .args(arguments)
            .envs(&self.environment)
            .current_dir(&self.workdir);
        command
    }

    /// `docker compose run --rm SERVICE ARGS`: a one-off command in the service's environment.
    fn run(&self, arguments: &[&str]) -> Output {
        let arguments: Vec<String> = arguments.iter().map(|a| a.to_string()).collect();
        let output = self.command(&arguments).output().unwrap();
        assert!(
            output.status.success(),
            "{} {arguments:?}: {}",
            self.name,
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }
}

/// The image's health check, with its admin port where this process listens.
fn health_check(image: &Image, log: &str) -> Output {
    let admin = helpers::admin_address(log).unwrap_or_else(|| panic!("no admin address:\n{log}"));
    let arguments: Vec<String> = image.health_check[1..]
        .iter()
        .map(|argument| argument.replace("127.0.0.1:9090", &admin))
        .collect();
    intake().args(&arguments).output().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_compose_layout_runs_as_processes_two_servers_and_a_worker_on_one_postgresql() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let image = image();
    let compose: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&read("deploy/compose.yaml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let images = tmp.path().join("images-volume");
    std::fs::create_dir_all(&images).unwrap();
    let given: BTreeMap<&str, String> = [
        ("INTAKE_DB_PASSWORD", "compose-password".to_owned()),
        ("INTAKE_MASTER_KEY", "7".repeat(64)),
    ]
    .into();
    let compose_database = "postgres://intake:compose-password@db:5432/intake";

    let services = compose["services"].as_mapping().unwrap();
    let mut layout = BTreeMap::new();
    for (name, service) in services {
        let name = name.as_str().unwrap().to_owned();
        if service["image"].as_str() != Some("intake:latest") {
            assert_eq!(name, "db");
            continue;
        }
        let workdir = tmp.path().join(&name);
        std::fs::create_dir_all(&workdir).unwrap();
        let mut environment = image.environment.clone();
        for (key, value) in service["environment"].as_mapping().unwrap() {
            let value = match value {
                serde_yaml_ng::Value::String(text) => text.clone(),
                other => panic!("{name}: quote {key:?} = {other:?} (compose wants text)"),
            };
            environment.insert(
                key.as_str().unwrap().to_owned(),
                interpolate(&value, &given),
            );
        }
        // The container's world, here: the db service is the test database,
        // the image's volume a data dir of the service's own, the images
        // volume one shared folder, and free ports for the image's.
        assert_eq!(
            environment["INTAKE_DATABASE_URL"], compose_database,
            "{name}"
        );
        environment.insert("INTAKE_DATABASE_URL".into(), database.url.clone());
        assert_eq!(environment["INTAKE_DATA_DIR"], image.workdir);
        environment.insert("INTAKE_DATA_DIR".into(), workdir.display().to_string());
        if let Some(store) = environment.get_mut("INTAKE_IMAGE_STORE") {
            assert_eq!(
                store, "file:///var/lib/intake/images",
                "{name}: the images volume"
            );
            *store = format!("file://{}", images.display());
        }
        assert_eq!(environment["INTAKE_LISTEN"], "0.0.0.0:8080");
        assert_eq!(environment["INTAKE_ADMIN_LISTEN"], "0.0.0.0:9090");
        environment.insert("INTAKE_LISTEN".into(), "127.0.0.1:0".into());
        environment.insert("INTAKE_ADMIN_LISTEN".into(), "127.0.0.1:0".into());
        let command = match service["command"].as_sequence() {
            Some(command) => command
                .iter()
                .map(|part| part.as_str().unwrap().to_owned())
                .collect(),
            None => image.command.clone(),
        };
        layout.insert(
            name.clone(),
            Service {
                name,
                command,
                environment,
                workdir,
            },
        );
    }
    assert_eq!(
        layout.keys().map(String::as_str).collect::<Vec<_>>(),
        ["migrate", "serve-1", "serve-2", "worker"]
    );
    for name in ["serve-1", "serve-2", "worker"] {
        let after = &services[name]["depends_on"]["migrate"]["condition"];
        assert_eq!(
            after.as_str(),
            Some("service_completed_successfully"),
            "{name}"
        );
    }

    // The one-shot migration, then the services, which do not migrate.
    let migrate = &layout["migrate"];
    assert_eq!(migrate.command, ["db", "migrate"]);
    let migrated = migrate.command(&migrate.command).output().unwrap();
    assert!(
        migrated.status.success(),
        "{}",
        String::from_utf8_lossy(&migrated.stderr)
    );

    // The operator's one-offs, as `docker compose run --rm serve-1 ...`.
    let operator = &layout["serve-1"];
    let receiver = Receiver::start();
    let trades = [Trade(131, "SW1A 2AA", 1335), Trade(132, "SW1P 3BU", 1335)];
    let file = trades_file(tmp.path(), &receiver, &trades);
    operator.run(&["import", "trades", file.to_str().unwrap()]);
    let created = operator.run(&[
        "keys",
        "create",
        "--name",
        "Acme Quotes",
        "--environment",
        "production",
        "--json",
    ]);
    let key: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();

    let mut servers = Vec::new();
    for name in ["serve-1", "serve-2"] {
        let service = &layout[name];
        assert_eq!(service.command, ["serve"]);
        let server = Server::spawn(service.command(&service.command));
        let check = health_check(&image, &server.log());
        assert!(
            check.status.success(),
            "{name}'s health check: {}",
            String::from_utf8_lossy(&check.stderr)
        );
        servers.push(server);
    }
    let worker_service = &layout["worker"];
    let worker = Worker::spawn(worker_service.command(&worker_service.command));
    let check = health_check(&image, &worker.log());
    assert!(
        check.status.success(),
        "the worker's health check: {}",
        String::from_utf8_lossy(&check.stderr)
    );

    // A job through each server; the worker sends both leads of each.
    for (n, server) in servers.iter().enumerate() {
        let client = intake_client::Client::new(
            &server.base_url(),
            key["keyId"].as_str().unwrap(),
            key["secret"].as_str().unwrap(),
        )
        .unwrap();
        let outcome = client
            .create_job_from_json(
                serde_json::to_vec(&job(n)).unwrap(),
                &format!("compose-{n}"),
            )
            .await
            .unwrap();
        assert_eq!(outcome.created.trades.len(), 2);
    }
    receiver
        .wait_until("four leads", |received| received.len() >= 4)
        .await;
    // The worker logs each lead once its outcome is recorded, just after the receiver has it.
    let deadline = Instant::now() + Duration::from_secs(30);
    while worker.log().matches("lead delivered").count() < 4 {
        assert!(
            Instant::now() < deadline,
            "the worker did not deliver four leads:\n{}",
            worker.log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for server in &servers {
        assert!(
            !server.log().contains("lead delivered"),
            "the servers leave leads to the worker"
        );
    }

    // A health check fails once the process is gone.
    let admin = helpers::admin_address(&worker.log()).unwrap();
    drop(worker);
    let gone = intake()
        .args([
            "health",
            &format!("http://{admin}/readyz"),
            "--timeout",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(gone.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&gone.stderr).contains("unhealthy"));
}
