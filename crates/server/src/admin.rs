//! The admin listener (`INTAKE_ADMIN_LISTEN`): the process's metrics in
//! Prometheus's text format at `/metrics`, and `/healthz` and `/readyz`, on
//! an address of their own, never the public port. `serve` and `worker`
//! both run one when the setting is given.
//!
//! A scrape reads the outbox's backlog from the store (one small query), so
//! the gauges are as fresh as the scrape. Connections are served by the same
//! loop as the public port, under the same timeouts and cap.

use crate::config::ConnectionLimits;
use crate::telemetry::{self, OUTBOX_OLDEST_AGE, OUTBOX_PENDING};
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use intake_core::store::Store;
use metrics_exporter_prometheus::PrometheusHandle;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// How long a scrape waits for the store's backlog before answering without it.
const BACKLOG_WAIT: Duration = Duration::from_secs(2);

/// How often the recorder's histograms are drained into their buckets.
const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// The media type of Prometheus's text format.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// An admin listener, bound and ready to run.
pub struct AdminListener {
    listener: TcpListener,
    shared: Arc<Shared>,
}

struct Shared {
    metrics: PrometheusHandle,
    store: Arc<dyn Store>,
}

impl AdminListener {
    /// Installs the process's metrics recorder (see [`telemetry`]) and binds
    /// `address` (port 0 picks a free port: see [`AdminListener::local_addr`]).
    pub async fn bind(address: SocketAddr, store: Arc<dyn Store>) -> Result<Self, String> {
        let metrics = telemetry::install()?;
        let listener = TcpListener::bind(address).await.map_err(|error| {
            format!("cannot listen on {address} for the admin listener: {error}")
        })?;
        Ok(AdminListener {
            listener,
            shared: Arc::new(Shared { metrics, store }),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `stopping` turns true.
    pub async fn run(self, stopping: watch::Receiver<bool>) {
        let router = Router::new()
            .route("/metrics", get(scrape))
            .route("/healthz", get(healthz))
            .route("/readyz", get(readyz))
            .with_state(self.shared.clone());
        let upkeep = tokio::spawn(upkeep(self.shared.metrics.clone(), stopping.clone()));
        crate::serve::serve(self.listener, router, ConnectionLimits::default(), stopping).await;
        upkeep.abort();
    }
}

/// Drains the histograms now and then, as the recorder needs.
async fn upkeep(metrics: PrometheusHandle, mut stopping: watch::Receiver<bool>) {
    let mut ticker = tokio::time::interval(UPKEEP_INTERVAL);
    loop {
        tokio::select! {
            _ = ticker.tick() => metrics.run_upkeep(),
            _ = stopping.wait_for(|stopping| *stopping) => return,
        }
    }
}

/// `GET /metrics`: the backlog read now, then every series.
async fn scrape(State(shared): State<Arc<Shared>>) -> Response {
    match tokio::time::timeout(BACKLOG_WAIT, shared.store.outbox_backlog()).await {
        Ok(Ok(backlog)) => {
            metrics::gauge!(OUTBOX_PENDING).set(backlog.pending as f64);
            let age = backlog.oldest_created_at.map_or(0.0, |oldest| {
                (OffsetDateTime::now_utc() - oldest)
                    .as_seconds_f64()
                    .max(0.0)
            });
            metrics::gauge!(OUTBOX_OLDEST_AGE).set(age);
        }
        Ok(Err(error)) => {
            telemetry::store_error("admin", &error);
            tracing::warn!(%error, "a scrape could not read the outbox backlog; its gauges keep their last values");
        }
        Err(_) => {
            tracing::warn!(
                wait_seconds = BACKLOG_WAIT.as_secs(),
                "a scrape did not get the outbox backlog in time; its gauges keep their last values"
            );
        }
    }
    let mut response = shared.metrics.render().into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(TEXT_FORMAT));
    response
}

/// `GET /healthz`: the process is up.
async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: the process is up and its store answers.
async fn readyz(State(shared): State<Arc<Shared>>) -> Response {
    match shared.store.ping().await {
        Ok(()) => Json(serde_json::json!({ "status": "ok" })).into_response(),
        Err(error) => {
            telemetry::store_error("admin", &error);
            tracing::warn!(%error, "not ready: the store does not answer");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(serde_json::json!({ "status": "unavailable" })),
            )
                .into_response()
        }
    }
}
