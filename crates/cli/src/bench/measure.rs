//! The measuring loop: N workers, each sending one request at a time.

use anyhow::Context;
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How hard and how long to push.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    pub concurrency: usize,
    pub warmup: Duration,
    pub duration: Duration,
}

/// Builds request number `n` (signing it, when the scenario signs).
pub type MakeRequest = Arc<dyn Fn(u64) -> anyhow::Result<reqwest::Request> + Send + Sync>;

/// What one measurement found.
#[derive(Debug, Clone)]
pub struct Figures {
    pub requests: u64,
    pub elapsed: Duration,
    /// Answers by status; 0 counts transport errors.
    pub statuses: BTreeMap<u16, u64>,
    /// Latency in microseconds.
    pub latency: Histogram<u64>,
}

impl Figures {
    pub fn per_second(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }

    pub fn percentile_ms(&self, quantile: f64) -> f64 {
        self.latency.value_at_quantile(quantile) as f64 / 1000.0
    }

    pub fn max_ms(&self) -> f64 {
        self.latency.max() as f64 / 1000.0
    }

    /// Answers that were not 2xx.
    pub fn failures(&self) -> u64 {
        self.statuses
            .iter()
            .filter(|(status, _)| !(200..300).contains(*status))
            .map(|(_, n)| n)
            .sum()
    }
}

/// Warms up, then measures `load.duration` of requests from `make`.
pub async fn measure(
    http: &reqwest::Client,
    load: Load,
    make: MakeRequest,
) -> anyhow::Result<Figures> {
    if !load.warmup.is_zero() {
        run_workers(http, load.concurrency, load.warmup, make.clone()).await?;
    }
    let started = Instant::now();
    let mut parts = run_workers(http, load.concurrency, load.duration, make).await?;
    let elapsed = started.elapsed();
    let mut total = parts.pop().context("no worker ran")?;
    for part in parts {
        total.requests += part.requests;
        total
            .latency
            .add(&part.latency)
            .context("merging histograms")?;
        for (status, count) in part.statuses {
            *total.statuses.entry(status).or_default() += count;
        }
    }
    total.elapsed = elapsed;
    Ok(total)
}

async fn run_workers(
    http: &reqwest::Client,
    concurrency: usize,
    length: Duration,
    make: MakeRequest,
) -> anyhow::Result<Vec<Figures>> {
    let deadline = Instant::now() + length;
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..concurrency {
        let http = http.clone();
        let make = make.clone();
        workers.spawn(async move { worker_loop(http, make, deadline, worker as u64).await });
    }
    let mut parts = Vec::with_capacity(concurrency);
    while let Some(joined) = workers.join_next().await {
        parts.push(joined.context("a bench worker panicked")??);
    }
    Ok(parts)
}

async fn worker_loop(
    http: reqwest::Client,
    make: MakeRequest,
    deadline: Instant,
    worker: u64,
) -> anyhow::Result<Figures> {
    let mut figures = Figures {
        requests: 0,
        elapsed: Duration::ZERO,
        statuses: BTreeMap::new(),
        latency: Histogram::new_with_bounds(1, 60_000_000, 3)?,
    };
    let mut n = worker << 40;
    while Instant::now() < deadline {
        let request = make(n)?;
        n += 1;
        let sent = Instant::now();
        let status = match http.execute(request).await {
            Ok(response) => {
                let status = response.status().as_u16();
                match response.bytes().await {
                    Ok(_) => status,
                    Err(_) => 0,
                }
            }
            Err(_) => 0,
        };
        let micros = sent.elapsed().as_micros().clamp(1, 60_000_000) as u64;
        figures.latency.record(micros)?;
        figures.requests += 1;
        *figures.statuses.entry(status).or_default() += 1;
    }
    Ok(figures)
}
