//! The admin listener (`INTAKE_ADMIN_LISTEN`) of real `intake serve` and
//! `intake worker` processes: each series of docs/operations.md moves when
//! its event is caused, and `promtool check metrics` (Debian's `prometheus`
//! package) accepts what a scrape gives.

use crate::delivery::{import_trades, job, state_of, wait_for_leads, Trade, Worker};
use crate::helpers::{self, client, create_key, data_dir, Server};
use intake_client::RetryPolicy;
use intake_test_support::webhooks::{Receiver, Reply};
use sqlx::Connection;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

const ACCEPTS: u64 = 121;
const FAILS: u64 = 122;

/// One scrape: each sample by its name and labels.
#[derive(Debug, Default)]
struct Scrape {
    text: String,
    samples: Vec<(String, BTreeMap<String, String>, f64)>,
}

impl Scrape {
    async fn of(admin: &str) -> Scrape {
        let response = reqwest::get(format!("http://{admin}/metrics"))
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            content_type.starts_with("text/plain; version=0.0.4"),
            "{content_type}"
        );
        let text = response.text().await.unwrap();
        let samples = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| parse_sample(line).unwrap_or_else(|| panic!("not a sample: {line}")))
            .collect();
        Scrape { text, samples }
    }

    /// The sum of `name`'s samples whose labels include `labels` (0 when none).
    fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.samples
            .iter()
            .filter(|(sample, have, _)| {
                sample == name
                    && labels
                        .iter()
                        .all(|(key, value)| have.get(*key).map(String::as_str) == Some(*value))
            })
            .map(|(_, _, value)| value)
            .sum()
    }
}

/// `name{a="x",b="y"} value`, as the exporter writes it (no escapes in our labels).
fn parse_sample(line: &str) -> Option<(String, BTreeMap<String, String>, f64)> {
    let (series, value) = line.rsplit_once(' ')?;
    let value: f64 = value.parse().ok()?;
    let (name, labels) = match series.split_once('{') {
        Some((name, rest)) => (name, rest.strip_suffix('}')?),
        None => (series, ""),
    };
    let labels = labels
        .split(',')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=')?;
            Some((key.to_owned(), value.trim_matches('"').to_owned()))
        })
        .collect::<Option<_>>()?;
    Some((name.to_owned(), labels, value))
}

/// Asserts that `name` with `labels` went up from `before` to `after`.
#[track_caller]
fn moved(before: &Scrape, after: &Scrape, name: &str, labels: &[(&str, &str)]) {
    let (was, is) = (before.value(name, labels), after.value(name, labels));
    assert!(
        is > was,
        "{name}{labels:?} did not move ({was} -> {is}); the scrape:\n{}",
        after.text
    );
}

/// The admin address a process logged.
fn admin_address(log: &str) -> String {
    helpers::admin_address(log).unwrap_or_else(|| panic!("no admin address in the log:\n{log}"))
}

/// `promtool check metrics` on a scrape's text: Prometheus's own linter.
/// Skipped (with a note) where promtool is missing, unless CI requires it.
pub fn promtool_accepts(text: &str) {
    let spawned = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            helpers::tool_missing("promtool", &error);
            return;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "promtool check metrics refused the scrape:\n{}{}\n{text}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_series_moves_when_its_event_happens_and_promtool_accepts_the_scrape() {
    let (tmp, dir) = data_dir();
    let receiver = Receiver::start();
    receiver.always(FAILS, Reply::Status(500));
    let trades = [
        Trade(ACCEPTS, "SW1A 2AA", 1335),
        Trade(FAILS, "SW1P 3BU", 1335),
    ];
    import_trades(tmp.path(), &dir, &receiver, &trades);
    let key = create_key(&dir, "production");
    let busy_key = create_key(&dir, "production");
    let envs = [
        ("INTAKE_ADMIN_LISTEN", "127.0.0.1:0"),
        ("INTAKE_DISPATCHER", "false"),
        ("INTAKE_RATE_LIMIT_PER_SECOND", "1"),
        ("INTAKE_RATE_LIMIT_BURST", "20"),
        ("INTAKE_DELIVERY_LEASE_SECONDS", "4"),
        ("INTAKE_DELIVERY_TIMEOUT_SECONDS", "1"),
        ("INTAKE_DELIVERY_POLL_MILLIS", "100"),
        // Long enough that the failing trade's lead is retried before it dies.
        ("INTAKE_DELIVERY_RETRY_WINDOW_SECONDS", "6"),
        ("INTAKE_DELIVERY_RETRY_BASE_MILLIS", "100"),
    ];
    let server = Server::start(&dir, &["--environment", "production"], &envs);
    let admin = admin_address(&server.log());
    assert_ne!(admin, server.address.to_string(), "never the public port");
    let start = Scrape::of(&admin).await;
    // The public port has no metrics.
    let public = reqwest::get(format!("{}/metrics", server.base_url()))
        .await
        .unwrap();
    assert_eq!(public.status(), 404);
    let signed = client(&server, &key).with_retry(RetryPolicy::none());

    // Created, then replayed.
    let body = serde_json::to_vec(&job(0)).unwrap();
    let created = signed
        .create_job_from_json(body.clone(), "metrics-1")
        .await
        .unwrap();
    assert_eq!(created.created.trades.len(), 2);
    let replayed = signed
        .create_job_from_json(body, "metrics-1")
        .await
        .unwrap();
    assert!(replayed.replayed);
    // Invalid, no trades, quarantined.
    let refused = |body: serde_json::Value, key: &'static str| {
        let signed = &signed;
        async move {
            let body = serde_json::to_vec(&body).unwrap();
            signed
                .create_job_from_json(body, key)
                .await
                .unwrap_err()
                .status()
        }
    };
    let invalid = serde_json::json!({"description": "no contact"});
    assert_eq!(refused(invalid, "metrics-2").await, Some(400));
    let mut far = job(1);
    far["postcode"] = "KW1 4YT".into();
    assert_eq!(refused(far, "metrics-3").await, Some(404));
    let mut spam = job(2);
    spam["description"] = "Visit www.cheap-watches.ru for deals".into();
    assert_eq!(refused(spam, "metrics-4").await, Some(422));
    // A refused signature.
    let forged = intake_client::Client::new(&server.base_url(), &key.key_id, "not-the-secret")
        .unwrap()
        .with_retry(RetryPolicy::none());
    let unsigned = forged.preferred_start_options().await.unwrap_err();
    assert_eq!(unsigned.status(), Some(401));
    // A key over its rate limit (a burst of 20, then 1 a second).
    let busy = client(&server, &busy_key);
    let mut statuses = Vec::new();
    for _ in 0..30 {
        statuses.push(match busy.preferred_start_options().await {
            Ok(_) => 200,
            Err(error) => error.status().unwrap(),
        });
    }
    assert!(statuses.contains(&429), "{statuses:?}");

    // The outbox holds the job's two leads; the oldest ages.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let after = Scrape::of(&admin).await;
    let requests = "intake_http_requests_total";
    for status in ["201", "400", "404", "422"] {
        let labels = [
            ("route", "/v1/affiliate-job/jobs"),
            ("method", "POST"),
            ("status", status),
        ];
        moved(&start, &after, requests, &labels);
    }
    moved(
        &start,
        &after,
        requests,
        &[
            ("route", "/v1/affiliate-job/preferred-start-options"),
            ("status", "429"),
        ],
    );
    moved(
        &start,
        &after,
        requests,
        &[("route", "unmatched"), ("status", "404")],
    );
    moved(
        &start,
        &after,
        "intake_http_request_duration_seconds_count",
        &[("route", "/v1/affiliate-job/jobs"), ("method", "POST")],
    );
    moved(
        &start,
        &after,
        "intake_http_request_duration_seconds_bucket",
        &[("route", "/v1/affiliate-job/jobs"), ("le", "+Inf")],
    );
    moved(
        &start,
        &after,
        "intake_signature_refusals_total",
        &[("reason", "mac_mismatch")],
    );
    moved(
        &start,
        &after,
        "intake_rate_limited_total",
        &[("limit", "rate")],
    );
    for outcome in ["created", "replayed", "invalid", "no_trades", "quarantined"] {
        moved(&start, &after, "intake_jobs_total", &[("outcome", outcome)]);
    }
    moved(&start, &after, "intake_job_commit_batch_size_count", &[]);
    assert_eq!(
        after.value("intake_outbox_pending", &[]),
        2.0,
        "{}",
        after.text
    );
    moved(&start, &after, "intake_outbox_pending", &[]);
    moved(
        &start,
        &after,
        "intake_outbox_oldest_pending_age_seconds",
        &[],
    );
    assert!(after.value("intake_outbox_oldest_pending_age_seconds", &[]) >= 1.0);
    // Nothing was counted that did not happen.
    assert_eq!(
        after.value("intake_jobs_total", &[("outcome", "store_error")]),
        0.0
    );
    assert_eq!(after.value("intake_store_errors_total", &[]), 0.0);
    promtool_accepts(&after.text);

    // The worker: its own admin listener, its health, its deliveries.
    let worker = Worker::start(&dir, &envs);
    let worker_admin = admin_address(&worker.log());
    for path in ["healthz", "readyz"] {
        let answer = reqwest::get(format!("http://{worker_admin}/{path}"))
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "worker /{path}");
    }
    // A new process counts from zero (its leads may be out before a first scrape).
    let worker_start = Scrape::default();
    wait_for_leads(
        &dir,
        "one delivered, one dead",
        Duration::from_secs(60),
        |rows| state_of(rows, ACCEPTS) == "delivered" && state_of(rows, FAILS) == "dead",
    );
    let worker_after = Scrape::of(&worker_admin).await;
    for outcome in ["delivered", "retry", "dead"] {
        moved(
            &worker_start,
            &worker_after,
            "intake_deliveries_total",
            &[("channel", "webhook"), ("outcome", outcome)],
        );
    }
    assert_eq!(worker_after.value("intake_outbox_pending", &[]), 0.0);
    promtool_accepts(&worker_after.text);

    // A store error: the jobs table goes away under the running server.
    let before_error = Scrape::of(&admin).await;
    let mut database =
        sqlx::SqliteConnection::connect(&format!("sqlite://{}", dir.join("intake.db").display()))
            .await
            .unwrap();
    sqlx::query("ALTER TABLE jobs RENAME TO jobs_elsewhere")
        .execute(&mut database)
        .await
        .unwrap();
    let failed = signed
        .create_job_from_json(serde_json::to_vec(&job(3)).unwrap(), "metrics-5")
        .await
        .unwrap_err();
    assert!(matches!(failed.status(), Some(500 | 503)), "{failed:?}");
    let after_error = Scrape::of(&admin).await;
    moved(
        &before_error,
        &after_error,
        "intake_store_errors_total",
        &[("component", "http")],
    );
    moved(
        &before_error,
        &after_error,
        "intake_jobs_total",
        &[("outcome", "store_error")],
    );
    promtool_accepts(&after_error.text);
    database.close().await.unwrap();
}
