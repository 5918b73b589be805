//! The directory as one process holds it: the category tree and the index,
//! loaded together from the store at one version.

use super::index::DirectoryIndex;
use crate::categories::CategoryTree;
use crate::store::{Store, StoreError};
use std::sync::Arc;

/// A consistent snapshot of the directory.
#[derive(Debug)]
pub struct Directory {
    /// The operator's tree, or the one shipped in the binary.
    pub tree: Arc<CategoryTree>,
    /// Every trade, indexed for matching.
    pub index: DirectoryIndex,
    /// The store's directory version this snapshot was read at.
    pub version: i64,
}

/// Why the directory could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored category tree no longer passes its checks.
    #[error("the stored category tree is invalid:\n{0}")]
    Tree(#[from] crate::categories::CategoryTreeError),
}

impl Directory {
    /// Reads the tree and the index. The version is read first, so a change
    /// made while loading is picked up by the next refresh, never lost.
    pub async fn load(store: &dyn Store) -> Result<Directory, LoadError> {
        let (version, tree) = Self::load_tree(store).await?;
        let index = DirectoryIndex::new(store.directory().await?, &tree);
        Ok(Directory {
            tree: Arc::new(tree),
            index,
            version,
        })
    }

    /// Reads the category tree alone, with the version it was read at: the
    /// operator's tree, else the one shipped; the same tree [`Directory::load`]
    /// takes, for a process that needs category names without the index (the
    /// lead dispatcher).
    pub async fn load_tree(store: &dyn Store) -> Result<(i64, CategoryTree), LoadError> {
        let version = store.directory_version().await?;
        let tree = match store.category_tree().await? {
            Some(json) => CategoryTree::from_json(&json)?,
            None => CategoryTree::embedded().clone(),
        };
        Ok((version, tree))
    }
}
