//! Lead delivery end to end: real `intake serve` and `intake worker`
//! processes, a real local webhook receiver, `intake leads` to watch and
//! retry (docs/operations.md).

mod crash;
mod retention;
mod worker;

use crate::helpers::{intake, run_ok};
use intake_test_support::webhooks::{Received, Receiver};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The category every test job is in (boiler repair).
const CATEGORY: u32 = 1335;

/// Settings that make a test's dispatcher quick to re-claim after a crash and
/// quick to give up, and keep the spam screen out of delivery tests.
pub const FAST_DELIVERY: &[(&str, &str)] = &[
    ("INTAKE_DELIVERY_LEASE_SECONDS", "4"),
    ("INTAKE_DELIVERY_TIMEOUT_SECONDS", "1"),
    ("INTAKE_DELIVERY_POLL_MILLIS", "100"),
    ("INTAKE_SPAM_THRESHOLD", "1000"),
];

/// A trade of the test directory: id, base postcode, category.
pub struct Trade(pub u64, pub &'static str, pub u32);

/// Imports `trades`, each with its webhook at `receiver`, into the data dir.
pub fn import_trades(tmp: &Path, dir: &Path, receiver: &Receiver, trades: &[Trade]) {
    let file = trades_file(tmp, receiver, trades);
    run_ok(dir, &["import", "trades", file.to_str().unwrap()]);
}

/// Writes `trades`, each with its webhook at `receiver`, as an import file in `tmp`.
pub fn trades_file(tmp: &Path, receiver: &Receiver, trades: &[Trade]) -> PathBuf {
    let lines: Vec<String> = trades
        .iter()
        .map(|Trade(id, postcode, category)| {
            json!({"companyId": id, "companyName": format!("Trade {id} Heating"), "basePostcode": postcode,
                "coverage": {"radiusMiles": 10}, "categories": [category],
                "delivery": {"webhookUrl": receiver.hook_url(*id)}})
            .to_string()
        })
        .collect();
    let file = tmp.join("trades.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    file
}

/// A homeowner's job in central London; `n` makes each one a different person.
pub fn job(n: usize) -> Value {
    const FIRST: [&str; 6] = ["Sam", "Priya", "Tom", "Aisha", "Gareth", "Mei"];
    const LAST: [&str; 6] = ["Jones", "Patel", "Hughes", "Khan", "Evans", "Wong"];
    const WHAT: [&str; 5] = [
        "Boiler not working, no hot water since Monday.",
        "Combi boiler losing pressure every few days, needs a service.",
        "Radiators cold upstairs although the boiler fires up.",
        "Boiler shows an ignition fault code and keeps locking out.",
        "Would like a quote to replace an old back boiler.",
    ];
    let (first, last) = (FIRST[n % 6], LAST[(n / 6) % 6]);
    json!({"description": WHAT[n % 5], "categoryId": CATEGORY,
        "email": format!("{}.{}{n}@example.com", first.to_lowercase(), last.to_lowercase()),
        "phone": format!("0790{n:07}"), "firstName": first, "lastName": last,
        "postcode": "SW1A 1AA", "preferredStart": {"id": "URGENT"}})
}

/// Every delivery, from `intake leads list --json`.
pub fn leads(dir: &Path) -> Vec<Value> {
    let output = run_ok(dir, &["leads", "list", "--json", "--limit", "10000"]);
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Waits until `condition` holds of the deliveries, or panics after `timeout`
/// showing them.
pub fn wait_for_leads(
    dir: &Path,
    what: &str,
    timeout: Duration,
    condition: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = Instant::now() + timeout;
    loop {
        let rows = leads(dir);
        if condition(&rows) {
            return rows;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}:\n{}",
            rows.iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The state of trade `company_id`'s delivery among `rows`.
pub fn state_of(rows: &[Value], company_id: u64) -> &str {
    rows.iter()
        .find(|row| row["companyId"] == company_id)
        .and_then(|row| row["state"].as_str())
        .unwrap_or("none")
}

/// Trade `company_id`'s webhook secret, from `intake leads webhook-secret`.
pub fn webhook_secret(dir: &Path, company_id: u64) -> String {
    let output = run_ok(dir, &["leads", "webhook-secret", &company_id.to_string()]);
    let secret = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    secret
}

/// Checks a request's Standard Webhooks signature with the `standardwebhooks`
/// crate (an implementation independent of the service's).
pub fn assert_signed(request: &Received, secret: &str) {
    let verifier = standardwebhooks::Webhook::new(secret).unwrap();
    let mut headers = http::HeaderMap::new();
    for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
        let value = request
            .headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header"));
        headers.insert(name, value.as_bytes().try_into().unwrap());
    }
    verifier
        .verify(&request.body, &headers)
        .unwrap_or_else(|error| panic!("bad signature on {}: {error:?}", request.webhook_id()));
}

/// A running `intake worker`; killed when dropped.
pub struct Worker {
    child: Child,
    log: Arc<Mutex<String>>,
}

impl Worker {
    /// Starts `intake worker` on the data dir and waits until its dispatcher runs.
    pub fn start(dir: &Path, envs: &[(&str, &str)]) -> Worker {
        let mut command = intake();
        command
            .arg("worker")
            .arg("--data-dir")
            .arg(dir)
            .envs(envs.iter().copied());
        Worker::spawn(command)
    }

    /// Runs `command` (an `intake worker` set up by the caller) and waits until its dispatcher runs.
    pub fn spawn(mut command: Command) -> Worker {
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        let reader = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let worker = Worker { child, log };
        worker.wait_for_log("lead dispatcher started");
        worker
    }

    /// Everything the worker logged so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    fn wait_for_log(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.log().contains(text) {
            assert!(
                Instant::now() < deadline,
                "the worker never logged `{text}`:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM; returns the exit code once it stopped.
    pub fn terminate(&mut self) -> Option<i32> {
        let status = std::process::Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(100));
                return status.code();
            }
            assert!(
                Instant::now() < deadline,
                "the worker did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Groups requests by their `webhook-id`.
pub fn by_webhook_id(requests: &[Received]) -> HashMap<String, Vec<&Received>> {
    let mut groups: HashMap<String, Vec<&Received>> = HashMap::new();
    for request in requests {
        groups
            .entry(request.webhook_id().to_owned())
            .or_default()
            .push(request);
    }
    groups
}
