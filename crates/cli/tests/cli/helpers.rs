//! Running `intake` commands and servers from tests.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The binary under test.
pub fn intake() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_intake"));
    clean_env(&mut command);
    command
}

/// No colour, and none of the developer's own `INTAKE_*` settings.
fn clean_env(command: &mut Command) {
    command
        .env("NO_COLOR", "1")
        .env_remove("INTAKE_MASTER_KEY")
        .env_remove("INTAKE_ENVIRONMENT")
        .env_remove("INTAKE_DATABASE_URL");
    command
        .env_remove("INTAKE_DATA_DIR")
        .env_remove("INTAKE_LISTEN")
        .env_remove("INTAKE_CONFIG");
}

/// Runs `intake ARGS --data-dir DIR` and returns its output, asserting success.
pub fn run_ok(data_dir: &Path, args: &[&str]) -> Output {
    let output = intake()
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "intake {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A key made through `intake keys create --json`.
pub struct CliKey {
    pub key_id: String,
    pub secret: String,
    pub json: serde_json::Value,
    pub stderr: String,
}

pub fn create_key(data_dir: &Path, environment: &str) -> CliKey {
    let output = run_ok(
        data_dir,
        &[
            "keys",
            "create",
            "--name",
            "Acme Quotes",
            "--environment",
            environment,
            "--json",
        ],
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "exactly one line: {stdout}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    CliKey {
        key_id: json["keyId"].as_str().unwrap().to_owned(),
        secret: json["secret"].as_str().unwrap().to_owned(),
        stderr: String::from_utf8(output.stderr).unwrap(),
        json,
    }
}

/// A running `intake serve`; killed when dropped.
pub struct Server {
    pub child: Child,
    pub address: SocketAddr,
    log: Arc<Mutex<String>>,
    raw_log: Arc<Mutex<Vec<u8>>>,
}

impl Server {
    /// Starts `intake serve` on port 0 with debug logging and no demo
    /// directory; `envs` and `args` are added.
    pub fn start(data_dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Server {
        let mut args = args.to_vec();
        args.push("--no-demo-data");
        Server::start_with_demo_data(data_dir, &args, envs)
    }

    /// Starts `intake serve` as a newcomer would: an empty store gets the demo directory.
    pub fn start_with_demo_data(data_dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Server {
        let mut command = intake();
        command
            .args(serve_args(data_dir))
            .args(args)
            .env("RUST_LOG", "debug")
            .envs(envs.iter().copied());
        Server::spawn(command)
    }

    /// Starts `intake serve` (no demo directory) with at most `descriptors`
    /// open files: the shell lowers its limit, then becomes the server.
    pub fn start_with_descriptor_limit(
        data_dir: &Path,
        descriptors: u32,
        envs: &[(&str, &str)],
    ) -> Server {
        let mut command = Command::new("sh");
        clean_env(&mut command);
        command
            .arg("-c")
            .arg(r#"ulimit -n "$0" && exec "$@""#)
            .arg(descriptors.to_string())
            .arg(env!("CARGO_BIN_EXE_intake"))
            .args(serve_args(data_dir))
            .arg("--no-demo-data")
            .env("RUST_LOG", "debug")
            .envs(envs.iter().copied());
        Server::spawn(command)
    }

    /// Runs `command` (an `intake serve` set up by the caller) and waits for
    /// the address it logs.
    pub fn spawn(mut command: Command) -> Server {
        command.stdout(Stdio::null()).stderr(Stdio::piped());
        let mut child = command.spawn().unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let raw_log = Arc::new(Mutex::new(Vec::new()));
        let (address_tx, address_rx) = std::sync::mpsc::channel();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        let (sink, raw_sink) = (log.clone(), raw_log.clone());
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 must neither stop
            // the reading (the server would block on a full pipe) nor lose
            // what a test of the log's bytes looks for.
            let mut bytes = Vec::new();
            while matches!(reader.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
                raw_sink.lock().unwrap().extend_from_slice(&bytes);
                let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
                let text = text.strip_suffix(b"\r").unwrap_or(text);
                let line = String::from_utf8_lossy(text).into_owned();
                bytes.clear();
                // The line is in the log before anyone learns the address,
                // so a test that reads the log after start sees it.
                {
                    let mut log = sink.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
                if let Some(address) = listening_address(&line) {
                    let _ = address_tx.send(address);
                }
            }
        });
        let address = match address_rx.recv_timeout(Duration::from_secs(60)) {
            Ok(address) => address,
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "the server did not report its address:\n{}",
                    log.lock().unwrap()
                );
            }
        };
        Server {
            child,
            address,
            log,
            raw_log,
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Everything the server logged so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Everything the server logged so far, byte for byte as it wrote it.
    #[allow(dead_code)] // for the hostile suite (crates/cli/tests/hostile), which shares this file
    pub fn raw_log(&self) -> Vec<u8> {
        self.raw_log.lock().unwrap().clone()
    }

    /// Sends SIGTERM and waits for the process to exit; returns whether it exited 0.
    pub fn terminate(&mut self) -> bool {
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader thread drain the last lines.
                std::thread::sleep(Duration::from_millis(100));
                return status.success();
            }
            assert!(
                Instant::now() < deadline,
                "the server did not stop after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The address of serve's `listening` line, in the text or the JSON log.
fn listening_address(line: &str) -> Option<SocketAddr> {
    let address = if line.starts_with('{') {
        let event: serde_json::Value = serde_json::from_str(line).ok()?;
        if event["fields"]["message"] != "listening" {
            return None;
        }
        event["fields"]["address"].as_str()?.to_owned()
    } else if line.contains(" listening ") {
        line.split("address=")
            .nth(1)?
            .split_whitespace()
            .next()?
            .to_owned()
    } else {
        return None;
    };
    Some(address.parse().unwrap())
}

/// The address of the admin listener a process logged (`INTAKE_ADMIN_LISTEN`), in the text or the JSON log.
#[allow(dead_code)] // for the cli suite only; the hostile suite shares this file
pub fn admin_address(log: &str) -> Option<String> {
    let line = log
        .lines()
        .find(|line| line.contains("admin listener started"))?;
    if line.starts_with('{') {
        let event: serde_json::Value = serde_json::from_str(line).ok()?;
        return event["fields"]["admin_address"].as_str().map(str::to_owned);
    }
    line.split("admin_address=")
        .nth(1)?
        .split_whitespace()
        .next()
        .map(str::to_owned)
}

/// `serve` on port 0 of 127.0.0.1 with `data_dir`.
fn serve_args(data_dir: &Path) -> Vec<std::ffi::OsString> {
    vec![
        "serve".into(),
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--data-dir".into(),
        data_dir.into(),
    ]
}

/// A fresh data dir.
pub fn data_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("intake-data");
    (dir, path)
}

/// A fresh data dir with a staging key and one trade imported: Westminster
/// Heating (company 9), boilers (category 1335) within 10 miles of SW1A 2AA.
#[allow(dead_code)] // for the cli suite only; the hostile suite shares this file
pub fn with_one_trade() -> (tempfile::TempDir, PathBuf, CliKey) {
    let (tmp, dir) = data_dir();
    let key = create_key(&dir, "staging");
    let trades = tmp.path().join("trades.jsonl");
    std::fs::write(
        &trades,
        r#"{"companyId":9,"companyName":"Westminster Heating","basePostcode":"SW1A 2AA","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@wh.co.uk"}}"#,
    )
    .unwrap();
    run_ok(&dir, &["import", "trades", trades.to_str().unwrap()]);
    (tmp, dir, key)
}

/// `intake submit` of `body` (written to a file in `folder`) to `server`,
/// signed with `key`, with `extra` arguments.
#[allow(dead_code)] // for the cli suite only; the hostile suite shares this file
pub fn submit(
    folder: &Path,
    server: &Server,
    key: &CliKey,
    body: &serde_json::Value,
    extra: &[&str],
) -> Output {
    let file = folder.join("job.json");
    std::fs::write(&file, body.to_string()).unwrap();
    intake()
        .args([
            "submit",
            file.to_str().unwrap(),
            "--base-url",
            &server.base_url(),
            "--key-id",
            &key.key_id,
        ])
        .args(extra)
        .env("INTAKE_KEY_SECRET", &key.secret)
        .output()
        .unwrap()
}

/// A client signing for `key` against `server`.
pub fn client(server: &Server, key: &CliKey) -> intake_client::Client {
    intake_client::Client::new(&server.base_url(), &key.key_id, &key.secret).unwrap()
}

/// A small PNG, different for each `n`, as a phone would not send but the service takes.
#[allow(dead_code)] // for the cli suite only; the hostile suite shares this file
pub fn photo(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, 16, 16);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().unwrap();
    let pixels: Vec<u8> = (0..16 * 16 * 3).map(|i| (i * 7 + n * 13) as u8).collect();
    writer.write_image_data(&pixels).unwrap();
    writer.finish().unwrap();
    out
}

/// A tool of the machine that a test needs could not be started: a skip (with
/// a note) where it is missing, a failure where CI requires it
/// (`INTAKE_REQUIRE_INTEROP`; tests/interop/install.sh installs them all).
#[allow(dead_code)] // for the cli suite only; the hostile suite shares this file
pub fn tool_missing(tool: &str, why: &dyn std::fmt::Display) {
    assert!(
        std::env::var_os("INTAKE_REQUIRE_INTEROP").is_none(),
        "{tool} is required here (tests/interop/install.sh installs it): {why}"
    );
    eprintln!("note: {tool} is missing ({why}); skipping what needs it");
}

/// Whether `tool --version` runs and succeeds; when not, [`tool_missing`].
#[allow(dead_code)] // for the cli suite only; the hostile suite shares this file
pub fn have(tool: &str) -> bool {
    match Command::new(tool).arg("--version").output() {
        Ok(output) if output.status.success() => true,
        Ok(output) => {
            tool_missing(tool, &output.status);
            false
        }
        Err(error) => {
            tool_missing(tool, &error);
            false
        }
    }
}
