//! What the service counts and measures (issue 17), through the `metrics`
//! facade: each series is recorded where its event happens; this module
//! names the server's series and describes every series of the process (the
//! `# HELP` lines of a scrape).
//!
//! Nothing is kept until a process installs the recorder ([`install`]),
//! which `serve` and `worker` do only when an admin listener is set
//! (`INTAKE_ADMIN_LISTEN`); before that the facade drops every record.
//!
//! Labels are closed sets, so a hostile client cannot grow the registry: a
//! route is its template (or `unmatched`), a method one of HTTP's or
//! `other`, a reason or outcome one of the names written here.

use intake_core::telemetry::{store_error_kind, STORE_ERRORS};
use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;

/// Requests answered, by `route`, `method` and `status`.
pub const HTTP_REQUESTS: &str = "intake_http_requests_total";
/// Seconds from a request's head to its answer's head, by `route` and `method`.
pub const HTTP_DURATION: &str = "intake_http_request_duration_seconds";
/// Signed requests refused with 401, by `reason`.
pub const SIGNATURE_REFUSALS: &str = "intake_signature_refusals_total";
/// Requests answered 429, by the `limit` they were over.
pub const RATE_LIMITED: &str = "intake_rate_limited_total";
/// Job submissions, by `outcome`.
pub const JOBS: &str = "intake_jobs_total";
/// Pending deliveries in the outbox, read at each scrape.
pub const OUTBOX_PENDING: &str = "intake_outbox_pending";
/// Seconds since the oldest pending delivery was made, read at each scrape (0 when none).
pub const OUTBOX_OLDEST_AGE: &str = "intake_outbox_oldest_pending_age_seconds";

/// The upper bounds of the request duration histogram, in seconds.
const DURATION_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The upper bounds of the group-commit batch size histogram, in jobs.
const BATCH_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

/// The kinds of job outcome, as the `outcome` label writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobOutcome {
    /// A job was made (201).
    Created,
    /// A repeat got its earlier answer, or 409.
    Replayed,
    /// Classified as spam: quarantined and refused (422).
    Quarantined,
    /// No trade serves its category and place (404).
    NoTrades,
    /// Undecodable or invalid (400).
    Invalid,
    /// The store failed while the job was being checked or written.
    StoreError,
}

impl JobOutcome {
    fn label(self) -> &'static str {
        match self {
            JobOutcome::Created => "created",
            JobOutcome::Replayed => "replayed",
            JobOutcome::Quarantined => "quarantined",
            JobOutcome::NoTrades => "no_trades",
            JobOutcome::Invalid => "invalid",
            JobOutcome::StoreError => "store_error",
        }
    }
}

/// Counts one job submission.
pub fn job(outcome: JobOutcome) {
    metrics::counter!(JOBS, "outcome" => outcome.label()).increment(1);
}

/// Counts one store error met by `component` (`http`, `dispatcher`,
/// `retention`, `directory`, `admin`); a missing record is not an error.
pub fn store_error(component: &'static str, error: &intake_core::StoreError) {
    if let Some(kind) = store_error_kind(error) {
        metrics::counter!(STORE_ERRORS, "kind" => kind, "component" => component).increment(1);
    }
}

/// Counts one signature refused for `reason`.
pub fn signature_refused(reason: &'static str) {
    metrics::counter!(SIGNATURE_REFUSALS, "reason" => reason).increment(1);
}

/// Counts one request refused with 429 for being over `limit`.
pub fn rate_limited(limit: &'static str) {
    metrics::counter!(RATE_LIMITED, "limit" => limit).increment(1);
}

/// Installs the process's recorder, once (later calls return the same
/// handle), and describes every series the service records.
pub fn install() -> Result<PrometheusHandle, String> {
    static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.to_owned()), &DURATION_BUCKETS)
                .and_then(|builder| {
                    builder.set_buckets_for_metric(
                        Matcher::Full(intake_core::telemetry::COMMIT_BATCH_SIZE.to_owned()),
                        &BATCH_BUCKETS,
                    )
                })
                .map_err(|error| error.to_string())?
                .install_recorder()
                .map_err(|error| format!("installing the metrics recorder: {error}"))?;
            describe();
            Ok(handle)
        })
        .clone()
}

fn describe() {
    use intake_core::telemetry::{COMMIT_BATCH_SIZE, DELIVERIES};
    describe_counter!(
        HTTP_REQUESTS,
        "Requests answered, by route template, method and status."
    );
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "Time from a request's head to its answer's head, by route template and method."
    );
    describe_counter!(
        SIGNATURE_REFUSALS,
        "Signed requests refused with 401, by reason."
    );
    describe_counter!(
        RATE_LIMITED,
        "Requests answered 429, by the limit they were over."
    );
    describe_counter!(
        JOBS,
        "Job submissions by outcome: created, replayed, quarantined, no_trades, invalid, store_error."
    );
    describe_counter!(
        STORE_ERRORS,
        "Store errors met, by kind (unavailable, failed) and component."
    );
    describe_gauge!(
        OUTBOX_PENDING,
        "Pending deliveries in the outbox, read at each scrape."
    );
    describe_gauge!(
        OUTBOX_OLDEST_AGE,
        Unit::Seconds,
        "Seconds since the oldest pending delivery was made, read at each scrape; 0 when none is pending."
    );
    describe_histogram!(
        COMMIT_BATCH_SIZE,
        Unit::Count,
        "Jobs written per group commit (one transaction and one sync each)."
    );
    describe_counter!(
        DELIVERIES,
        "Lead delivery attempts by channel (webhook, email) and outcome (delivered, retry, dead, gone)."
    );
}

/// The `method` label: one of HTTP's methods, else `other`.
pub fn method_label(method: &http::Method) -> &'static str {
    match *method {
        http::Method::GET => "GET",
        http::Method::HEAD => "HEAD",
        http::Method::POST => "POST",
        http::Method::PUT => "PUT",
        http::Method::DELETE => "DELETE",
        http::Method::PATCH => "PATCH",
        http::Method::OPTIONS => "OPTIONS",
        http::Method::TRACE => "TRACE",
        http::Method::CONNECT => "CONNECT",
        _ => "other",
    }
}
