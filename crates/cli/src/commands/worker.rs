//! `intake worker`: the lead dispatcher alone, without HTTP, on the store of
//! `intake serve` (docs/operations.md), with the retention task every
//! process runs. Any number of workers and servers may share one store:
//! claims are leased, so no lead is sent by two at once.

use crate::cli::WorkerArgs;
use crate::config::{self, FlagOverrides};
use crate::{data_dir, logging, master_key, open_store};
use intake_delivery::Dispatcher;
use std::process::ExitCode;
use std::sync::Arc;

pub async fn run(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    let settings = config::load(
        args.store.config.as_deref(),
        FlagOverrides::from_store(&args.store),
    )?;
    logging::init(settings.server.log_format);
    // INTAKE_DISPATCHER only tells `serve` whether to dispatch too; a worker always does.
    let delivery = settings.delivery_config()?;
    // Held until the process ends: `intake restore` refuses a data dir in use.
    let _data_dir = data_dir::hold(&settings.storage.data_dir, data_dir::Use::Service)?;
    let store = open_store::open(&settings).await?;
    let master = master_key::load_or_create(&settings.storage.data_dir)?;
    // Retention runs in every process, the worker's included (docs/operations.md).
    let (images, _) = super::serve::open_images(&settings)?;
    let retention_policy = settings.server_config()?.retention;
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let retention = tokio::spawn(intake_server::retention::run(
        store.clone(),
        images,
        retention_policy,
        stopped,
    ));
    let admin = super::admin::start(&settings, store.clone()).await?;
    // Listening for SIGTERM before saying it started: see `shutdown_signal`.
    let shutdown = intake_server::shutdown_signal();
    tracing::info!(
        database = %super::serve::redact(&settings.storage.database_url()),
        lease_seconds = delivery.lease.as_secs(),
        "worker started"
    );
    Dispatcher::new(store, Arc::new(master), delivery)
        .run_until(shutdown)
        .await;
    let _ = stopping.send(true);
    let _ = retention.await;
    admin.stop().await;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}
