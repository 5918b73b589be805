//! Interoperability: requests signed by independent libraries (PyPI `httpsig` 1.3.0, npm
//! `http-signature` 1.4.0) against the real `intake` binary.
//!
//! The project's own client and server share one signer, so a mistake made the same way on both sides
//! would pass every round-trip test. Here the scripts in `tests/interop/` sign with other people's code,
//! and this test only starts the server, hands out keys and checks the scripts' exit codes.
//!
//! The clients are installed by `tests/interop/install.sh`. Without them the test is skipped, unless
//! `INTAKE_REQUIRE_INTEROP=1` (CI) makes their absence a failure.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_intake");

/// A debug build migrates the store and loads the demo directory before it listens.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(120);

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Variables that would point the CLI at another database, address or master key than this test's.
const INTAKE_ENV: &[&str] = &[
    "INTAKE_LISTEN",
    "INTAKE_DATABASE_URL",
    "INTAKE_ENVIRONMENT",
    "INTAKE_DATA_DIR",
    "INTAKE_MASTER_KEY",
];

fn intake() -> Command {
    let mut cmd = Command::new(BIN);
    for name in INTAKE_ENV {
        cmd.env_remove(name);
    }
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Kills the server however the test ends, so a failed assertion never leaves it running.
struct ServerGuard(Child);

impl Drop for ServerGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Key {
    id: String,
    secret: String,
}

fn create_key(data_dir: &Path, name: &str, environment: &str) -> Key {
    let out = intake()
        .args([
            "keys",
            "create",
            "--name",
            name,
            "--environment",
            environment,
            "--json",
            "--data-dir",
        ])
        .arg(data_dir)
        .stdin(Stdio::null())
        .output()
        .expect("run intake keys create");
    assert!(
        out.status.success(),
        "intake keys create --environment {environment} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "keys create --json printed no JSON object ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(
        json["environment"], environment,
        "keys create answered {json}"
    );
    Key {
        id: json["keyId"].as_str().expect("keyId").to_owned(),
        secret: json["secret"].as_str().expect("secret").to_owned(),
    }
}

fn strip_ansi(line: &str) -> String {
    // tracing-subscriber may colour its output even into a pipe; drop CSI sequences (`ESC [ ... m`).
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `address=127.0.0.1:PORT` from the `listening` log line.
fn listening_address(line: &str) -> Option<String> {
    if !line.contains("listening") {
        return None;
    }
    let rest = &line[line.find("address=")? + "address=".len()..];
    let addr: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
    Some(addr.trim_matches('"').to_owned())
}

/// Starts `intake serve` on port 0 and returns it with its base URL and its log so far (for failures).
fn start_server(data_dir: &Path) -> (ServerGuard, String, Arc<Mutex<Vec<String>>>) {
    let child = intake()
        .args([
            "serve",
            "--no-demo-data",
            "--listen",
            "127.0.0.1:0",
            "--environment",
            "staging",
            "--data-dir",
        ])
        .arg(data_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn intake serve");
    let mut guard = ServerGuard(child);
    let stderr = guard.0.stderr.take().expect("piped stderr");

    // The reader keeps draining stderr after the address is found: a full pipe would block the
    // server's logging and with it every request.
    let log = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = mpsc::channel();
    {
        let log = Arc::clone(&log);
        thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let line = strip_ansi(&line);
                if let Some(addr) = listening_address(&line) {
                    if let Some(tx) = tx.take() {
                        let _ = tx.send(addr);
                    }
                }
                log.lock().unwrap().push(line);
            }
        });
    }

    match rx.recv_timeout(STARTUP_TIMEOUT) {
        Ok(addr) => (guard, format!("http://{addr}"), log),
        Err(_) => {
            let status = guard.0.try_wait().ok().flatten();
            panic!(
                "intake serve did not log a `listening ... address=` line within {STARTUP_TIMEOUT:?} \
                 (exit status: {status:?}); its stderr:\n{}",
                log.lock().unwrap().join("\n")
            );
        }
    }
}

/// Why the clients cannot run here, if they cannot.
fn missing_clients(root: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    let httpsig = Command::new("python3")
        .args([
            "-c",
            "import importlib.metadata, sys, httpsig; sys.exit(importlib.metadata.version('httpsig') != '1.3.0')",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !matches!(httpsig, Ok(s) if s.success()) {
        missing.push("python3 cannot import httpsig 1.3.0".to_owned());
    }
    let validator = Command::new("python3")
        .args(["-c", "import openapi_spec_validator"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !matches!(validator, Ok(s) if s.success()) {
        missing.push("python3 cannot import openapi_spec_validator".to_owned());
    }
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !matches!(node, Ok(s) if s.success()) {
        missing.push("node is not on PATH".to_owned());
    }
    if !root
        .join("tests/interop/node/node_modules/http-signature/package.json")
        .is_file()
    {
        missing.push("tests/interop/node/node_modules/http-signature is missing".to_owned());
    }
    missing
}

/// Runs one client script; returns whether it passed. Its output is echoed indented so that its own
/// `N passed, M failed` summary is not mistaken for this test binary's.
fn run_client(label: &str, program: &str, script: &Path, env: &[(&str, &str)]) -> bool {
    let out = Command::new(program)
        .arg(script)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run {program} {}: {e}", script.display()));
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        eprintln!("  [{label}] {line}");
    }
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        eprintln!("  [{label} stderr] {line}");
    }
    if !out.status.success() {
        eprintln!("{label} client failed: {}", out.status);
    }
    out.status.success()
}

#[test]
fn independent_signers_interoperate() {
    let root = repo_root();
    let missing = missing_clients(&root);
    if !missing.is_empty() {
        let why = missing.join("; ");
        if std::env::var("INTAKE_REQUIRE_INTEROP").as_deref() == Ok("1") {
            panic!("interop clients unavailable ({why}); run tests/interop/install.sh");
        }
        eprintln!("skipped: interop clients unavailable ({why}); run tests/interop/install.sh");
        return;
    }

    let data = tempfile::tempdir().expect("temp data dir");
    let staging = create_key(data.path(), "interop-staging", "staging");
    let production = create_key(data.path(), "interop-production", "production");
    // One boiler engineer near Westminster, so that a job can be created.
    let trades = data.path().join("trades.jsonl");
    std::fs::write(
        &trades,
        r#"{"companyId":1,"companyName":"Interop Heating","basePostcode":"SW1A 2AA","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@interop-heating.co.uk"}}"#,
    )
    .expect("write the trades file");
    let imported = intake()
        .args(["import", "trades"])
        .arg(&trades)
        .arg("--data-dir")
        .arg(data.path())
        .output()
        .expect("run intake import trades");
    assert!(
        imported.status.success(),
        "import failed: {}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let (server, base_url, log) = start_server(data.path());

    let env = [
        ("INTAKE_BASE_URL", base_url.as_str()),
        ("INTAKE_KEY_ID", staging.id.as_str()),
        ("INTAKE_KEY_SECRET", staging.secret.as_str()),
        ("INTAKE_PROD_KEY_ID", production.id.as_str()),
        ("INTAKE_PROD_KEY_SECRET", production.secret.as_str()),
    ];
    // Both run even when the first fails, so one run reports every disagreement.
    let python_ok = run_client(
        "python httpsig",
        "python3",
        &root.join("tests/interop/python/sign_requests.py"),
        &env,
    );
    let node_ok = run_client(
        "node http-signature",
        "node",
        &root.join("tests/interop/node/sign_requests.js"),
        &env,
    );
    let openapi_ok = run_client(
        "openapi-spec-validator",
        "python3",
        &root.join("tests/interop/python/validate_openapi.py"),
        &env,
    );

    if !(python_ok && node_ok && openapi_ok) {
        eprintln!("server log:\n{}", log.lock().unwrap().join("\n"));
    }
    drop(server);
    assert!(
        python_ok,
        "requests signed by PyPI httpsig were not answered as expected (see output above)"
    );
    assert!(
        node_ok,
        "requests signed by npm http-signature were not answered as expected (see output above)"
    );
    assert!(
        openapi_ok,
        "the OpenAPI document failed the independent validator (see output above)"
    );
}
