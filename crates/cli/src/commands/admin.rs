//! The admin listener of `serve` and `worker` (`INTAKE_ADMIN_LISTEN`):
//! started before the process says it is up, stopped after it stops serving.

use crate::config::Settings;
use intake_core::store::Store;
use intake_server::AdminListener;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A running admin listener, or none when the setting is unset.
pub struct Admin(Option<(watch::Sender<bool>, JoinHandle<()>)>);

/// Binds and runs the admin listener the settings name, logging its address.
pub async fn start(settings: &Settings, store: Arc<dyn Store>) -> anyhow::Result<Admin> {
    let Some(address) = settings.server.admin_listen else {
        return Ok(Admin(None));
    };
    let listener = AdminListener::bind(address, store)
        .await
        .map_err(anyhow::Error::msg)?;
    let local = listener.local_addr()?;
    tracing::info!(admin_address = %local, "admin listener started: /metrics, /healthz, /readyz");
    let (stop, stopping) = watch::channel(false);
    let task = tokio::spawn(listener.run(stopping));
    Ok(Admin(Some((stop, task))))
}

impl Admin {
    /// Stops the listener and waits for it.
    pub async fn stop(self) {
        if let Some((stop, task)) = self.0 {
            let _ = stop.send(true);
            let _ = task.await;
        }
    }
}
