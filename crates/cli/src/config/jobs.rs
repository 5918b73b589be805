//! `jobs`: what happens to a submitted job: the spam screen, matching,
//! repeated submissions and the links in its answer.

use super::wire::{self, HttpUrl};
use anyhow::bail;
use intake_core::jobs::route::FAIRNESS_WINDOW;
use intake_server::retention::RetentionPolicy;
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
    /// `INTAKE_JOB_RETENTION_DAYS`: how long jobs, with their photos, recipients and leads, are kept.
    #[serde(rename = "job_retention_days", with = "wire::days")]
    pub job_retention: Duration,
    /// `INTAKE_QUARANTINE_RETENTION_DAYS`: how long quarantined submissions are kept.
    #[serde(rename = "quarantine_retention_days", with = "wire::days")]
    pub quarantine_retention: Duration,
    /// `INTAKE_DELIVERY_RETENTION_DAYS`: how long delivered, dead and gone leads are kept.
    #[serde(rename = "delivery_retention_days", with = "wire::days")]
    pub delivery_retention: Duration,
    /// `INTAKE_RETENTION_INTERVAL_SECONDS`: how often each process removes what is older.
    #[serde(rename = "retention_interval_seconds", with = "wire::seconds")]
    pub retention_interval: Duration,
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
            job_retention: server.retention.jobs,
            quarantine_retention: server.retention.quarantine,
            delivery_retention: server.retention.deliveries,
            retention_interval: server.retention.interval,
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
        // Fairness counts a trade's leads of the last week from its jobs'
        // recipients: a shorter period would undercount them.
        let fairness = Duration::from_secs(FAIRNESS_WINDOW.whole_seconds().unsigned_abs());
        if self.job_retention < fairness {
            bail!(
                "job_retention_days must be at least {} (the fairness window), not {}",
                FAIRNESS_WINDOW.whole_days(),
                self.job_retention.as_secs() / 86_400
            );
        }
        for (key, days) in [
            ("quarantine_retention_days", self.quarantine_retention),
            ("delivery_retention_days", self.delivery_retention),
        ] {
            if days.is_zero() {
                bail!("{key} must be at least 1");
            }
        }
        if self.retention_interval < Duration::from_secs(1) {
            bail!("retention_interval_seconds must be at least 1");
        }
        Ok(())
    }

    /// Writes this section into the server's settings.
    pub fn apply(&self, config: &mut ServerConfig) {
        config.public_base_url = self.public_base_url.as_str().to_owned();
        config.idempotency_ttl = self.idempotency_ttl;
        config.max_recipients = self.max_recipients;
        config.spam_threshold = self.spam_threshold;
        config.retention = RetentionPolicy {
            jobs: self.job_retention,
            quarantine: self.quarantine_retention,
            deliveries: self.delivery_retention,
            interval: self.retention_interval,
        };
    }
}
