//! Layered configuration: defaults, then a TOML file, then `INTAKE_*`
//! environment variables, then flags. Validated once, at start.
//!
//! The file and the environment are flat (`max_skew_seconds`,
//! `INTAKE_MAX_SKEW_SECONDS`); in here the settings are grouped in typed
//! sections, each reading its own keys. The keys the sections declare are
//! the only list of settings: the file may hold no other, and only those
//! `INTAKE_*` variables are read. Each default belongs to the crate that
//! uses the setting; the sections take theirs from it.

mod connections;
mod delivery;
mod jobs;
mod keys;
mod limits;
mod server;
mod storage;
mod wire;

#[cfg(test)]
mod tests;

pub use connections::ConnectionSettings;
pub use delivery::DeliverySettings;
pub use jobs::JobSettings;
pub use limits::LimitSettings;
pub use server::ServerSettings;
pub use storage::StorageSettings;

use crate::cli::StoreArgs;
use anyhow::{bail, Context};
use figment::providers::{Env, Format, Serialized, Toml};
use figment::{Figment, Provider};
use intake_images::ImageLimits;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Every setting of the service, in its section.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Where it listens, as which environment, its clocks and logs.
    pub server: ServerSettings,
    /// Connection timeouts and the cap on connections.
    pub connections: ConnectionSettings,
    /// Body sizes, memory budgets and per-key limits.
    pub limits: LimitSettings,
    /// Screening, matching and answering jobs.
    pub jobs: JobSettings,
    /// Sending leads.
    pub delivery: DeliverySettings,
    /// The data dir, the database, its migrations and the image store.
    pub storage: StorageSettings,
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

    /// The flag that sets `key`, for errors.
    fn flag(key: &str) -> Option<&'static str> {
        match key {
            "listen" => Some("--listen"),
            "environment" => Some("--environment"),
            "data_dir" => Some("--data-dir"),
            "database_url" => Some("--database"),
            _ => None,
        }
    }
}

/// Reads every layer. The configuration file comes from `--config`, else `INTAKE_CONFIG`.
pub fn load(config_file: Option<&Path>, flags: FlagOverrides) -> anyhow::Result<Settings> {
    let known = Settings::keys();
    let mut figment = Figment::new();
    let file = config_file
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("INTAKE_CONFIG").map(PathBuf::from));
    if let Some(file) = file {
        if !file.is_file() {
            bail!("the configuration file {} does not exist", file.display());
        }
        let toml = Toml::file(&file);
        refuse_unknown_keys(&toml, &file, &known)?;
        figment = figment.merge(toml);
    }
    // Only the settings' own variables: INTAKE_MASTER_KEY, INTAKE_CONFIG,
    // client-side and test variables stay out.
    figment = figment
        .merge(Env::prefixed("INTAKE_").only(&known))
        .merge(Serialized::defaults(flags));
    let settings = Settings::extract(&figment)?;
    settings.validate()?;
    Ok(settings)
}

/// A key in the file that no section reads is a mistake (a typo, or a
/// setting of another version) that would otherwise pass in silence.
fn refuse_unknown_keys(toml: &impl Provider, file: &Path, known: &[&str]) -> anyhow::Result<()> {
    let data = toml
        .data()
        .with_context(|| format!("reading the configuration file {}", file.display()))?;
    for key in data.values().flat_map(|dict| dict.keys()) {
        if !known.contains(&key.as_str()) {
            bail!(
                "unknown setting `{key}` in {} (the settings are listed in README.md)",
                file.display()
            );
        }
    }
    Ok(())
}

impl Settings {
    /// Every key of every section, as written in the file (and, upper-cased
    /// after `INTAKE_`, in the environment).
    pub fn keys() -> Vec<&'static str> {
        [
            keys::of::<ServerSettings>(),
            keys::of::<ConnectionSettings>(),
            keys::of::<LimitSettings>(),
            keys::of::<JobSettings>(),
            keys::of::<DeliverySettings>(),
            keys::of::<StorageSettings>(),
        ]
        .concat()
    }

    /// Each section read from the layers; an error names the key where it was set.
    fn extract(figment: &Figment) -> anyhow::Result<Settings> {
        let describe =
            |error| keys::describe(error, FlagOverrides::flag).context("invalid configuration");
        Ok(Settings {
            server: figment.extract().map_err(describe)?,
            connections: figment.extract().map_err(describe)?,
            limits: figment.extract().map_err(describe)?,
            jobs: figment.extract().map_err(describe)?,
            delivery: figment.extract().map_err(describe)?,
            storage: figment.extract().map_err(describe)?,
        })
    }

    /// Checks the ranges and how settings bear on each other, once, at
    /// start, with a message naming the setting.
    pub fn validate(&self) -> anyhow::Result<()> {
        self.server.validate()?;
        self.jobs.validate()?;
        self.limits
            .validate(&ImageLimits::default(), self.server.request_timeout)?;
        self.connections.validate(self.server.request_timeout)?;
        self.delivery_config()?;
        Ok(())
    }

    /// The dispatcher's settings, checked (`serve` in production and `worker`).
    pub fn delivery_config(&self) -> anyhow::Result<intake_delivery::DeliveryConfig> {
        self.delivery
            .config(self.server.listen, self.server.shutdown_grace)
    }

    /// The server's settings: its defaults, with each section written over them.
    pub fn server_config(&self) -> anyhow::Result<intake_server::ServerConfig> {
        let mut config = intake_server::ServerConfig::default();
        self.server.apply(&mut config);
        self.limits.apply(&mut config);
        self.jobs.apply(&mut config);
        config.connections = self.connections.limits();
        config.delivery = self.delivery_config()?;
        Ok(config)
    }
}
