//! Many `intake serve` processes on one PostgreSQL database (issue 8,
//! docs/operations.md "Running many processes"): two production servers, each
//! with a data dir of its own but the same `INTAKE_MASTER_KEY` and the same
//! `--database`, a real local webhook receiver, and the operator's commands
//! run as a third process on that database. Skipped with a note unless
//! `INTAKE_TEST_POSTGRES_URL` is set (required when `INTAKE_REQUIRE_POSTGRES=1`).

mod dispatch;
mod sharing;
mod submissions;

use crate::delivery::{Trade, FAST_DELIVERY};
use crate::helpers::{intake, Server};
use intake_test_support::postgres::TestDatabase;
use intake_test_support::webhooks::Receiver;
use serde_json::{json, Value};
use std::future::Future;
use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

/// Boiler repairs within reach of SW1A 1AA: every test job goes to three of them.
const SERVING: [Trade; 5] = [
    Trade(501, "SW1A 2AA", 1335),
    Trade(502, "SW1P 3BU", 1335),
    Trade(503, "SE1 7PB", 1335),
    Trade(504, "W1D 3QF", 1335),
    Trade(505, "EC1A 1BB", 1335),
];

/// Trades at the same receiver that no test job can reach: a gardener next
/// door, boiler repairs in Edinburgh.
const OUTSIDERS: [Trade; 2] = [Trade(601, "SW1A 2AA", 5), Trade(602, "EH1 1AA", 1335)];

/// Two servers on one database, and what they share.
pub struct Cluster {
    /// Declared first, so the servers stop before the database is dropped.
    pub servers: Vec<Server>,
    pub receiver: Receiver,
    /// The production key the affiliate signs with.
    pub key_id: String,
    pub secret: String,
    master_key: String,
    cli_dir: PathBuf,
    tmp: tempfile::TempDir,
    pub database: TestDatabase,
}

impl Cluster {
    /// A fresh database with [`SERVING`] and [`OUTSIDERS`] imported and a
    /// production key, and two production servers on it, each dispatching; or
    /// `None` when no PostgreSQL server is configured.
    pub async fn start() -> Option<Cluster> {
        let database = TestDatabase::from_env().await?;
        let tmp = tempfile::tempdir().unwrap();
        // 64 hex digits, as an operator would write INTAKE_MASTER_KEY.
        let master_key = format!(
            "{}{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        );
        let mut cluster = Cluster {
            servers: Vec::new(),
            receiver: Receiver::with_delay(Duration::from_millis(20)),
            key_id: String::new(),
            secret: String::new(),
            master_key,
            cli_dir: tmp.path().join("operator"),
            tmp,
            database,
        };
        let trades: Vec<Trade> = SERVING.into_iter().chain(OUTSIDERS).collect();
        cluster.import(&trades);
        let created = cluster.cli(&[
            "keys",
            "create",
            "--name",
            "Acme Quotes",
            "--environment",
            "production",
            "--json",
        ]);
        let key: Value = serde_json::from_slice(&created.stdout).unwrap();
        cluster.key_id = key["keyId"].as_str().unwrap().to_owned();
        cluster.secret = key["secret"].as_str().unwrap().to_owned();

        let mut server_envs: Vec<(&str, &str)> = FAST_DELIVERY.to_vec();
        server_envs.push(("INTAKE_MASTER_KEY", &cluster.master_key));
        let args = [
            "--environment",
            "production",
            "--database",
            cluster.database.url.as_str(),
        ];
        for name in ["a", "b"] {
            let dir = cluster.tmp.path().join(name);
            let server = Server::start(&dir, &args, &server_envs);
            assert!(
                !dir.join("master.key").exists(),
                "the master key came from INTAKE_MASTER_KEY"
            );
            cluster.servers.push(server);
        }
        Some(cluster)
    }

    /// Runs `intake ARGS --database URL` with the shared master key, as the
    /// operator would from another machine; asserts success.
    pub fn cli(&self, args: &[&str]) -> Output {
        let output = intake()
            .args(args)
            .arg("--database")
            .arg(&self.database.url)
            .arg("--data-dir")
            .arg(&self.cli_dir)
            .env("INTAKE_MASTER_KEY", &self.master_key)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "intake {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Imports `trades` (webhooks at the receiver) with `intake import trades`.
    pub fn import(&self, trades: &[Trade]) {
        let lines: Vec<String> = trades
            .iter()
            .map(|Trade(id, postcode, category)| {
                json!({"companyId": id, "companyName": format!("Trade {id}"),
                    "basePostcode": postcode, "coverage": {"radiusMiles": 10},
                    "categories": [category], "delivery": {"webhookUrl": self.receiver.hook_url(*id)}})
                .to_string()
            })
            .collect();
        let file = self
            .tmp
            .path()
            .join(format!("trades-{}.jsonl", trades[0].0));
        std::fs::write(&file, lines.join("\n")).unwrap();
        self.cli(&["import", "trades", file.to_str().unwrap()]);
    }

    /// A client signing with the production key, sending to server `n`.
    pub fn client(&self, n: usize) -> intake_client::Client {
        intake_client::Client::new(&self.servers[n].base_url(), &self.key_id, &self.secret).unwrap()
    }

    /// Every delivery in the store, from `intake leads list --json`.
    pub fn leads(&self) -> Vec<Value> {
        let output = self.cli(&["leads", "list", "--json", "--limit", "10000"]);
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

/// Polls `condition` until it holds and returns how long that took, or
/// panics once `bound` has passed.
pub async fn within<F, Fut>(bound: Duration, what: &str, mut condition: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let started = Instant::now();
    loop {
        if condition().await {
            return started.elapsed();
        }
        assert!(started.elapsed() < bound, "{what}: not within {bound:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

impl Drop for Cluster {
    /// On a failure, shows what each server logged and whether it still runs.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        for (n, server) in self.servers.iter_mut().enumerate() {
            let status = server.child.try_wait();
            eprintln!("--- server {n} ({status:?}):\n{}", server.log());
        }
    }
}
