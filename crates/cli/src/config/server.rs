//! `server`: what the process is and how it starts and stops.

use super::wire;
use crate::logging::LogFormat;
use anyhow::bail;
use intake_core::Environment;
use intake_server::ServerConfig;
use serde::Deserialize;
use std::net::SocketAddr;
use std::time::Duration;

/// The address `serve` listens on unless told otherwise.
const DEFAULT_LISTEN: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 8080);

/// The process: where it listens, as which environment, its clocks and logs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct ServerSettings {
    /// `INTAKE_LISTEN`
    #[serde(deserialize_with = "wire::socket_address")]
    pub listen: SocketAddr,
    /// `INTAKE_ADMIN_LISTEN`: where `serve` and `worker` answer `/metrics`,
    /// `/healthz` and `/readyz`; none when unset or empty.
    #[serde(deserialize_with = "wire::empty_is_none")]
    pub admin_listen: Option<SocketAddr>,
    /// `INTAKE_ENVIRONMENT`
    #[serde(deserialize_with = "wire::parsed")]
    pub environment: Environment,
    /// `INTAKE_MAX_SKEW_SECONDS`
    #[serde(rename = "max_skew_seconds", with = "wire::seconds")]
    pub max_skew: Duration,
    /// `INTAKE_SHUTDOWN_GRACE_SECONDS`
    #[serde(rename = "shutdown_grace_seconds", with = "wire::seconds")]
    pub shutdown_grace: Duration,
    /// `INTAKE_REQUEST_TIMEOUT_SECONDS`
    #[serde(rename = "request_timeout_seconds", with = "wire::seconds")]
    pub request_timeout: Duration,
    /// `INTAKE_DIRECTORY_REFRESH_SECONDS`: how often to look for directory imports.
    #[serde(rename = "directory_refresh_seconds", with = "wire::seconds")]
    pub directory_refresh: Duration,
    /// `INTAKE_LOG_FORMAT`: `text` or `json`.
    pub log_format: LogFormat,
    /// `INTAKE_DEMO_DATA`: load a demo directory into an empty embedded store.
    pub demo_data: bool,
    /// `INTAKE_DISPATCHER`: whether a production `serve` sends leads itself
    /// (false when `intake worker` runs apart).
    pub dispatcher: bool,
}

impl Default for ServerSettings {
    fn default() -> Self {
        let server = ServerConfig::default();
        ServerSettings {
            listen: DEFAULT_LISTEN,
            admin_listen: None,
            environment: server.environment,
            max_skew: server.max_skew,
            shutdown_grace: server.shutdown_grace,
            request_timeout: server.request_timeout,
            directory_refresh: server.directory_refresh,
            log_format: LogFormat::default(),
            demo_data: true,
            dispatcher: server.dispatcher,
        }
    }
}

impl ServerSettings {
    /// Checks the ranges, with a message naming the setting.
    pub fn validate(&self) -> anyhow::Result<()> {
        let skew = self.max_skew.as_secs();
        if !(1..=3600).contains(&skew) {
            bail!("max_skew_seconds must be between 1 and 3600, not {skew}");
        }
        if self.directory_refresh.is_zero() {
            bail!("directory_refresh_seconds must be at least 1");
        }
        if self.request_timeout.is_zero() {
            bail!("request_timeout_seconds must be at least 1");
        }
        Ok(())
    }

    /// Writes this section into the server's settings.
    pub fn apply(&self, config: &mut ServerConfig) {
        config.environment = self.environment;
        config.max_skew = self.max_skew;
        config.shutdown_grace = self.shutdown_grace;
        config.request_timeout = self.request_timeout;
        config.directory_refresh = self.directory_refresh;
        config.dispatcher = self.dispatcher;
    }
}
