//! The lead dispatcher of `intake_delivery` run inside a production server.

use crate::state::AppState;
use intake_core::Environment;
use intake_delivery::Dispatcher;

/// Starts the dispatcher inside a production server (unless configured off),
/// woken by job creation and stopped with the server. Image links fall back
/// to the listen address when no public API URL is configured.
pub(crate) fn spawn_in_server(
    state: &AppState,
    listen: Option<std::net::SocketAddr>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> Option<tokio::task::JoinHandle<()>> {
    let config = &state.config;
    if config.environment != Environment::Production || !config.dispatcher {
        return None;
    }
    let mut delivery = config.delivery.clone();
    if delivery.public_api_url.is_none() {
        delivery.public_api_url = listen.map(|address| format!("http://{address}"));
    }
    let dispatcher = Dispatcher::new(state.store.clone(), state.master_key.clone(), delivery)
        .with_wake(state.deliveries_due.clone());
    Some(tokio::spawn(dispatcher.run_until(async move {
        // A dropped sender (the server stopped otherwise) stops it too.
        let _ = stopping.wait_for(|stopping| *stopping).await;
    })))
}
