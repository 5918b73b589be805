//! `storage`: where the service keeps its data and its photos, and whether
//! it migrates its database.

use crate::open_store;
use intake_server::ImageStoreLocation;
use serde::de::{Deserializer, Error};
use serde::Deserialize;
use std::path::PathBuf;

/// The data dir, the database and the image store.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct StorageSettings {
    /// `INTAKE_DATA_DIR`
    pub data_dir: PathBuf,
    /// `INTAKE_DATABASE_URL`; empty means the embedded store in the data dir.
    #[serde(deserialize_with = "database_url")]
    pub database_url: Option<String>,
    /// `INTAKE_IMAGE_STORE`: where job photos go, `file:///PATH` or
    /// `s3://BUCKET/PREFIX`; empty means the `images` folder of the data dir.
    #[serde(deserialize_with = "image_store")]
    pub image_store: Option<ImageStoreLocation>,
    /// `INTAKE_MIGRATE_ON_START`: whether commands apply pending migrations
    /// when they open the database; without, they refuse one that is behind
    /// and only `intake db migrate` migrates.
    pub migrate_on_start: bool,
}

impl Default for StorageSettings {
    fn default() -> Self {
        StorageSettings {
            data_dir: PathBuf::from("./intake-data"),
            database_url: None,
            image_store: None,
            migrate_on_start: true,
        }
    }
}

impl StorageSettings {
    /// The database URL, defaulting to the embedded store in the data dir.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("intake.db").display()),
        }
    }

    /// Where job photos go: `INTAKE_IMAGE_STORE`, else `DATA_DIR/images`.
    pub fn image_store(&self) -> ImageStoreLocation {
        self.image_store
            .clone()
            .unwrap_or_else(|| ImageStoreLocation::Local(self.data_dir.join("images")))
    }
}

/// A database URL of a backend this build has, or none for the embedded store.
fn database_url<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let url = String::deserialize(deserializer)?;
    if url.is_empty() {
        return Ok(None);
    }
    if !open_store::is_supported(&url) {
        // The URL may hold a password: only its scheme is repeated.
        let scheme = url
            .split_once(':')
            .map_or(url.as_str(), |(scheme, _)| scheme);
        return Err(D::Error::custom(format!(
            "a database URL of scheme `{scheme}` is not supported: use sqlite://PATH, postgres:// or postgresql://"
        )));
    }
    Ok(Some(url))
}

/// An image store location, or none for the data dir's `images` folder.
fn image_store<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<ImageStoreLocation>, D::Error> {
    let text = String::deserialize(deserializer)?;
    if text.is_empty() {
        return Ok(None);
    }
    ImageStoreLocation::parse(&text)
        .map(Some)
        .map_err(D::Error::custom)
}
