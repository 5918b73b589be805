//! The directory this process serves from, swapped whole when the store's
//! directory version moves (an import by any process).

use arc_swap::ArcSwap;
use axum::body::Bytes;
use axum::http::HeaderValue;
use intake_core::directory::{Directory, LoadError};
use intake_core::Store;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// A directory snapshot with the category answer prepared once.
#[derive(Debug)]
pub struct Snapshot {
    /// Tree and index.
    pub directory: Directory,
    /// The body of `GET /api/v1/category`.
    pub categories_body: Bytes,
    /// The same body gzipped once, for clients that accept it.
    pub categories_gzip: Bytes,
    /// Its strong ETag.
    pub categories_etag: HeaderValue,
}

impl Snapshot {
    fn new(directory: Directory) -> Self {
        let body =
            serde_json::to_vec(&directory.tree.to_wire()).expect("the tree always serialises");
        let digest = Sha256::digest(&body);
        let etag = HeaderValue::from_str(&format!("\"{}\"", hex::encode(&digest[..16])))
            .expect("hex is a valid header");
        Snapshot {
            directory,
            categories_gzip: Bytes::from(gzip(&body)),
            categories_body: Bytes::from(body),
            categories_etag: etag,
        }
    }
}

/// Compresses once at load, so serving the tree costs no compression per request.
fn gzip(body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder
        .write_all(body)
        .expect("writing to memory cannot fail");
    encoder.finish().expect("writing to memory cannot fail")
}

/// The current snapshot, readable without locks.
#[derive(Debug)]
pub struct DirectoryCell {
    current: ArcSwap<Snapshot>,
}

impl DirectoryCell {
    /// Loads the directory from the store.
    pub async fn load(store: &dyn Store) -> Result<Self, LoadError> {
        let snapshot = Snapshot::new(Directory::load(store).await?);
        Ok(DirectoryCell {
            current: ArcSwap::from_pointee(snapshot),
        })
    }

    /// The snapshot to answer from.
    pub fn current(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// Reloads when the store's version differs from ours; returns whether it did.
    pub async fn refresh(&self, store: &dyn Store) -> Result<bool, LoadError> {
        let version = store.directory_version().await?;
        if version == self.current.load().directory.version {
            return Ok(false);
        }
        let snapshot = Snapshot::new(Directory::load(store).await?);
        tracing::info!(
            version = snapshot.directory.version,
            trades = snapshot.directory.index.len(),
            "directory reloaded"
        );
        self.current.store(Arc::new(snapshot));
        Ok(true)
    }
}
