//! `intake restore SRC --data-dir DIR`: a backup of `intake backup` put into
//! a data dir (docs/operations.md).
//!
//! The data dir is held exclusively throughout (a running `serve` or
//! `worker` holds it shared, so a restore under one is refused, and one
//! cannot start while a restore writes). A data dir that holds anything but
//! a master key is refused unless `--force`, which replaces its database and
//! photos. The database is copied beside its place and checked whole before
//! it replaces anything.

use super::backup::manifest::{self, Manifest};
use super::backup::tree;
use crate::cli::RestoreArgs;
use crate::data_dir::{self, Use, LOCK_FILE};
use crate::master_key;
use anyhow::{bail, Context};
use std::path::Path;
use std::process::ExitCode;

/// Where a restore stages what it copies, in the data dir.
const STAGING: &str = ".restoring";

pub async fn run(args: RestoreArgs) -> anyhow::Result<ExitCode> {
    let (source, dir) = (args.source.as_path(), args.data_dir.as_path());
    let manifest = Manifest::read(source)?;
    let _hold = data_dir::hold(dir, Use::Restore)?;
    let found = data_dir::entries_except(dir, &[LOCK_FILE, master_key::FILE_NAME])?;
    if !found.is_empty() && !args.force {
        bail!(
            "the data dir {} is not empty (it holds {}): restore into a new or empty data dir, or add --force to replace its database and photos",
            dir.display(),
            found[0].display()
        );
    }

    let staged = dir.join(format!("{}{STAGING}", manifest::DATABASE));
    remove_database(&staged)?;
    std::fs::copy(source.join(&manifest.database), &staged)
        .and_then(|_| std::fs::File::open(&staged)?.sync_all())
        .with_context(|| format!("copying {}", source.join(&manifest.database).display()))?;
    let problems = intake_store_sqlite::backup::integrity_check(&staged)
        .await
        .with_context(|| format!("checking {}", staged.display()))?;
    if problems != ["ok"] {
        remove_database(&staged)?;
        bail!(
            "the backup's database fails its integrity check, nothing was restored: {}",
            problems.join("; ")
        );
    }
    let photos = match &manifest.photos {
        Some(folder) => {
            let staged = dir.join(format!("{}{STAGING}", manifest::PHOTOS));
            remove_folder(&staged)?;
            Some((tree::copy(&source.join(folder), &staged)?, staged))
        }
        None => None,
    };

    // Swap in: the old database's log must go with it, or SQLite would
    // replay it into the restored file.
    let database = dir.join(manifest::DATABASE);
    remove_database(&database)?;
    std::fs::rename(&staged, &database)
        .with_context(|| format!("moving the database into {}", database.display()))?;
    remove_database(&staged)?; // what the check's connection may have left beside it
    if let Some((_, staged)) = &photos {
        let folder = dir.join(manifest::PHOTOS);
        remove_folder(&folder)?;
        std::fs::rename(staged, &folder)
            .with_context(|| format!("moving the photos into {}", folder.display()))?;
    }

    outln!(
        "restored the database taken at {} and {} photo files into {}",
        manifest.taken_at,
        photos.map_or(0, |(files, _)| files),
        dir.display()
    )?;
    if manifest.photos.is_none() {
        outln!("The backup holds no photos: they were kept in an S3 bucket, which keeps its own versions.")?;
    }
    outln!("{}", master_key_advice(dir))?;
    Ok(ExitCode::SUCCESS)
}

/// What the service needs before it starts on the restored data dir.
fn master_key_advice(dir: &Path) -> String {
    let file = dir.join(master_key::FILE_NAME);
    if std::env::var_os("INTAKE_MASTER_KEY").is_some() || file.exists() {
        "The service will use the master key it is given (INTAKE_MASTER_KEY, else the data dir's master.key): \
         it must be the one the backup was made under, or the stored affiliate keys cannot be opened."
            .to_owned()
    } else {
        format!(
            "The data dir has no master key yet: before starting the service, put the backed-up service's master key in {} \
             (mode 0600) or set INTAKE_MASTER_KEY. A service started without it makes a new one, under which the stored \
             affiliate keys cannot be opened.",
            file.display()
        )
    }
}

/// Removes the database file `path` with its log and shared memory, if there.
fn remove_database(path: &Path) -> anyhow::Result<()> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let file = format!("{}{suffix}", path.display());
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error).with_context(|| format!("removing {file}")),
        }
    }
    Ok(())
}

/// Removes the folder `path` and everything in it, if there.
fn remove_folder(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_dir_all(path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error).with_context(|| format!("removing {}", path.display())),
    }
}
