//! `intake serve`.

use crate::cli::ServeArgs;
use crate::config::{self, FlagOverrides, Settings};
use crate::{data_dir, logging, master_key, open_store};
use anyhow::Context;
use intake_demo::{DEFAULT_SEED, MIN_TRADES_FOR_FULL_COVERAGE};
use intake_server::{AppState, Application, ImageStore, ImageStoreLocation};
use std::process::ExitCode;

/// Trades in the demo directory a first run loads: enough that every common
/// category has a trade covering every district of Great Britain.
const FIRST_RUN_TRADES: usize = MIN_TRADES_FOR_FULL_COVERAGE;

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let flags = FlagOverrides {
        listen: args.listen,
        environment: args.environment,
        ..FlagOverrides::from_store(&args.store)
    };
    let settings = config::load(args.store.config.as_deref(), flags)?;
    logging::init(settings.server.log_format);
    let server_config = settings.server_config()?;
    // Held until the process ends: `intake restore` refuses a data dir in use.
    let _data_dir = data_dir::hold(&settings.storage.data_dir, data_dir::Use::Service)?;
    let store = open_store::open(&settings).await?;
    let master = master_key::load_or_create(&settings.storage.data_dir)?;
    let address = settings.server.listen;
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))?;
    let environment = server_config.environment;
    if settings.server.demo_data
        && !args.no_demo_data
        && settings.storage.database_url().starts_with("sqlite:")
        && store.directory_version().await? == 0
    {
        tracing::info!(
            trades = FIRST_RUN_TRADES,
            "empty embedded store: loading a demo directory (skip with --no-demo-data)"
        );
        super::demo_data::load(
            store.as_ref(),
            FIRST_RUN_TRADES,
            DEFAULT_SEED,
            crate::progress::Progress::Quiet,
        )
        .await?;
    }
    let (images, image_location) = open_images(&settings)?;
    let state = AppState::load(store, master, server_config)
        .await
        .context("loading the directory")?
        .with_images(images);
    let admin = super::admin::start(&settings, state.store.clone()).await?;
    let app = Application::build(listener, state);
    let local = app.local_addr()?;
    // Listening for SIGTERM before saying so: see `shutdown_signal`.
    let shutdown = intake_server::shutdown_signal();
    tracing::info!(address = %local, %environment, database = %redact(&settings.storage.database_url()), images = %image_location, "listening");
    app.run_until(shutdown).await.context("serving")?;
    admin.stop().await;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// The image store the settings name, with its location for logs (also `intake worker`).
pub(crate) fn open_images(settings: &Settings) -> anyhow::Result<(ImageStore, ImageStoreLocation)> {
    let location = settings.storage.image_store();
    let images = ImageStore::open(&location)
        .with_context(|| format!("opening the image store {location}"))?;
    Ok((images, location))
}

/// A database URL without its password, for logs.
pub(super) fn redact(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((credentials, host)) => {
                let user = credentials.split(':').next().unwrap_or_default();
                format!("{scheme}://{user}:***@{host}")
            }
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn a_database_password_never_reaches_the_log() {
        assert_eq!(
            redact("postgres://intake:hunter2@db:5432/intake"),
            "postgres://intake:***@db:5432/intake"
        );
        assert_eq!(
            redact("sqlite://./intake-data/intake.db"),
            "sqlite://./intake-data/intake.db"
        );
    }
}
