//! `intake bench`: a load generator that signs every request itself, and
//! measures the server's `/healthz` in the same run as a ceiling.

mod measure;
mod report;

use crate::cli::BenchArgs;
use crate::commands::client_from;
use anyhow::{bail, Context};
use measure::{measure, Load};
use reqwest::Method;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// What a scenario sends.
#[derive(Debug, Clone, Copy)]
enum Scenario {
    /// `GET /preferred-start-options`, signed.
    Options,
}

impl Scenario {
    fn parse(name: &str) -> anyhow::Result<Self> {
        match name {
            "options" => Ok(Scenario::Options),
            other => bail!("unknown scenario `{other}`; available: options"),
        }
    }
}

pub async fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.concurrency == 0 || args.duration == 0 {
        bail!("--concurrency and --duration must be at least 1");
    }
    let scenario = Scenario::parse(&args.scenario)?;
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

    let figures = match scenario {
        Scenario::Options => {
            measure(
                &http,
                load,
                Arc::new(move |_| {
                    Ok(client.signed_request(Method::GET, "/preferred-start-options", None)?)
                }),
            )
            .await?
        }
    };
    let rows = [
        (format!("{} (signed)", args.scenario), figures),
        ("/healthz (ceiling)".to_owned(), ceiling),
    ];
    if args.json {
        println!("{}", report::json(&args, &rows));
    } else {
        print!("{}", report::table(&args, &rows));
    }
    Ok(ExitCode::SUCCESS)
}
