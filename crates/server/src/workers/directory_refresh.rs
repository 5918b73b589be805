//! Polls the store's directory version and reloads the directory when an
//! import (by this or any other process) moved it; polls the version of the
//! stored spam model the same way and swaps it in.

use crate::state::AppState;
use tokio::sync::watch;

/// Runs until `stopping` turns true.
pub async fn run(state: AppState, mut stopping: watch::Receiver<bool>) {
    let mut ticker = tokio::time::interval(state.config.directory_refresh);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => {
                if let Err(error) = state.refresh_directory().await {
                    if let intake_core::directory::LoadError::Store(error) = &error {
                        crate::telemetry::store_error("directory", error);
                    }
                    tracing::warn!(%error, "directory refresh failed; serving the previous directory");
                }
                if let Err(error) = state.refresh_spam_model().await {
                    crate::telemetry::store_error("spam_model", &error);
                    tracing::warn!(%error, "spam model refresh failed; screening with the model in use");
                }
            }
            changed = stopping.changed() => {
                if changed.is_err() || *stopping.borrow() {
                    return;
                }
            }
        }
    }
}
