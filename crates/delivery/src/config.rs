//! Settings of the dispatcher, shared by `intake serve` and `intake worker`.

use intake_core::delivery::RetrySchedule;
use intake_core::SecretString;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, Tokio1Executor};
use std::time::Duration;

/// The sender of lead e-mails unless `INTAKE_MAIL_FROM` names another.
pub const DEFAULT_MAIL_FROM: &str = "Trade leads <leads@example-trades.co.uk>";

/// How the dispatcher claims, sends and retries leads. `Default` is what
/// production runs with.
#[derive(Debug, Clone)]
pub struct DeliveryConfig {
    /// How long a claimed delivery is reserved for this dispatcher; after a
    /// crash it is claimed again once this has passed.
    pub lease: Duration,
    /// Most deliveries claimed in one go.
    pub batch: u32,
    /// How often the outbox is checked when nothing wakes the dispatcher.
    pub poll_interval: Duration,
    /// Most deliveries in flight to one trade at a time.
    pub per_trade_concurrency: usize,
    /// Most deliveries in flight in this process.
    pub max_in_flight: usize,
    /// Longest one attempt (a webhook POST or an SMTP exchange) may take.
    pub timeout: Duration,
    /// When failed attempts are tried again, and for how long (24 h).
    pub retry: RetrySchedule,
    /// How long sends in flight may take to finish after shutdown begins.
    pub shutdown_grace: Duration,
    /// The relay for e-mail leads; without one they wait (and retry).
    pub smtp: Option<SmtpSettings>,
    /// Public address of this service, for the image links in leads
    /// (`{this}/v1/affiliate-job/images/...`). `intake serve` falls back to
    /// its listen address.
    pub public_api_url: Option<String>,
    /// How long an image link in a lead works.
    pub image_url_ttl: Duration,
}

impl Default for DeliveryConfig {
    fn default() -> Self {
        DeliveryConfig {
            lease: Duration::from_secs(60),
            batch: 32,
            poll_interval: Duration::from_millis(500),
            per_trade_concurrency: 2,
            max_in_flight: 64,
            timeout: Duration::from_secs(10),
            retry: RetrySchedule::default(),
            shutdown_grace: Duration::from_secs(30),
            smtp: None,
            public_api_url: None,
            image_url_ttl: Duration::from_secs(7 * 24 * 3600),
        }
    }
}

/// The SMTP relay and the sender of lead e-mails.
#[derive(Debug, Clone)]
pub struct SmtpSettings {
    /// `smtp://host:port` (plain), `smtp://host:port?tls=required` (STARTTLS)
    /// or `smtps://user:pass@host:465` (TLS); may hold credentials.
    url: SecretString,
    /// The `From` of every lead e-mail.
    from: Mailbox,
}

impl SmtpSettings {
    /// Checks the relay URL and the sender address (`INTAKE_SMTP_URL`, `INTAKE_MAIL_FROM`).
    pub fn new(url: &str, from: &str) -> Result<Self, String> {
        let from: Mailbox = from
            .parse()
            .map_err(|error| format!("INTAKE_MAIL_FROM `{from}` is not an address: {error}"))?;
        AsyncSmtpTransport::<Tokio1Executor>::from_url(url).map_err(|error| {
            // The URL may hold a password: name the problem, not the URL.
            format!("INTAKE_SMTP_URL is not a usable smtp:// or smtps:// URL: {error}")
        })?;
        Ok(SmtpSettings {
            url: SecretString::new(url.to_owned()),
            from,
        })
    }

    /// The relay URL.
    pub(crate) fn url(&self) -> &str {
        self.url.expose()
    }

    /// The sender.
    pub(crate) fn from(&self) -> &Mailbox {
        &self.from
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_settings_check_the_url_and_the_sender_and_never_show_a_password() {
        let settings = SmtpSettings::new(
            "smtps://user:hunter2@smtp.example.com:465",
            "Leads <leads@example.com>",
        )
        .unwrap();
        assert!(!format!("{settings:?}").contains("hunter2"));
        assert!(SmtpSettings::new("smtp://127.0.0.1:2525", "leads@example.com").is_ok());
        assert!(SmtpSettings::new("smtp://127.0.0.1:2525?tls=required", "a@b.example").is_ok());
        assert!(SmtpSettings::new("http://127.0.0.1", "leads@example.com").is_err());
        assert!(SmtpSettings::new("smtp://127.0.0.1:2525", "not an address").is_err());
    }
}
