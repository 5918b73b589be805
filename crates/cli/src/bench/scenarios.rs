//! What each scenario sends. Request `n` is built from `n` alone, so a run is
//! repeatable and every worker sends different requests.

use super::measure::MakeRequest;
use anyhow::Context;
use intake_client::Client;
use intake_core::geography::Geography;
use intake_demo::COMMON_CATEGORIES;
use reqwest::Method;
use std::sync::Arc;

/// The scenarios `--scenario` accepts; its help lists them from here.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Scenario {
    /// `GET /preferred-start-options`, signed.
    Options,
    /// `GET /trades/search` over GB postcodes and common categories, signed.
    Search,
    /// `GET /api/v1/category`, public, gzip accepted as browsers do.
    Categories,
    /// `POST /jobs`, signed, every request a distinct realistic job.
    Jobs,
}

impl Scenario {
    pub fn label(self) -> &'static str {
        match self {
            Scenario::Options => "options (signed)",
            Scenario::Search => "search (signed)",
            Scenario::Categories => "categories",
            Scenario::Jobs => "jobs (signed POST)",
        }
    }

    pub fn requests(self, client: Client, base_url: &str) -> anyhow::Result<MakeRequest> {
        Ok(match self {
            Scenario::Options => Arc::new(move |_| {
                Ok(client.signed_request(Method::GET, "/preferred-start-options", None)?)
            }),
            Scenario::Search => {
                let places = postcodes();
                Arc::new(move |n| {
                    let postcode =
                        &places[(n.wrapping_mul(2_654_435_761) % places.len() as u64) as usize];
                    let category = COMMON_CATEGORIES[(n % COMMON_CATEGORIES.len() as u64) as usize];
                    // Mostly first pages at the default size, as integrators call it.
                    let page = if n % 4 == 3 { 2 } else { 1 };
                    let path = format!(
                        "/trades/search?postcode={postcode}&category={category}&page={page}"
                    );
                    Ok(client.signed_request(Method::GET, &path, None)?)
                })
            }
            Scenario::Jobs => {
                let places = super::jobs::postcodes();
                // A run-specific prefix, so a second run's keys never replay the first's.
                let run = intake_client::new_idempotency_key();
                Arc::new(move |n| {
                    let body = serde_json::to_vec(&super::jobs::job(n, &places))?;
                    let mut request = client.signed_request(
                        Method::POST,
                        "/jobs",
                        Some(("application/json", body)),
                    )?;
                    request
                        .headers_mut()
                        .insert("idempotency-key", format!("{run}-{n}").parse()?);
                    Ok(request)
                })
            }
            Scenario::Categories => {
                let url = reqwest::Url::parse(base_url)?.join("/api/v1/category")?;
                let http = reqwest::Client::new();
                Arc::new(move |_| {
                    http.get(url.clone())
                        .header("accept-encoding", "gzip")
                        .build()
                        .context("building the request")
                })
            }
        })
    }
}

/// One postcode per GB sector (`SW1A 1` + `AA`), URL-encoded.
fn postcodes() -> Vec<String> {
    let geography = Geography::embedded();
    let mut codes: Vec<String> = geography
        .districts()
        .map(|(district, _)| format!("{district}%201AA"))
        .collect();
    codes.sort();
    codes
}
