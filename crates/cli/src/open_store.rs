//! The one place that names a concrete store, picked from the URL scheme.

use crate::config::Settings;
use anyhow::Context;
use intake_core::Store;
use intake_store_sqlite::SqliteStore;
use std::sync::Arc;

/// Opens (and migrates) the store the settings name.
pub async fn open(settings: &Settings) -> anyhow::Result<Arc<dyn Store>> {
    let url = settings.database_url();
    if url.starts_with("sqlite:") {
        if settings.database_url.is_empty() {
            crate::data_dir::ensure(&settings.data_dir)?;
        }
        let store = SqliteStore::open(&url)
            .await
            .with_context(|| format!("opening {url}"))?;
        return Ok(Arc::new(store));
    }
    anyhow::bail!("unsupported database URL `{url}`")
}
