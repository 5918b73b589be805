//! `intake bench`: a load generator that signs every request itself, and
//! measures the server's `/healthz` in the same run as a ceiling.

mod jobs;
mod measure;
mod pgbench;
mod report;
mod scenarios;

pub use scenarios::Scenario;

use crate::cli::BenchArgs;
use crate::commands::client_from;
use anyhow::{bail, Context};
use measure::{measure, Load};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

pub async fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.concurrency == 0 || args.duration == 0 {
        bail!("--concurrency and --duration must be at least 1");
    }
    let scenario = args.scenario;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(args.concurrency)
        .timeout(Duration::from_secs(30))
        .build()?;
    let client = client_from(&args.client)?.with_http_client(http.clone());
    let load = Load {
        concurrency: args.concurrency,
        warmup: Duration::from_secs(args.warmup),
        duration: Duration::from_secs(args.duration),
    };

    let health_url = reqwest::Url::parse(&args.client.base_url)?.join("/healthz")?;
    let health_client = http.clone();
    let ceiling = measure(
        &http,
        load,
        Arc::new(move |_| {
            health_client
                .get(health_url.clone())
                .build()
                .context("building /healthz")
        }),
    )
    .await?;

    let figures = measure(
        &http,
        load,
        scenario.requests(client, &args.client.base_url)?,
    )
    .await?;
    if let Some(refused) = figures.statuses.get(&429) {
        eprintln!(
            "warning: {refused} requests were refused with 429 (the per-key limits): these figures measure the limiter. Start the server with INTAKE_RATE_LIMIT_PER_SECOND=0 INTAKE_MAX_IN_FLIGHT_PER_KEY=0."
        );
    }
    let mut rows = vec![
        (scenario.label().to_owned(), figures),
        ("/healthz (ceiling)".to_owned(), ceiling),
    ];
    if let Some(url) = &args.pgbench {
        rows.push((
            "pgbench (same transaction)".to_owned(),
            pgbench::measure(url, load).await?,
        ));
    }
    if args.json {
        outln!("{}", report::json(&args, &rows))?;
    } else {
        out!("{}", report::table(&args, &rows))?;
    }
    Ok(ExitCode::SUCCESS)
}
