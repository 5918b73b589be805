//! The data dir: created private (0700), since it holds the database and the
//! master key; and held while in use, so that `intake restore` never writes
//! under a running service.
//!
//! `intake serve` and `intake worker` hold a shared lock on `intake.lock`
//! in the data dir while they run (any number may share one dir); `intake
//! restore` takes it exclusively and is refused while any of them runs, and
//! a service is refused start while a restore writes. The lock is the
//! kernel's (`flock`), so it goes with the process however that ends: a
//! crash or `SIGKILL` leaves no stale lock behind.

use anyhow::{bail, Context};
use std::fs::File;
use std::path::{Path, PathBuf};

/// The lock file's name in the data dir.
pub const LOCK_FILE: &str = "intake.lock";

/// Creates `path` (and its parents) if missing; a new leaf directory is 0700.
pub fn ensure(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Ok(());
    }
    create_private(path).with_context(|| format!("creating the data dir {}", path.display()))
}

/// Creates `path` and its parents, the leaf readable by its owner only (0700).
pub fn create_private(path: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(path)
}

/// A hold on a data dir, released when dropped (or when the process ends).
#[derive(Debug)]
pub struct Hold {
    _file: File,
}

/// How a data dir is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// A running service: shared with other services on the same dir.
    Service,
    /// A restore: alone.
    Restore,
}

/// Holds the data dir at `path` (creating it if missing) for `usage`, or
/// fails at once, saying who holds it.
pub fn hold(path: &Path, usage: Use) -> anyhow::Result<Hold> {
    ensure(path)?;
    let lock_path = path.join(LOCK_FILE);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options
        .open(&lock_path)
        .with_context(|| format!("opening {}", lock_path.display()))?;
    if !lock(&file, usage).with_context(|| format!("locking {}", lock_path.display()))? {
        match usage {
            Use::Service => bail!(
                "the data dir {} is being restored (`intake restore` holds {LOCK_FILE}); start the service when it has finished",
                path.display()
            ),
            Use::Restore => bail!(
                "the data dir {} is in use: an `intake serve` or `intake worker` holds {LOCK_FILE}; stop every process using it first",
                path.display()
            ),
        }
    }
    Ok(Hold { _file: file })
}

/// Takes the lock without waiting; whether it was free.
#[cfg(unix)]
fn lock(file: &File, usage: Use) -> std::io::Result<bool> {
    use rustix::fs::{flock, FlockOperation};
    let operation = match usage {
        Use::Service => FlockOperation::NonBlockingLockShared,
        Use::Restore => FlockOperation::NonBlockingLockExclusive,
    };
    match flock(file, operation) {
        Ok(()) => Ok(true),
        Err(error) if error == rustix::io::Errno::WOULDBLOCK => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// Elsewhere there is no lock: a restore is not guarded.
#[cfg(not(unix))]
fn lock(_file: &File, _usage: Use) -> std::io::Result<bool> {
    Ok(true)
}

/// The entries of `path` other than those named in `except`, sorted; none
/// for a missing dir.
pub fn entries_except(path: &Path, except: &[&str]) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(path) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", path.display()))?;
        if !except.iter().any(|name| entry.file_name() == **name) {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn services_share_a_data_dir_and_a_restore_waits_for_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data");
        let first = hold(&path, Use::Service).unwrap();
        let second = hold(&path, Use::Service).unwrap();
        let refused = hold(&path, Use::Restore).unwrap_err().to_string();
        assert!(refused.contains("is in use"), "{refused}");
        drop((first, second));

        let restore = hold(&path, Use::Restore).unwrap();
        let refused = hold(&path, Use::Service).unwrap_err().to_string();
        assert!(refused.contains("is being restored"), "{refused}");
        drop(restore);
        hold(&path, Use::Service).unwrap();
    }
}
