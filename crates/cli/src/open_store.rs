//! The one place that names a concrete store, picked from the URL scheme.

use crate::config::Settings;
use anyhow::Context;
use intake_core::{Store, StoreError};
use intake_store_postgres::PostgresStore;
use intake_store_sqlite::{MigrationEntry, MigrationStatus, SqliteStore};
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

/// Opens the store the settings name: migrating it first, or, with
/// `migrate_on_start` off, refusing a database that is behind.
pub async fn open(settings: &Settings) -> anyhow::Result<Arc<dyn Store>> {
    let url = settings.storage.database_url();
    let migrate = settings.storage.migrate_on_start;
    match backend(&url) {
        Some(Backend::Sqlite) => {
            ensure_data_dir(settings)?;
            let store = if migrate {
                SqliteStore::open(&url).await
            } else {
                SqliteStore::open_migrated(&url).await
            };
            let store = store
                .map_err(not_migrated)
                .with_context(|| format!("opening {url}"))?;
            Ok(Arc::new(store))
        }
        Some(Backend::Postgres) => {
            let store = if migrate {
                PostgresStore::open(&url).await
            } else {
                PostgresStore::open_migrated(&url).await
            };
            // The URL may hold a password: it is not repeated in the error.
            let store = store
                .map_err(not_migrated)
                .context("opening the PostgreSQL database")?;
            Ok(Arc::new(store))
        }
        None => anyhow::bail!("unsupported database URL `{url}`"),
    }
}

/// A refusal to open a database that is behind, with what to do about it.
fn not_migrated(error: StoreError) -> anyhow::Error {
    match error {
        StoreError::Other(problem) if problem.starts_with("the database is not migrated") => {
            anyhow::anyhow!(
                "{problem}; run `intake db migrate` (INTAKE_MIGRATE_ON_START is false, so nothing else migrates)"
            )
        }
        other => other.into(),
    }
}

/// Where the database the settings name stands against this build's migrations.
pub async fn migration_status(settings: &Settings) -> anyhow::Result<MigrationStatus> {
    let url = settings.storage.database_url();
    match backend(&url) {
        Some(Backend::Sqlite) => SqliteStore::migration_status(&url)
            .await
            .with_context(|| format!("reading the migrations of {url}")),
        Some(Backend::Postgres) => PostgresStore::migration_status(&url)
            .await
            .context("reading the migrations of the PostgreSQL database"),
        None => anyhow::bail!("unsupported database URL `{url}`"),
    }
}

/// Applies the pending migrations to the database the settings name; the ones applied.
pub async fn migrate(settings: &Settings) -> anyhow::Result<Vec<MigrationEntry>> {
    let url = settings.storage.database_url();
    match backend(&url) {
        Some(Backend::Sqlite) => {
            ensure_data_dir(settings)?;
            SqliteStore::migrate(&url)
                .await
                .with_context(|| format!("migrating {url}"))
        }
        Some(Backend::Postgres) => PostgresStore::migrate(&url)
            .await
            .context("migrating the PostgreSQL database"),
        None => anyhow::bail!("unsupported database URL `{url}`"),
    }
}

/// Whether the settings name the embedded store.
pub fn is_embedded(settings: &Settings) -> bool {
    matches!(
        backend(&settings.storage.database_url()),
        Some(Backend::Sqlite)
    )
}

/// The embedded store in the data dir makes the data dir first.
fn ensure_data_dir(settings: &Settings) -> anyhow::Result<()> {
    if settings.storage.database_url.is_none() {
        crate::data_dir::ensure(&settings.storage.data_dir)?;
    }
    Ok(())
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
