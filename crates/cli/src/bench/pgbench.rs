//! `intake bench --pgbench URL`: PostgreSQL's own `pgbench` running the
//! transaction a job costs the store (pgbench_job.sql) at the same
//! concurrency and for the same time, so the service's jobs/s can be read
//! against what the database does with no HTTP, JSON, signing or matching.

use super::measure::{Figures, Load};
use anyhow::{bail, Context};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;

const SCRIPT: &str = include_str!("pgbench_job.sql");

/// Runs a warm-up, then a measured run whose per-transaction log gives the
/// latency percentiles.
pub async fn measure(url: &str, load: Load) -> anyhow::Result<Figures> {
    let dir = tempfile::tempdir().context("making a folder for pgbench")?;
    let script = dir.path().join("job.sql");
    std::fs::write(&script, SCRIPT)?;
    if !load.warmup.is_zero() {
        run(url, load, load.warmup, &script, None).await?;
    }
    let prefix = dir.path().join("txn");
    run(url, load, load.duration, &script, Some(&prefix)).await?;
    let mut latency = Histogram::<u64>::new(3)?;
    let mut requests = 0u64;
    for entry in std::fs::read_dir(dir.path())? {
        let path = entry?.path();
        let is_log = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("txn"));
        if !is_log {
            continue;
        }
        for line in std::fs::read_to_string(&path)?.lines() {
            // client_id transaction_no time_us script_no epoch epoch_us
            let micros = line
                .split_whitespace()
                .nth(2)
                .and_then(|t| t.parse::<u64>().ok())
                .with_context(|| format!("reading pgbench's log line `{line}`"))?;
            latency.record(micros.max(1))?;
            requests += 1;
        }
    }
    if requests == 0 {
        bail!("pgbench ran no transaction");
    }
    Ok(Figures {
        requests,
        elapsed: load.duration,
        statuses: BTreeMap::from([(200, requests)]),
        latency,
    })
}

async fn run(
    url: &str,
    load: Load,
    time: std::time::Duration,
    script: &Path,
    log_prefix: Option<&Path>,
) -> anyhow::Result<()> {
    let mut command = tokio::process::Command::new("pgbench");
    command
        .arg("--no-vacuum")
        .arg(format!("--client={}", load.concurrency))
        .arg(format!("--jobs={}", load.concurrency.min(2)))
        .arg(format!("--time={}", time.as_secs().max(1)))
        .arg(format!("--file={}", script.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(prefix) = log_prefix {
        command
            .arg("--log")
            .arg(format!("--log-prefix={}", prefix.display()));
    }
    command.arg(url);
    let output = command
        .output()
        .await
        .context("starting pgbench (is PostgreSQL's pgbench on the PATH?)")?;
    if !output.status.success() {
        bail!(
            "pgbench failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}
