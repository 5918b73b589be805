//! `intake health URL`: the health check of the container image and of the
//! systemd unit's readiness (docs/deploy.md), so that the runtime image
//! needs no curl. Exit 0 when the URL answers 200 within the timeout; 1,
//! with the reason on standard error, otherwise.

use crate::cli::HealthArgs;
use std::process::ExitCode;
use std::time::Duration;

pub async fn run(args: HealthArgs) -> anyhow::Result<ExitCode> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(args.timeout.max(1)))
        .build()?;
    match client.get(&args.url).send().await {
        Ok(response) if response.status() == reqwest::StatusCode::OK => Ok(ExitCode::SUCCESS),
        Ok(response) => {
            eprintln!("unhealthy: {} answered {}", args.url, response.status());
            Ok(ExitCode::from(1))
        }
        Err(error) => {
            eprintln!("unhealthy: {} did not answer: {error}", args.url);
            Ok(ExitCode::from(1))
        }
    }
}
