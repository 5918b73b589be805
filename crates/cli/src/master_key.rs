//! The master key: `INTAKE_MASTER_KEY`, else a 0600 file in the data dir,
//! created on first use.

use anyhow::{bail, Context};
use intake_core::MasterKey;
use std::io::Write;
use std::path::Path;

/// The key file's name in the data dir.
pub const FILE_NAME: &str = "master.key";

/// Loads the master key, creating the key file if there is none.
pub fn load_or_create(data_dir: &Path) -> anyhow::Result<MasterKey> {
    if let Ok(text) = std::env::var("INTAKE_MASTER_KEY") {
        return MasterKey::parse(&text).context("INTAKE_MASTER_KEY");
    }
    let path = data_dir.join(FILE_NAME);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            check_permissions(&path)?;
            MasterKey::parse(&text).with_context(|| format!("master key file {}", path.display()))
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => create(data_dir, &path),
        Err(error) => Err(error).with_context(|| format!("reading {}", path.display())),
    }
}

fn create(data_dir: &Path, path: &Path) -> anyhow::Result<MasterKey> {
    crate::data_dir::ensure(data_dir)?;
    let key = MasterKey::generate();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(format!("{}\n", key.to_hex()).as_bytes())?;
            file.sync_all()?;
            tracing::info!(path = %path.display(), "created a new master key file; back it up: without it, stored key secrets cannot be opened");
            Ok(key)
        }
        // Another process created it first: use theirs.
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => load_or_create(data_dir),
        Err(error) => Err(error).with_context(|| format!("creating {}", path.display())),
    }
}

#[cfg(unix)]
fn check_permissions(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        bail!(
            "the master key file {} is readable by others (mode {mode:o}); run `chmod 600` on it",
            path.display()
        );
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_permissions(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}
