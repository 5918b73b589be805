//! The image object store: where the cleaned photos of jobs are kept.
//!
//! The files live under generated names only (`jobs/{folder}/{n}-{random}.{ext}`);
//! a client's file name never becomes a path. Photos are written before their
//! job is committed, so [`WrittenImages`] removes what it wrote unless told
//! to keep it: a failed or replayed submission leaves no stray file.

use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path as ObjectPath;
use object_store::prefix::PrefixStore;
use object_store::{Attribute, Attributes, ObjectStore, PutOptions, PutPayload};
use std::fmt;
use std::sync::Arc;

mod location;

pub use location::ImageStoreLocation;

/// A failure of the image store; the text is for logs, never for clients.
#[derive(Debug)]
pub struct StorageError(pub String);

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StorageError {}

impl From<object_store::Error> for StorageError {
    fn from(error: object_store::Error) -> Self {
        StorageError(error.to_string())
    }
}

/// The object store holding job photos; cheap to clone.
#[derive(Clone)]
pub struct ImageStore {
    objects: Arc<dyn ObjectStore>,
    /// Whether the backend keeps a content type with each object (the local
    /// file system does not, and refuses attributes).
    keeps_content_type: bool,
    location: ImageStoreLocation,
}

impl fmt::Debug for ImageStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ImageStore({})", self.location)
    }
}

impl ImageStore {
    /// Opens the store at `location`, creating a local folder if needed.
    pub fn open(location: &ImageStoreLocation) -> Result<Self, StorageError> {
        let (objects, keeps_content_type): (Arc<dyn ObjectStore>, bool) = match location {
            ImageStoreLocation::Local(dir) => {
                std::fs::create_dir_all(dir).map_err(|error| {
                    StorageError(format!("cannot create {}: {error}", dir.display()))
                })?;
                let local = LocalFileSystem::new_with_prefix(dir)?.with_automatic_cleanup(true);
                (Arc::new(local), false)
            }
            ImageStoreLocation::S3 { bucket, prefix } => {
                let s3 = AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()?;
                if prefix.is_empty() {
                    (Arc::new(s3), true)
                } else {
                    (Arc::new(PrefixStore::new(s3, prefix.as_str())), true)
                }
            }
            ImageStoreLocation::Memory => (Arc::new(InMemory::new()), true),
        };
        Ok(ImageStore {
            objects,
            keeps_content_type,
            location: location.clone(),
        })
    }

    /// A store in memory (see [`ImageStoreLocation::Memory`]).
    pub fn in_memory() -> Self {
        ImageStore::open(&ImageStoreLocation::Memory).expect("an in-memory store always opens")
    }

    /// A store on an `object_store` backend built by the caller (one with
    /// settings no `INTAKE_IMAGE_STORE` URL carries, or a wrapper such as
    /// `object_store::throttle`); it keeps content types. `location` is how
    /// the store is named in logs.
    pub fn from_object_store(objects: Arc<dyn ObjectStore>, location: ImageStoreLocation) -> Self {
        ImageStore {
            objects,
            keeps_content_type: true,
            location,
        }
    }

    /// Where this store keeps its objects.
    pub fn location(&self) -> &ImageStoreLocation {
        &self.location
    }

    /// Writes one object under `key`.
    pub async fn put(
        &self,
        key: &str,
        bytes: Vec<u8>,
        content_type: &str,
    ) -> Result<(), StorageError> {
        let mut options = PutOptions::default();
        if self.keeps_content_type {
            let mut attributes = Attributes::new();
            attributes.insert(Attribute::ContentType, content_type.to_owned().into());
            options.attributes = attributes;
        }
        self.objects
            .put_opts(&ObjectPath::from(key), PutPayload::from(bytes), options)
            .await?;
        Ok(())
    }

    /// Reads one object.
    pub async fn get(&self, key: &str) -> Result<Vec<u8>, StorageError> {
        let found = self.objects.get(&ObjectPath::from(key)).await?;
        Ok(found.bytes().await?.to_vec())
    }

    /// Removes one object; one already gone is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        match self.objects.delete(&ObjectPath::from(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(error.into()),
        }
    }

    /// Starts a batch of writes that is undone unless kept.
    pub fn batch(&self) -> WrittenImages {
        WrittenImages {
            store: self.clone(),
            keys: Vec::new(),
        }
    }
}

/// Objects written for one submission, deleted again unless [`kept`](Self::keep).
///
/// [`discard`](Self::discard) deletes them before answering; should the
/// batch be dropped without either (a panic half-way), `Drop` still deletes
/// them in the background.
#[derive(Debug)]
pub struct WrittenImages {
    store: ImageStore,
    keys: Vec<String>,
}

impl WrittenImages {
    /// Writes one object and remembers it.
    pub async fn put(
        &mut self,
        key: String,
        bytes: Vec<u8>,
        content_type: &str,
    ) -> Result<(), StorageError> {
        // Remembered first: a write that fails half-way may still leave a file.
        self.keys.push(key.clone());
        self.store.put(&key, bytes, content_type).await
    }

    /// The job was committed: its objects stay.
    pub fn keep(mut self) {
        self.keys.clear();
    }

    /// Deletes every object written so far.
    pub async fn discard(mut self) {
        let keys = std::mem::take(&mut self.keys);
        if !keys.is_empty() {
            tracing::info!(
                files = keys.len(),
                "deleting the photos of a job that was not created"
            );
        }
        delete_all(&self.store, keys).await;
    }
}

impl Drop for WrittenImages {
    fn drop(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        if keys.is_empty() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let store = self.store.clone();
            runtime.spawn(async move { delete_all(&store, keys).await });
        }
    }
}

async fn delete_all(store: &ImageStore, keys: Vec<String>) {
    for key in keys {
        if let Err(error) = store.delete(&key).await {
            tracing::error!(%key, %error, "could not delete the image of a job that was not created");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_discarded_batch_leaves_no_file_and_no_folder() {
        let dir = tempfile::tempdir().unwrap();
        let store = ImageStore::open(&ImageStoreLocation::Local(dir.path().to_owned())).unwrap();
        let mut batch = store.batch();
        batch
            .put("jobs/a/1-x.png".into(), vec![1, 2, 3], "image/png")
            .await
            .unwrap();
        assert_eq!(store.get("jobs/a/1-x.png").await.unwrap(), vec![1, 2, 3]);
        batch.discard().await;
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[tokio::test]
    async fn a_kept_batch_stays() {
        let store = ImageStore::in_memory();
        let mut batch = store.batch();
        batch
            .put("jobs/b/1-y.gif".into(), vec![9], "image/gif")
            .await
            .unwrap();
        batch.keep();
        assert_eq!(store.get("jobs/b/1-y.gif").await.unwrap(), vec![9]);
    }
}
