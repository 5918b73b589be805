//! Shared state handed to every handler.

use crate::config::ServerConfig;
use intake_core::{MasterKey, Store};
use std::sync::Arc;

/// The store, the master key and the configuration, cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// The store, whichever backend `main` chose.
    pub store: Arc<dyn Store>,
    /// Opens key secrets for signature checks.
    pub master_key: Arc<MasterKey>,
    /// Server settings.
    pub config: Arc<ServerConfig>,
}

impl AppState {
    /// Bundles the parts.
    pub fn new(store: Arc<dyn Store>, master_key: MasterKey, config: ServerConfig) -> Self {
        AppState {
            store,
            master_key: Arc::new(master_key),
            config: Arc::new(config),
        }
    }
}
