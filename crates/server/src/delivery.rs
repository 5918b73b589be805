//! Lead delivery in production: the dispatcher and what it sends.
//!
//! Job creation writes one outbox row per recipient and channel in the job's
//! own transaction; a [`Dispatcher`] (in `intake serve`, or `intake worker`
//! apart) claims due rows for a lease, sends each lead as a Standard Webhooks
//! POST or an e-mail, and records the outcome. Leads go out at least once;
//! repeats carry the same delivery id (`webhook-id`, `Message-ID`), which
//! makes them once in effect for a receiver. See docs/delivery.md.

mod attempt;
mod config;
mod dispatcher;
mod email;
mod image_links;
mod lead;
mod send;
mod webhook;

pub use config::{DeliveryConfig, SmtpSettings};
pub use dispatcher::Dispatcher;
pub use image_links::{ImageLinks, LinkError};
pub use webhook::signature as webhook_signature;

use intake_core::{MasterKey, SecretString};

/// The secret trade `company_id` verifies its webhooks with (`whsec_...`),
/// derived from the master key and never stored: what `intake leads
/// webhook-secret COMPANY_ID` prints for the operator to hand to the trade.
pub fn webhook_secret(master: &MasterKey, company_id: u64) -> SecretString {
    master.webhook_secret(company_id)
}

/// Starts the dispatcher inside a production server (unless configured off),
/// woken by job creation and stopped with the server. Image links fall back
/// to the listen address when no public API URL is configured.
pub(crate) fn spawn_in_server(
    state: &crate::state::AppState,
    listen: Option<std::net::SocketAddr>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> Option<tokio::task::JoinHandle<()>> {
    let config = &state.config;
    if config.environment != intake_core::Environment::Production || !config.dispatcher {
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
