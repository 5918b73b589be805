//! The data dir: created private (0700), since it holds the database and the master key.

use anyhow::Context;
use std::path::Path;

/// Creates `path` (and its parents) if missing; a new leaf directory is 0700.
pub fn ensure(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(path)
        .with_context(|| format!("creating the data dir {}", path.display()))
}
