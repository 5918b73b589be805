//! `backup.json`: what a backup holds. Written last, so a backup without it
//! is one that did not finish, and `intake restore` refuses it.

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The manifest's file name in a backup.
pub const FILE_NAME: &str = "backup.json";
/// The database's file name in a backup (and in a data dir).
pub const DATABASE: &str = "intake.db";
/// The photos' folder in a backup (and in a data dir).
pub const PHOTOS: &str = "images";
/// The layout this build writes and reads.
const FORMAT: u32 = 1;

/// What a backup holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The layout of the backup.
    pub format: u32,
    /// When the copy of the database was taken (RFC 3339, UTC).
    pub taken_at: String,
    /// The database's file, in the backup.
    pub database: String,
    /// The photos' folder in the backup, or `None` when they were kept
    /// elsewhere (an S3 bucket) and are not in it.
    pub photos: Option<String>,
    /// Photo files copied.
    pub photo_files: u64,
    /// Always false: the master key is kept apart from the data it protects.
    pub master_key_included: bool,
}

impl Manifest {
    /// A manifest of this build's layout.
    pub fn new(taken_at: String, photos: Option<u64>) -> Self {
        Manifest {
            format: FORMAT,
            taken_at,
            database: DATABASE.to_owned(),
            photos: photos.map(|_| PHOTOS.to_owned()),
            photo_files: photos.unwrap_or(0),
            master_key_included: false,
        }
    }

    /// Writes the manifest into the backup at `dir`, durably.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join(FILE_NAME);
        let mut file =
            std::fs::File::create(&path).with_context(|| format!("writing {}", path.display()))?;
        file.write_all(serde_json::to_string_pretty(self)?.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        Ok(())
    }

    /// Reads the manifest of the backup at `dir`.
    pub fn read(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join(FILE_NAME);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => bail!(
                "{} is not a finished backup of `intake backup`: it has no {FILE_NAME}",
                dir.display()
            ),
            Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
        };
        let manifest: Manifest =
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        if manifest.format != FORMAT {
            bail!(
                "{} is a backup of layout {}; this build reads layout {FORMAT}",
                dir.display(),
                manifest.format
            );
        }
        Ok(manifest)
    }
}
