//! `connections`: how long a client may take at each stage of a connection,
//! and how many may be open at once.

use super::wire;
use anyhow::bail;
use intake_server::ConnectionLimits;
use serde::Deserialize;
use std::time::Duration;

/// The timeouts of a connection's stages and the cap on connections (issue 13).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct ConnectionSettings {
    /// `INTAKE_HEADER_READ_TIMEOUT_SECONDS`: longest a request head may take to arrive.
    #[serde(rename = "header_read_timeout_seconds", with = "wire::seconds")]
    pub header_read_timeout: Duration,
    /// `INTAKE_IDLE_TIMEOUT_SECONDS`: longest a keep-alive connection may wait
    /// for its next request, or an answer wait for the client to read it.
    #[serde(rename = "idle_timeout_seconds", with = "wire::seconds")]
    pub idle_timeout: Duration,
    /// `INTAKE_BODY_READ_TIMEOUT_SECONDS`: longest a request body may take to arrive (408).
    #[serde(rename = "body_read_timeout_seconds", with = "wire::seconds")]
    pub body_read_timeout: Duration,
    /// `INTAKE_MAX_CONNECTIONS`: most client connections open at once.
    pub max_connections: usize,
}

impl Default for ConnectionSettings {
    fn default() -> Self {
        let limits = ConnectionLimits::default();
        ConnectionSettings {
            header_read_timeout: limits.header_read_timeout,
            idle_timeout: limits.idle_timeout,
            body_read_timeout: limits.body_read_timeout,
            max_connections: limits.max_connections,
        }
    }
}

impl ConnectionSettings {
    /// Checks the ranges; a body may not outlast the request it belongs to.
    pub fn validate(&self, request_timeout: Duration) -> anyhow::Result<()> {
        for (name, timeout) in [
            ("header_read_timeout_seconds", self.header_read_timeout),
            ("idle_timeout_seconds", self.idle_timeout),
        ] {
            let seconds = timeout.as_secs();
            if !(1..=3600).contains(&seconds) {
                bail!("{name} must be 1 to 3600, not {seconds}");
            }
        }
        if self.body_read_timeout.is_zero() || self.body_read_timeout >= request_timeout {
            bail!(
                "body_read_timeout_seconds must be at least 1 and less than request_timeout_seconds ({}), so that a stalled body gets its 408 before the request times out; not {}",
                request_timeout.as_secs(),
                self.body_read_timeout.as_secs()
            );
        }
        if !(1..=1_000_000).contains(&self.max_connections) {
            bail!(
                "max_connections must be 1 to 1000000, not {}",
                self.max_connections
            );
        }
        Ok(())
    }

    /// The server's connection limits.
    pub fn limits(&self) -> ConnectionLimits {
        ConnectionLimits {
            header_read_timeout: self.header_read_timeout,
            idle_timeout: self.idle_timeout,
            body_read_timeout: self.body_read_timeout,
            max_connections: self.max_connections,
        }
    }
}
