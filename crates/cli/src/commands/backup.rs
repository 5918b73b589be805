//! `intake backup DEST`: a consistent copy of the embedded store and its
//! photos, taken while the service goes on taking jobs (docs/operations.md).
//!
//! The database is copied first, as it stood at one moment (`VACUUM INTO`),
//! then the photo folder. A job's photos are written before the job commits,
//! so every photo the copied database names is already in the folder when
//! it is copied; photos of jobs that came later may come along, unnamed and
//! harmless. The master key stays out of the backup: it protects the key
//! secrets the database holds, so it is kept apart and said so.

pub(super) mod manifest;
pub(super) mod tree;

use crate::cli::BackupArgs;
use crate::config::{self, FlagOverrides, Settings};
use crate::progress::Progress;
use crate::{logging, open_store};
use anyhow::{bail, Context};
use intake_server::ImageStoreLocation;
use manifest::Manifest;
use std::path::Path;
use std::process::ExitCode;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

pub async fn run(args: BackupArgs) -> anyhow::Result<ExitCode> {
    let settings = config::load(
        args.store.config.as_deref(),
        FlagOverrides::from_store(&args.store),
    )?;
    logging::init(settings.server.log_format);
    if !open_store::is_embedded(&settings) {
        bail!(
            "`intake backup` copies the embedded SQLite store, and this service uses PostgreSQL: back it up with pg_dump or base backups (docs/operations.md, \"Backup and restore\")"
        );
    }
    let dest = args.dest.as_path();
    let created = prepare(dest)?;
    let database = dest.join(manifest::DATABASE);
    let photos = match copy_into(&settings, dest).await {
        Ok(photos) => photos,
        Err(error) => {
            // Leave DEST as it was found: a half-made backup must not pass
            // for one, nor make the next `intake backup DEST` refuse it.
            undo(dest, created);
            return Err(error);
        }
    };

    let size = std::fs::metadata(&database)?.len();
    outln!(
        "backed up the database ({:.1} MB) and {} photo files into {}",
        size as f64 / 1e6,
        photos.unwrap_or(0),
        dest.display()
    )?;
    if photos.is_none() {
        outln!(
            "The photos are not in the backup: they are in {}; keep them with bucket versioning (docs/operations.md).",
            settings.storage.image_store()
        )?;
    }
    outln!("{}", master_key_advice(&settings))?;
    Ok(ExitCode::SUCCESS)
}

/// Copies the database, then the photos of a local image store, then
/// writes the manifest; how many photo files were copied (`None`: the
/// photos are elsewhere).
async fn copy_into(settings: &Settings, dest: &Path) -> anyhow::Result<Option<u64>> {
    let taken_at = OffsetDateTime::now_utc().format(&Rfc3339)?;
    let url = settings.storage.database_url();
    let step = Progress::Shown.step("copying the database", None);
    intake_store_sqlite::backup::copy_database(&url, &dest.join(manifest::DATABASE))
        .await
        .with_context(|| format!("copying the database {url}"))?;
    step.finish();
    let photos = match settings.storage.image_store() {
        ImageStoreLocation::Local(folder) => {
            let step = Progress::Shown.step("copying the photos", None);
            let copied = tree::copy(&folder, &dest.join(manifest::PHOTOS))?;
            step.finish();
            Some(copied)
        }
        _ => None,
    };
    Manifest::new(taken_at, photos).write(dest)?;
    Ok(photos)
}

/// Takes away what a failed backup left in `dest`: the folder itself if
/// this command made it, else what it put in the empty folder it was given.
fn undo(dest: &Path, created: bool) {
    let cleared = if created {
        std::fs::remove_dir_all(dest)
    } else {
        std::fs::read_dir(dest).and_then(|entries| {
            entries.flatten().try_for_each(|entry| {
                let path = entry.path();
                if path.is_dir() {
                    std::fs::remove_dir_all(path)
                } else {
                    std::fs::remove_file(path)
                }
            })
        })
    };
    if let Err(error) = cleared {
        eprintln!(
            "warning: could not clear {} after the failure: {error}",
            dest.display()
        );
    }
}

/// Makes `dest` a new private folder (`true`), or takes an empty one
/// (`false`); anything in it is refused.
fn prepare(dest: &Path) -> anyhow::Result<bool> {
    match std::fs::read_dir(dest) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "{} is not empty: give `intake backup` a new or empty directory",
                    dest.display()
                );
            }
            Ok(false)
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            tree::create_private(dest).map(|()| true)
        }
        Err(error) => Err(error).with_context(|| format!("reading {}", dest.display())),
    }
}

/// Where the master key is and what to do with it.
fn master_key_advice(settings: &Settings) -> String {
    let file = settings.storage.data_dir.join(crate::master_key::FILE_NAME);
    let place = if std::env::var_os("INTAKE_MASTER_KEY").is_some() {
        "this process has it from INTAKE_MASTER_KEY".to_owned()
    } else if file.exists() {
        format!("it is {}", file.display())
    } else {
        return format!(
            "There is no master key yet ({} does not exist, nor INTAKE_MASTER_KEY): no stored secret depends on one.",
            file.display()
        );
    };
    format!(
        "The master key is not in the backup ({place}). Keep a copy of it apart from the backup and as safe: \
         without it, the restored store's affiliate key secrets cannot be opened (every signed request is refused) \
         and every trade's webhook secret changes."
    )
}
