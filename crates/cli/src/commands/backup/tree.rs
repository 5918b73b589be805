//! Copying a folder of photos while the service may be adding to it.

use anyhow::Context;
use std::io::ErrorKind;
use std::path::Path;

/// Copies every file under `from` into `to` (created 0700, with the folders
/// between), at the same relative paths, each synced to disk; the number of
/// files. A missing `from` copies nothing. A photo being written is skipped:
/// the image store writes each to `NAME#N` and renames it when whole, and a
/// file renamed or removed between listing and copying is simply not there.
pub fn copy(from: &Path, to: &Path) -> anyhow::Result<u64> {
    create_private(to)?;
    let entries = match std::fs::read_dir(from) {
        Ok(entries) => entries,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(0),
        Err(error) => return Err(error).with_context(|| format!("reading {}", from.display())),
    };
    let mut files = 0;
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", from.display()))?;
        let name = entry.file_name();
        let (source, target) = (entry.path(), to.join(&name));
        let kind = entry
            .file_type()
            .with_context(|| format!("reading {}", source.display()))?;
        if kind.is_dir() {
            files += copy(&source, &target)?;
        } else if kind.is_file() && !name.to_string_lossy().contains('#') {
            match std::fs::copy(&source, &target) {
                Ok(_) => {
                    std::fs::File::open(&target)
                        .and_then(|file| file.sync_all())
                        .with_context(|| format!("syncing {}", target.display()))?;
                    files += 1;
                }
                Err(error) if error.kind() == ErrorKind::NotFound => {}
                Err(error) => {
                    return Err(error).with_context(|| {
                        format!("copying {} to {}", source.display(), target.display())
                    })
                }
            }
        }
    }
    Ok(files)
}

/// Creates `path` and its parents, the leaf 0700 (photos are personal data).
pub fn create_private(path: &Path) -> anyhow::Result<()> {
    crate::data_dir::create_private(path).with_context(|| format!("creating {}", path.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn files_are_copied_at_their_paths_and_unfinished_writes_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (dir.path().join("from"), dir.path().join("to"));
        std::fs::create_dir_all(from.join("jobs/a")).unwrap();
        std::fs::write(from.join("jobs/a/1.jpg"), b"one").unwrap();
        std::fs::write(from.join("jobs/a/2.png#3"), b"half").unwrap();
        std::fs::write(from.join("top.webp"), b"top").unwrap();
        assert_eq!(super::copy(&from, &to).unwrap(), 2);
        assert_eq!(std::fs::read(to.join("jobs/a/1.jpg")).unwrap(), b"one");
        assert_eq!(std::fs::read(to.join("top.webp")).unwrap(), b"top");
        assert!(!to.join("jobs/a/2.png#3").exists());
        assert_eq!(
            super::copy(&dir.path().join("none"), &dir.path().join("empty")).unwrap(),
            0
        );
    }
}
