//! The server under attack: a real `intake serve` on its own data dir,
//! with a staging key and one trade, and what can be read of it from the
//! outside: its peak memory, what its store holds, and how a legitimate
//! affiliate signs.

use crate::helpers::{create_key, data_dir, run_ok, CliKey, Server};
use intake_core::store::prelude::*;
use intake_core::store::StoreCounts;
use intake_signature::{digest_header, sign, Algorithm, Message};
use intake_store_sqlite::SqliteStore;
use std::path::PathBuf;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Peak resident memory (VmHWM) the server may reach during any one attack.
/// A debug build peaks at 26 to 32 MiB in these tests (the most after
/// creating jobs); a connection may hold up to the 64 KiB hyper read buffer
/// and its task, so a hundred held connections are worth about 7 MiB more
/// at most. A server that buffered what attackers send (ten 400 KB heads at
/// once, a hundred heads that never end) would go over it.
pub const RSS_BUDGET_MIB: u64 = 64;

/// The API's base path.
pub const API: &str = "/v1/affiliate-job";

/// A job the one trade takes.
pub fn job() -> serde_json::Value {
    serde_json::json!({
        "description": "Boiler not working, no hot water since Monday.",
        "categoryId": 1335,
        "email": "sam.jones@example.com",
        "phone": "07900 000000",
        "firstName": "Sam",
        "lastName": "Jones",
        "postcode": "SW1A 1AA",
        "preferredStart": {"id": "URGENT"}
    })
}

pub struct Target {
    pub server: Server,
    pub key: CliKey,
    data_dir: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Target {
    /// A staging server with the settings in `envs` (and the per-key rate
    /// limits off, so that an attack measures the server, not the limiter).
    pub fn start(envs: &[(&str, &str)]) -> Target {
        let (tmp, dir) = data_dir();
        let key = create_key(&dir, "staging");
        let trades = tmp.path().join("trades.jsonl");
        std::fs::write(
            &trades,
            r#"{"companyId":9,"companyName":"Westminster Heating","basePostcode":"SW1A 2AA","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@wh.co.uk"}}"#,
        )
        .unwrap();
        run_ok(&dir, &["import", "trades", trades.to_str().unwrap()]);
        let mut settings = vec![
            ("INTAKE_RATE_LIMIT_PER_SECOND", "0"),
            ("INTAKE_MAX_IN_FLIGHT_PER_KEY", "0"),
        ];
        settings.extend_from_slice(envs);
        let server = Server::start(&dir, &[], &settings);
        Target {
            server,
            key,
            data_dir: dir,
            _tmp: tmp,
        }
    }

    pub fn address(&self) -> std::net::SocketAddr {
        self.server.address
    }

    /// `host:port`, as a client sends it in `Host`.
    pub fn host(&self) -> String {
        self.server.address.to_string()
    }

    /// The server's peak resident memory so far, in KiB (`VmHWM`).
    pub fn peak_rss_kib(&self) -> u64 {
        let pid = self.server.child.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .unwrap_or_else(|e| panic!("the server (pid {pid}) is gone: {e}"));
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().strip_suffix("kB"))
            .map(|kib| kib.trim().parse().unwrap())
            .expect("VmHWM in /proc/PID/status")
    }

    /// Asserts that the peak resident memory stayed within [`RSS_BUDGET_MIB`].
    pub fn assert_peak_rss_within_budget(&self, attack: &str) {
        let peak = self.peak_rss_kib();
        eprintln!("{attack}: peak RSS {} KiB", peak);
        assert!(
            peak <= RSS_BUDGET_MIB * 1024,
            "{attack}: the server's peak RSS reached {peak} KiB, over the budget of {RSS_BUDGET_MIB} MiB"
        );
    }

    /// What the store holds, read beside the running server.
    pub async fn counts(&self) -> StoreCounts {
        let url = format!("sqlite://{}", self.data_dir.join("intake.db").display());
        let store = SqliteStore::open(&url).await.unwrap();
        let counts = store.counts().await.unwrap();
        store.close().await;
        counts
    }

    /// Headers of a request signed with the key over `covered`: Host and
    /// Date, and for a body Content-Type (JSON), Digest and Content-Length,
    /// then Authorization. `date` may be given, to sign two requests alike.
    pub fn signed(
        &self,
        method: &str,
        target: &str,
        body: &[u8],
        covered: &[&str],
        date: Option<&str>,
    ) -> Vec<(String, String)> {
        let now = OffsetDateTime::now_utc().format(&Rfc3339).unwrap();
        let mut headers = vec![
            ("host".to_owned(), self.host()),
            ("date".to_owned(), date.unwrap_or(now.as_str()).to_owned()),
        ];
        if !body.is_empty() {
            headers.push(("content-type".into(), "application/json".into()));
            headers.push(("digest".into(), digest_header(body)));
            headers.push(("content-length".into(), body.len().to_string()));
        }
        let mut message = Message::new(method, target);
        for (name, value) in &headers {
            message.push_header(name, value);
        }
        let signature = sign(
            &message,
            &self.key.key_id,
            Algorithm::HmacSha256,
            self.key.secret.as_bytes(),
            covered,
        )
        .unwrap();
        headers.push(("authorization".into(), signature.to_authorization()));
        headers
    }
}

/// Every name a client signs when it pins its request (as the Rust client does).
pub const FULL: [&str; 5] = [
    "(request-target)",
    "host",
    "date",
    "digest",
    "content-length",
];

/// Borrowed pairs, as [`crate::raw::request`] takes them.
pub fn pairs(headers: &[(String, String)]) -> Vec<(&str, &str)> {
    headers
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect()
}
