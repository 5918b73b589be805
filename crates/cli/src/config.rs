//! Layered configuration: defaults, then a TOML file, then `INTAKE_*`
//! environment variables, then flags. Validated once, at start.

use crate::cli::StoreArgs;
use anyhow::{bail, Context};
use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use intake_core::Environment;
use intake_images::ImageLimits;
use intake_server::ImageStoreLocation;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

const MIB: u64 = 1024 * 1024;

/// Every setting of the service, with its default.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// `INTAKE_LISTEN`
    pub listen: String,
    /// `INTAKE_ENVIRONMENT`
    pub environment: String,
    /// `INTAKE_DATA_DIR`
    pub data_dir: PathBuf,
    /// `INTAKE_DATABASE_URL`; empty means the embedded store in the data dir.
    pub database_url: String,
    /// `INTAKE_MAX_SKEW_SECONDS`
    pub max_skew_seconds: u64,
    /// `INTAKE_BODY_LIMIT_BYTES`
    pub body_limit_bytes: usize,
    /// `INTAKE_SHUTDOWN_GRACE_SECONDS`
    pub shutdown_grace_seconds: u64,
    /// `INTAKE_REQUEST_TIMEOUT_SECONDS`
    pub request_timeout_seconds: u64,
    /// `INTAKE_HEADER_READ_TIMEOUT_SECONDS`: longest a request head may take to arrive.
    pub header_read_timeout_seconds: u64,
    /// `INTAKE_IDLE_TIMEOUT_SECONDS`: longest a keep-alive connection may wait
    /// for its next request, or an answer wait for the client to read it.
    pub idle_timeout_seconds: u64,
    /// `INTAKE_BODY_READ_TIMEOUT_SECONDS`: longest a request body may take to arrive (408).
    pub body_read_timeout_seconds: u64,
    /// `INTAKE_MAX_CONNECTIONS`: most client connections open at once.
    pub max_connections: usize,
    /// `INTAKE_LOG_FORMAT`: `text` or `json`.
    pub log_format: String,
    /// `INTAKE_DEMO_DATA`: load a demo directory into an empty embedded store.
    pub demo_data: bool,
    /// `INTAKE_DIRECTORY_REFRESH_SECONDS`: how often to look for directory imports.
    pub directory_refresh_seconds: u64,
    /// `INTAKE_PUBLIC_BASE_URL`: the marketplace's public address; profiles are `{this}/trades/{companyId}`.
    pub public_base_url: String,
    /// `INTAKE_IDEMPOTENCY_TTL_SECONDS`: how long answers are kept for repeated submissions.
    pub idempotency_ttl_seconds: u64,
    /// `INTAKE_MAX_RECIPIENTS`: most trades a job goes to.
    pub max_recipients: usize,
    /// `INTAKE_SPAM_THRESHOLD`: the spam score at which a job is refused and quarantined.
    pub spam_threshold: f64,
    /// `INTAKE_MULTIPART_BODY_LIMIT_BYTES`: largest job-with-images body (413 above it).
    pub multipart_body_limit_bytes: usize,
    /// `INTAKE_IMAGE_MEMORY_BUDGET_MIB`: memory all image work of the process
    /// may hold at once; at least what one image at the limits takes.
    pub image_memory_budget_mib: u64,
    /// `INTAKE_IMAGE_BUDGET_WAIT_SECONDS`: longest a request waits for its
    /// images' share of that memory (503 after it).
    pub image_budget_wait_seconds: u64,
    /// `INTAKE_BODY_BUDGET_BYTES`: most request body bytes held at once by all
    /// requests of the process (503 when a body finds no room).
    pub body_budget_bytes: usize,
    /// `INTAKE_IMAGE_STORE`: where job photos go, `file:///PATH` or
    /// `s3://BUCKET/PREFIX`; empty means the `images` folder of the data dir.
    pub image_store: String,
    /// `INTAKE_RATE_LIMIT_PER_SECOND`: each key's rate in this process; 0 disables.
    pub rate_limit_per_second: u32,
    /// `INTAKE_RATE_LIMIT_BURST`: requests a key may make at once above its rate.
    pub rate_limit_burst: u32,
    /// `INTAKE_MAX_IN_FLIGHT_PER_KEY`: each key's requests in flight in this process; 0 disables.
    pub max_in_flight_per_key: u32,
    /// `INTAKE_DISPATCHER`: whether a production `serve` sends leads itself
    /// (false when `intake worker` runs apart).
    pub dispatcher: bool,
    /// `INTAKE_SMTP_URL`: the relay for e-mail leads (`smtp://`, `smtps://`);
    /// empty means e-mail leads wait.
    pub smtp_url: String,
    /// `INTAKE_MAIL_FROM`: the sender of lead e-mails.
    pub mail_from: String,
    /// `INTAKE_PUBLIC_API_URL`: this service's public address, for image links
    /// in leads; empty means `http://` and the listen address.
    pub public_api_url: String,
    /// `INTAKE_IMAGE_URL_TTL_SECONDS`: how long an image link in a lead works.
    pub image_url_ttl_seconds: u64,
    /// `INTAKE_DELIVERY_RETRY_WINDOW_SECONDS`: how long failed leads are retried.
    pub delivery_retry_window_seconds: u64,
    /// `INTAKE_DELIVERY_RETRY_BASE_MILLIS`: the delay ceiling before the first retry (it doubles).
    pub delivery_retry_base_millis: u64,
    /// `INTAKE_DELIVERY_TIMEOUT_SECONDS`: longest one webhook or SMTP attempt.
    pub delivery_timeout_seconds: u64,
    /// `INTAKE_DELIVERY_LEASE_SECONDS`: how long a claimed lead is reserved for its process.
    pub delivery_lease_seconds: u64,
    /// `INTAKE_DELIVERY_POLL_MILLIS`: how often the outbox is checked when nothing wakes it.
    pub delivery_poll_millis: u64,
    /// `INTAKE_DELIVERY_PER_TRADE`: most leads in flight to one trade, per process.
    pub delivery_per_trade: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            listen: "127.0.0.1:8080".to_owned(),
            environment: "staging".to_owned(),
            data_dir: PathBuf::from("./intake-data"),
            database_url: String::new(),
            max_skew_seconds: 300,
            body_limit_bytes: 1024 * 1024,
            shutdown_grace_seconds: 30,
            request_timeout_seconds: 30,
            header_read_timeout_seconds: intake_server::DEFAULT_HEADER_READ_TIMEOUT.as_secs(),
            idle_timeout_seconds: intake_server::DEFAULT_IDLE_TIMEOUT.as_secs(),
            body_read_timeout_seconds: intake_server::DEFAULT_BODY_READ_TIMEOUT.as_secs(),
            max_connections: intake_server::DEFAULT_MAX_CONNECTIONS,
            log_format: "text".to_owned(),
            demo_data: true,
            directory_refresh_seconds: 3,
            public_base_url: "https://www.example-trades.co.uk".to_owned(),
            idempotency_ttl_seconds: 24 * 3600,
            max_recipients: 3,
            spam_threshold: 1.0,
            multipart_body_limit_bytes: intake_server::DEFAULT_MULTIPART_BODY_LIMIT,
            image_memory_budget_mib: intake_server::DEFAULT_IMAGE_MEMORY_BUDGET / MIB,
            image_budget_wait_seconds: intake_server::DEFAULT_IMAGE_BUDGET_WAIT.as_secs(),
            body_budget_bytes: intake_server::DEFAULT_BODY_BUDGET,
            image_store: String::new(),
            rate_limit_per_second: intake_server::DEFAULT_RATE_LIMIT_PER_SECOND,
            rate_limit_burst: intake_server::DEFAULT_RATE_LIMIT_BURST,
            max_in_flight_per_key: intake_server::DEFAULT_MAX_IN_FLIGHT_PER_KEY,
            dispatcher: true,
            smtp_url: String::new(),
            mail_from: "Trade leads <leads@example-trades.co.uk>".to_owned(),
            public_api_url: String::new(),
            image_url_ttl_seconds: 7 * 24 * 3600,
            delivery_retry_window_seconds: 24 * 3600,
            delivery_retry_base_millis: 5000,
            delivery_timeout_seconds: 10,
            delivery_lease_seconds: 60,
            delivery_poll_millis: 500,
            delivery_per_trade: 2,
        }
    }
}

/// Flags given on the command line, layered last.
#[derive(Debug, Default, Serialize)]
pub struct FlagOverrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_url: Option<String>,
}

impl FlagOverrides {
    /// The store flags alone.
    pub fn from_store(store: &StoreArgs) -> Self {
        FlagOverrides {
            data_dir: store.data_dir.clone(),
            database_url: store.database_url.clone(),
            ..Default::default()
        }
    }
}

/// Reads every layer. The configuration file comes from `--config`, else `INTAKE_CONFIG`.
pub fn load(config_file: Option<&Path>, flags: FlagOverrides) -> anyhow::Result<Settings> {
    let mut figment = Figment::from(Serialized::defaults(Settings::default()));
    let file = config_file
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("INTAKE_CONFIG").map(PathBuf::from));
    if let Some(file) = file {
        if !file.is_file() {
            bail!("the configuration file {} does not exist", file.display());
        }
        figment = figment.merge(Toml::file(file));
    }
    // Only the documented variables: INTAKE_MASTER_KEY and client-side ones stay out.
    let known = [
        "LISTEN",
        "ENVIRONMENT",
        "DATA_DIR",
        "DATABASE_URL",
        "MAX_SKEW_SECONDS",
        "BODY_LIMIT_BYTES",
        "SHUTDOWN_GRACE_SECONDS",
        "REQUEST_TIMEOUT_SECONDS",
        "HEADER_READ_TIMEOUT_SECONDS",
        "IDLE_TIMEOUT_SECONDS",
        "BODY_READ_TIMEOUT_SECONDS",
        "MAX_CONNECTIONS",
        "LOG_FORMAT",
        "DEMO_DATA",
        "DIRECTORY_REFRESH_SECONDS",
        "PUBLIC_BASE_URL",
        "IDEMPOTENCY_TTL_SECONDS",
        "MAX_RECIPIENTS",
        "SPAM_THRESHOLD",
        "MULTIPART_BODY_LIMIT_BYTES",
        "IMAGE_MEMORY_BUDGET_MIB",
        "IMAGE_BUDGET_WAIT_SECONDS",
        "BODY_BUDGET_BYTES",
        "IMAGE_STORE",
        "RATE_LIMIT_PER_SECOND",
        "RATE_LIMIT_BURST",
        "MAX_IN_FLIGHT_PER_KEY",
        "DISPATCHER",
        "SMTP_URL",
        "MAIL_FROM",
        "PUBLIC_API_URL",
        "IMAGE_URL_TTL_SECONDS",
        "DELIVERY_RETRY_WINDOW_SECONDS",
        "DELIVERY_RETRY_BASE_MILLIS",
        "DELIVERY_TIMEOUT_SECONDS",
        "DELIVERY_LEASE_SECONDS",
        "DELIVERY_POLL_MILLIS",
        "DELIVERY_PER_TRADE",
    ];
    figment = figment
        .merge(Env::prefixed("INTAKE_").only(&known))
        .merge(Serialized::defaults(flags));
    let settings: Settings = figment.extract().context("invalid configuration")?;
    settings.validate()?;
    Ok(settings)
}

impl Settings {
    /// Checks every value once, at start, with a message naming the setting.
    pub fn validate(&self) -> anyhow::Result<()> {
        self.listen_addr()?;
        self.environment()?;
        if self.max_skew_seconds == 0 || self.max_skew_seconds > 3600 {
            bail!(
                "max_skew_seconds must be between 1 and 3600, not {}",
                self.max_skew_seconds
            );
        }
        if !(self.public_base_url.starts_with("https://")
            || self.public_base_url.starts_with("http://"))
        {
            bail!(
                "public_base_url must be an http(s) address, not `{}`",
                self.public_base_url
            );
        }
        if self.idempotency_ttl_seconds < 60 {
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
        if self.directory_refresh_seconds == 0 {
            bail!("directory_refresh_seconds must be at least 1");
        }
        if self.body_limit_bytes < 1024 {
            bail!("body_limit_bytes must be at least 1024");
        }
        let image_limits = ImageLimits::default();
        let smallest = image_limits.max_file_bytes + 64 * 1024;
        if self.multipart_body_limit_bytes < smallest {
            bail!(
                "multipart_body_limit_bytes must be at least {smallest} (one image of {} bytes and the job)",
                image_limits.max_file_bytes
            );
        }
        let largest = self.multipart_body_limit_bytes.max(self.body_limit_bytes);
        if self.body_budget_bytes < largest {
            bail!(
                "body_budget_bytes must be at least the largest body limit ({largest}), or a body at that limit could never be read; not {}",
                self.body_budget_bytes
            );
        }
        self.image_store()?;
        self.validate_image_memory()?;
        self.validate_limits()?;
        self.validate_connections()?;
        self.delivery_config()?;
        if !matches!(self.log_format.as_str(), "text" | "json") {
            bail!(
                "log_format must be `text` or `json`, not `{}`",
                self.log_format
            );
        }
        let url = self.database_url();
        if !crate::open_store::is_supported(&url) {
            bail!("database URL `{url}`: use sqlite://PATH, postgres:// or postgresql://");
        }
        Ok(())
    }

    /// The image memory budget must hold the costliest image the limits
    /// admit, or such an image could never be cleaned (issue 13).
    fn validate_image_memory(&self) -> anyhow::Result<()> {
        const MOST_MIB: u64 = 1024 * 1024;
        let limits = ImageLimits::default();
        let least_mib = intake_images::largest_weight(&limits).div_ceil(MIB);
        if !(least_mib..=MOST_MIB).contains(&self.image_memory_budget_mib) {
            bail!(
                "image_memory_budget_mib must be {least_mib} to {MOST_MIB}, not {}: cleaning the costliest image the limits admit ({} megapixels, files of up to {} MiB) can take {least_mib} MiB, and a budget smaller than that could never let it through",
                self.image_memory_budget_mib,
                limits.max_pixels / 1_000_000,
                limits.max_file_bytes as u64 / MIB
            );
        }
        if !(1..self.request_timeout_seconds).contains(&self.image_budget_wait_seconds) {
            bail!(
                "image_budget_wait_seconds must be at least 1 and less than request_timeout_seconds ({}), so that a request kept waiting for image memory gets that 503 before the request timeout; not {}",
                self.request_timeout_seconds,
                self.image_budget_wait_seconds
            );
        }
        Ok(())
    }

    /// The per-key limits: 0 switches a limit off; a rate needs a burst.
    fn validate_limits(&self) -> anyhow::Result<()> {
        const MOST: u32 = 1_000_000;
        if self.rate_limit_per_second > MOST {
            bail!(
                "rate_limit_per_second must be 0 (off) to {MOST}, not {}",
                self.rate_limit_per_second
            );
        }
        if self.rate_limit_per_second > 0 && !(1..=MOST).contains(&self.rate_limit_burst) {
            bail!(
                "rate_limit_burst must be 1 to {MOST} while the rate limit is on, not {}",
                self.rate_limit_burst
            );
        }
        if self.max_in_flight_per_key > MOST {
            bail!(
                "max_in_flight_per_key must be 0 (off) to {MOST}, not {}",
                self.max_in_flight_per_key
            );
        }
        Ok(())
    }

    /// The connection timeouts and cap (issue 13).
    fn validate_connections(&self) -> anyhow::Result<()> {
        if self.request_timeout_seconds == 0 {
            bail!("request_timeout_seconds must be at least 1");
        }
        for (name, seconds) in [
            (
                "header_read_timeout_seconds",
                self.header_read_timeout_seconds,
            ),
            ("idle_timeout_seconds", self.idle_timeout_seconds),
        ] {
            if !(1..=3600).contains(&seconds) {
                bail!("{name} must be 1 to 3600, not {seconds}");
            }
        }
        if !(1..self.request_timeout_seconds).contains(&self.body_read_timeout_seconds) {
            bail!(
                "body_read_timeout_seconds must be at least 1 and less than request_timeout_seconds ({}), so that a stalled body gets its 408 before the request times out; not {}",
                self.request_timeout_seconds,
                self.body_read_timeout_seconds
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

    /// The dispatcher's settings, checked (`serve` in production and `worker`).
    pub fn delivery_config(&self) -> anyhow::Result<intake_delivery::DeliveryConfig> {
        use intake_delivery::{DeliveryConfig, SmtpSettings};
        let defaults = DeliveryConfig::default();
        if !(1..=120).contains(&self.delivery_timeout_seconds) {
            bail!(
                "delivery_timeout_seconds must be 1 to 120, not {}",
                self.delivery_timeout_seconds
            );
        }
        if self.delivery_retry_window_seconds == 0 {
            bail!("delivery_retry_window_seconds must be at least 1");
        }
        if !(10..=3_600_000).contains(&self.delivery_retry_base_millis) {
            bail!(
                "delivery_retry_base_millis must be 10 to 3600000, not {}",
                self.delivery_retry_base_millis
            );
        }
        if self.delivery_lease_seconds < self.delivery_timeout_seconds + 3 {
            bail!(
                "delivery_lease_seconds must be at least delivery_timeout_seconds + 3 ({}), so that no send outlives its claim",
                self.delivery_timeout_seconds + 3
            );
        }
        if !(10..=60_000).contains(&self.delivery_poll_millis) {
            bail!(
                "delivery_poll_millis must be 10 to 60000, not {}",
                self.delivery_poll_millis
            );
        }
        if self.image_url_ttl_seconds < 60 {
            bail!("image_url_ttl_seconds must be at least 60");
        }
        if !(1..=100).contains(&self.delivery_per_trade) {
            bail!(
                "delivery_per_trade must be 1 to 100, not {}",
                self.delivery_per_trade
            );
        }
        let smtp = if self.smtp_url.is_empty() {
            None
        } else {
            Some(SmtpSettings::new(&self.smtp_url, &self.mail_from).map_err(anyhow::Error::msg)?)
        };
        let public_api_url = if self.public_api_url.is_empty() {
            // Port 0 is only known once bound: `serve` then uses the bound address.
            let listen = self.listen_addr()?;
            let host = if listen.ip().is_unspecified() {
                SocketAddr::from(([127, 0, 0, 1], listen.port()))
            } else {
                listen
            };
            (listen.port() != 0).then(|| format!("http://{host}"))
        } else if self.public_api_url.starts_with("https://")
            || self.public_api_url.starts_with("http://")
        {
            Some(self.public_api_url.trim_end_matches('/').to_owned())
        } else {
            bail!(
                "public_api_url must be an http(s) address, not `{}`",
                self.public_api_url
            );
        };
        Ok(DeliveryConfig {
            timeout: Duration::from_secs(self.delivery_timeout_seconds),
            lease: Duration::from_secs(self.delivery_lease_seconds),
            poll_interval: Duration::from_millis(self.delivery_poll_millis),
            per_trade_concurrency: self.delivery_per_trade,
            retry: intake_core::delivery::RetrySchedule {
                base: Duration::from_millis(self.delivery_retry_base_millis),
                window: Duration::from_secs(self.delivery_retry_window_seconds),
                ..defaults.retry
            },
            shutdown_grace: Duration::from_secs(self.shutdown_grace_seconds),
            smtp,
            public_api_url,
            image_url_ttl: Duration::from_secs(self.image_url_ttl_seconds),
            ..defaults
        })
    }

    /// The address to bind.
    pub fn listen_addr(&self) -> anyhow::Result<SocketAddr> {
        self.listen
            .parse()
            .with_context(|| format!("listen address `{}` is not HOST:PORT", self.listen))
    }

    /// The environment this process runs as.
    pub fn environment(&self) -> anyhow::Result<Environment> {
        Ok(self.environment.parse()?)
    }

    /// The database URL, defaulting to the embedded store in the data dir.
    pub fn database_url(&self) -> String {
        if self.database_url.is_empty() {
            format!("sqlite://{}", self.data_dir.join("intake.db").display())
        } else {
            self.database_url.clone()
        }
    }

    /// Where job photos go: `INTAKE_IMAGE_STORE`, else `DATA_DIR/images`.
    pub fn image_store(&self) -> anyhow::Result<ImageStoreLocation> {
        if self.image_store.is_empty() {
            return Ok(ImageStoreLocation::Local(self.data_dir.join("images")));
        }
        ImageStoreLocation::parse(&self.image_store).map_err(anyhow::Error::msg)
    }

    /// The server's part of the settings.
    pub fn server_config(&self) -> anyhow::Result<intake_server::ServerConfig> {
        Ok(intake_server::ServerConfig {
            environment: self.environment()?,
            max_skew: Duration::from_secs(self.max_skew_seconds),
            body_limit: self.body_limit_bytes,
            multipart_body_limit: self.multipart_body_limit_bytes,
            body_budget: self.body_budget_bytes,
            image_limits: ImageLimits::default(),
            image_memory_budget: self.image_memory_budget_mib * MIB,
            image_budget_wait: Duration::from_secs(self.image_budget_wait_seconds),
            shutdown_grace: Duration::from_secs(self.shutdown_grace_seconds),
            request_timeout: Duration::from_secs(self.request_timeout_seconds),
            connections: intake_server::ConnectionLimits {
                header_read_timeout: Duration::from_secs(self.header_read_timeout_seconds),
                idle_timeout: Duration::from_secs(self.idle_timeout_seconds),
                body_read_timeout: Duration::from_secs(self.body_read_timeout_seconds),
                max_connections: self.max_connections,
            },
            directory_refresh: Duration::from_secs(self.directory_refresh_seconds),
            public_base_url: self.public_base_url.trim_end_matches('/').to_owned(),
            idempotency_ttl: Duration::from_secs(self.idempotency_ttl_seconds),
            max_recipients: self.max_recipients,
            spam_threshold: self.spam_threshold,
            rate_limit_per_second: self.rate_limit_per_second,
            rate_limit_burst: self.rate_limit_burst,
            max_in_flight_per_key: self.max_in_flight_per_key,
            dispatcher: self.dispatcher,
            delivery: self.delivery_config()?,
        })
    }
}
