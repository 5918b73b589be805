//! `delivery`: how leads are claimed, sent and retried.

use super::wire::{self, HttpUrl};
use anyhow::bail;
use intake_core::delivery::RetrySchedule;
use intake_delivery::{DeliveryConfig, SmtpSettings, DEFAULT_MAIL_FROM};
use serde::Deserialize;
use std::net::SocketAddr;
use std::time::Duration;

/// The dispatcher's settings, shared by `serve` in production and `worker`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct DeliverySettings {
    /// `INTAKE_SMTP_URL`: the relay for e-mail leads (`smtp://`, `smtps://`);
    /// empty means e-mail leads wait.
    #[serde(deserialize_with = "wire::empty_is_none")]
    pub smtp_url: Option<String>,
    /// `INTAKE_MAIL_FROM`: the sender of lead e-mails.
    pub mail_from: String,
    /// `INTAKE_PUBLIC_API_URL`: this service's public address, for image links
    /// in leads; empty means `http://` and the listen address.
    #[serde(deserialize_with = "wire::empty_is_none")]
    pub public_api_url: Option<HttpUrl>,
    /// `INTAKE_IMAGE_URL_TTL_SECONDS`: how long an image link in a lead works.
    #[serde(rename = "image_url_ttl_seconds", with = "wire::seconds")]
    pub image_url_ttl: Duration,
    /// `INTAKE_DELIVERY_RETRY_WINDOW_SECONDS`: how long failed leads are retried.
    #[serde(rename = "delivery_retry_window_seconds", with = "wire::seconds")]
    pub retry_window: Duration,
    /// `INTAKE_DELIVERY_RETRY_BASE_MILLIS`: the delay ceiling before the first retry (it doubles).
    #[serde(rename = "delivery_retry_base_millis", with = "wire::millis")]
    pub retry_base: Duration,
    /// `INTAKE_DELIVERY_TIMEOUT_SECONDS`: longest one webhook or SMTP attempt.
    #[serde(rename = "delivery_timeout_seconds", with = "wire::seconds")]
    pub timeout: Duration,
    /// `INTAKE_DELIVERY_LEASE_SECONDS`: how long a claimed lead is reserved for its process.
    #[serde(rename = "delivery_lease_seconds", with = "wire::seconds")]
    pub lease: Duration,
    /// `INTAKE_DELIVERY_POLL_MILLIS`: how often the outbox is checked when nothing wakes it.
    #[serde(rename = "delivery_poll_millis", with = "wire::millis")]
    pub poll_interval: Duration,
    /// `INTAKE_DELIVERY_PER_TRADE`: most leads in flight to one trade, per process.
    #[serde(rename = "delivery_per_trade")]
    pub per_trade: usize,
}

impl Default for DeliverySettings {
    fn default() -> Self {
        let delivery = DeliveryConfig::default();
        DeliverySettings {
            smtp_url: None,
            mail_from: DEFAULT_MAIL_FROM.to_owned(),
            public_api_url: None,
            image_url_ttl: delivery.image_url_ttl,
            retry_window: delivery.retry.window,
            retry_base: delivery.retry.base,
            timeout: delivery.timeout,
            lease: delivery.lease,
            poll_interval: delivery.poll_interval,
            per_trade: delivery.per_trade_concurrency,
        }
    }
}

impl DeliverySettings {
    /// The dispatcher's settings, checked; `listen` stands in for an unset
    /// `public_api_url`.
    pub fn config(
        &self,
        listen: SocketAddr,
        shutdown_grace: Duration,
    ) -> anyhow::Result<DeliveryConfig> {
        let defaults = DeliveryConfig::default();
        let timeout = self.timeout.as_secs();
        if !(1..=120).contains(&timeout) {
            bail!("delivery_timeout_seconds must be 1 to 120, not {timeout}");
        }
        if self.retry_window.is_zero() {
            bail!("delivery_retry_window_seconds must be at least 1");
        }
        let base = self.retry_base.as_millis();
        if !(10..=3_600_000).contains(&base) {
            bail!("delivery_retry_base_millis must be 10 to 3600000, not {base}");
        }
        if self.lease.as_secs() < timeout + 3 {
            bail!(
                "delivery_lease_seconds must be at least delivery_timeout_seconds + 3 ({}), so that no send outlives its claim",
                timeout + 3
            );
        }
        let poll = self.poll_interval.as_millis();
        if !(10..=60_000).contains(&poll) {
            bail!("delivery_poll_millis must be 10 to 60000, not {poll}");
        }
        if self.image_url_ttl < Duration::from_secs(60) {
            bail!("image_url_ttl_seconds must be at least 60");
        }
        if !(1..=100).contains(&self.per_trade) {
            bail!(
                "delivery_per_trade must be 1 to 100, not {}",
                self.per_trade
            );
        }
        let smtp = match &self.smtp_url {
            None => None,
            Some(url) => Some(SmtpSettings::new(url, &self.mail_from).map_err(anyhow::Error::msg)?),
        };
        let public_api_url = match &self.public_api_url {
            Some(url) => Some(url.as_str().to_owned()),
            None => {
                // Port 0 is only known once bound: `serve` then uses the bound address.
                let host = if listen.ip().is_unspecified() {
                    SocketAddr::from(([127, 0, 0, 1], listen.port()))
                } else {
                    listen
                };
                (listen.port() != 0).then(|| format!("http://{host}"))
            }
        };
        Ok(DeliveryConfig {
            timeout: self.timeout,
            lease: self.lease,
            poll_interval: self.poll_interval,
            per_trade_concurrency: self.per_trade,
            retry: RetrySchedule {
                base: self.retry_base,
                window: self.retry_window,
                ..defaults.retry
            },
            shutdown_grace,
            smtp,
            public_api_url,
            image_url_ttl: self.image_url_ttl,
            ..defaults
        })
    }
}
