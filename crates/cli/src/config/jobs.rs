//! `jobs`: what happens to a submitted job: the spam screen, matching,
//! repeated submissions and the links in its answer.

use super::wire::{self, HttpUrl};
use anyhow::bail;
use intake_server::ServerConfig;
use serde::Deserialize;
use std::time::Duration;

/// How jobs are screened, matched and answered.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct JobSettings {
    /// `INTAKE_PUBLIC_BASE_URL`: the marketplace's public address; profiles are `{this}/trades/{companyId}`.
    #[serde(deserialize_with = "wire::parsed")]
    pub public_base_url: HttpUrl,
    /// `INTAKE_IDEMPOTENCY_TTL_SECONDS`: how long answers are kept for repeated submissions.
    #[serde(rename = "idempotency_ttl_seconds", with = "wire::seconds")]
    pub idempotency_ttl: Duration,
    /// `INTAKE_MAX_RECIPIENTS`: most trades a job goes to.
    pub max_recipients: usize,
    /// `INTAKE_SPAM_THRESHOLD`: the spam score at which a job is refused and quarantined.
    pub spam_threshold: f64,
}

impl Default for JobSettings {
    fn default() -> Self {
        let server = ServerConfig::default();
        JobSettings {
            public_base_url: server
                .public_base_url
                .parse()
                .expect("the server's default public_base_url is an http(s) address"),
            idempotency_ttl: server.idempotency_ttl,
            max_recipients: server.max_recipients,
            spam_threshold: server.spam_threshold,
        }
    }
}

impl JobSettings {
    /// Checks the ranges, with a message naming the setting.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.idempotency_ttl < Duration::from_secs(60) {
            bail!("idempotency_ttl_seconds must be at least 60");
        }
        if !(self.spam_threshold.is_finite() && self.spam_threshold > 0.0) {
            bail!(
                "spam_threshold must be a number above 0, not {}",
                self.spam_threshold
            );
        }
        if !(1..=20).contains(&self.max_recipients) {
            bail!(
                "max_recipients must be 1 to 20, not {}",
                self.max_recipients
            );
        }
        Ok(())
    }

    /// Writes this section into the server's settings.
    pub fn apply(&self, config: &mut ServerConfig) {
        config.public_base_url = self.public_base_url.as_str().to_owned();
        config.idempotency_ttl = self.idempotency_ttl;
        config.max_recipients = self.max_recipients;
        config.spam_threshold = self.spam_threshold;
    }
}
