//! The one place that names a concrete store, picked from the URL scheme.

use crate::config::Settings;
use anyhow::Context;
use intake_core::Store;
use intake_store_postgres::PostgresStore;
use intake_store_sqlite::SqliteStore;
use std::sync::Arc;

/// Which backend a database URL names.
enum Backend {
    Sqlite,
    Postgres,
}

fn backend(url: &str) -> Option<Backend> {
    if url.starts_with("sqlite:") {
        Some(Backend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Some(Backend::Postgres)
    } else {
        None
    }
}

/// Whether this build has a store for `url`.
pub fn is_supported(url: &str) -> bool {
    backend(url).is_some()
}

/// Opens (and migrates) the store the settings name.
pub async fn open(settings: &Settings) -> anyhow::Result<Arc<dyn Store>> {
    let url = settings.storage.database_url();
    match backend(&url) {
        Some(Backend::Sqlite) => {
            if settings.storage.database_url.is_none() {
                crate::data_dir::ensure(&settings.storage.data_dir)?;
            }
            let store = SqliteStore::open(&url)
                .await
                .with_context(|| format!("opening {url}"))?;
            Ok(Arc::new(store))
        }
        Some(Backend::Postgres) => {
            // The URL may hold a password: it is not repeated in the error.
            let store = PostgresStore::open(&url)
                .await
                .context("opening the PostgreSQL database")?;
            Ok(Arc::new(store))
        }
        None => anyhow::bail!("unsupported database URL `{url}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::is_supported;

    #[test]
    fn the_scheme_picks_the_backend() {
        assert!(is_supported("sqlite://./intake-data/intake.db"));
        assert!(is_supported("sqlite::memory:"));
        assert!(is_supported("postgres://intake@db:5432/intake"));
        assert!(is_supported("postgresql://intake@db/intake"));
        assert!(!is_supported("mysql://db/intake"));
        assert!(!is_supported("db/intake"));
    }
}
