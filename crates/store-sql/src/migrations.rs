//! Where a database stands against a backend's migrations, for running them
//! apart from opening the store (`intake db status`, `intake db migrate`)
//! and for refusing to start on a database that is behind.
//!
//! Each backend runs its own migrator on its own pool; what they share is
//! reading sqlx's table of applied migrations into one [`MigrationStatus`].

use intake_core::store::StoreError;
use sqlx::migrate::{Migrate, MigrateError, Migrator};
use std::collections::BTreeMap;
use std::fmt;

/// How one migration stands in a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrationState {
    /// Applied, as this build has it.
    Applied,
    /// Known to this build, not yet applied.
    Pending,
    /// Begun and failed: the database needs a person before anything runs.
    Failed,
    /// Applied, but from a different text than this build's.
    Changed,
    /// Applied by a newer build: this build does not know it.
    Unknown,
}

impl fmt::Display for MigrationState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MigrationState::Applied => "applied",
            MigrationState::Pending => "pending",
            MigrationState::Failed => "failed",
            MigrationState::Changed => "changed",
            MigrationState::Unknown => "unknown",
        })
    }
}

/// One migration and its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationEntry {
    /// Its number (the file's `0001_` prefix).
    pub version: i64,
    /// Its name, from the file name; empty for one this build does not know.
    pub description: String,
    /// Where it stands.
    pub state: MigrationState,
}

/// Every migration this build knows or the database has applied, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationStatus {
    /// One entry a version, lowest first.
    pub migrations: Vec<MigrationEntry>,
}

impl MigrationStatus {
    /// Every migration of `migrator` pending, as for a database not yet made.
    pub fn empty(migrator: &Migrator) -> Self {
        Self::new(migrator, &BTreeMap::new(), None)
    }

    /// Compares the applied versions (with their checksums) and the failed
    /// one, if any, with the migrations of `migrator`.
    fn new(migrator: &Migrator, applied: &BTreeMap<i64, Vec<u8>>, failed: Option<i64>) -> Self {
        let mut migrations: Vec<MigrationEntry> = migrator
            .iter()
            .filter(|migration| !migration.migration_type.is_down_migration())
            .map(|migration| {
                let state = match applied.get(&migration.version) {
                    _ if failed == Some(migration.version) => MigrationState::Failed,
                    None => MigrationState::Pending,
                    Some(checksum) if *checksum == *migration.checksum => MigrationState::Applied,
                    Some(_) => MigrationState::Changed,
                };
                MigrationEntry {
                    version: migration.version,
                    description: migration.description.to_string(),
                    state,
                }
            })
            .collect();
        for version in applied.keys() {
            if !migrator.version_exists(*version) {
                migrations.push(MigrationEntry {
                    version: *version,
                    description: String::new(),
                    state: if failed == Some(*version) {
                        MigrationState::Failed
                    } else {
                        MigrationState::Unknown
                    },
                });
            }
        }
        migrations.sort_by_key(|entry| entry.version);
        MigrationStatus { migrations }
    }

    /// The migrations in `state`.
    pub fn in_state(&self, state: MigrationState) -> impl Iterator<Item = &MigrationEntry> {
        self.migrations
            .iter()
            .filter(move |entry| entry.state == state)
    }

    /// Whether every migration is applied as this build has it, and no other.
    pub fn is_current(&self) -> bool {
        self.migrations
            .iter()
            .all(|entry| entry.state == MigrationState::Applied)
    }

    /// What keeps the database from being current, in words, or `None`.
    pub fn problem(&self) -> Option<String> {
        let list = |state| {
            let versions: Vec<String> = self
                .in_state(state)
                .map(|entry| {
                    format!("{:04} {}", entry.version, entry.description)
                        .trim_end()
                        .to_owned()
                })
                .collect();
            versions.join(", ")
        };
        let count = |state| self.in_state(state).count();
        if count(MigrationState::Failed) > 0 {
            Some(format!(
                "a migration failed part way ({}): restore the database from a backup",
                list(MigrationState::Failed)
            ))
        } else if count(MigrationState::Unknown) > 0 || count(MigrationState::Changed) > 0 {
            Some(format!(
                "the database was migrated by another version of intake (unknown: [{}], changed: [{}])",
                list(MigrationState::Unknown),
                list(MigrationState::Changed)
            ))
        } else if count(MigrationState::Pending) > 0 {
            Some(format!(
                "the database is not migrated: {} pending ({})",
                count(MigrationState::Pending),
                list(MigrationState::Pending)
            ))
        } else {
            None
        }
    }
}

/// Reads where the database behind `conn` stands against `migrator`. Like
/// `sqlx migrate info`, it first creates sqlx's (empty) table of applied
/// migrations if there is none.
pub async fn status<C: Migrate + Send + ?Sized>(
    migrator: &Migrator,
    conn: &mut C,
) -> Result<MigrationStatus, StoreError> {
    conn.ensure_migrations_table()
        .await
        .map_err(migrate_error)?;
    let failed = conn.dirty_version().await.map_err(migrate_error)?;
    let applied = conn
        .list_applied_migrations()
        .await
        .map_err(migrate_error)?
        .into_iter()
        .map(|applied| (applied.version, applied.checksum.into_owned()))
        .collect();
    Ok(MigrationStatus::new(migrator, &applied, failed))
}

/// A migration error as the store reports it.
pub fn migrate_error(error: MigrateError) -> StoreError {
    match error {
        MigrateError::Execute(error) => StoreError::from(error),
        other => StoreError::Other(format!("migrating the database failed: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::migrate::{Migration, MigrationType};
    use std::borrow::Cow;

    fn migrator(versions: &[i64]) -> Migrator {
        Migrator {
            migrations: Cow::Owned(
                versions
                    .iter()
                    .map(|version| {
                        Migration::new(
                            *version,
                            Cow::Owned(format!("step {version}")),
                            MigrationType::Simple,
                            Cow::Owned(format!("SELECT {version};")),
                            false,
                        )
                    })
                    .collect(),
            ),
            ..Migrator::DEFAULT
        }
    }

    fn applied(migrator: &Migrator, versions: &[i64]) -> BTreeMap<i64, Vec<u8>> {
        migrator
            .iter()
            .filter(|migration| versions.contains(&migration.version))
            .map(|migration| (migration.version, migration.checksum.to_vec()))
            .collect()
    }

    fn states(status: &MigrationStatus) -> Vec<(i64, MigrationState)> {
        status
            .migrations
            .iter()
            .map(|entry| (entry.version, entry.state))
            .collect()
    }

    #[test]
    fn a_database_behind_the_build_has_its_later_migrations_pending() {
        let migrator = migrator(&[1, 2, 3]);
        let status = MigrationStatus::new(&migrator, &applied(&migrator, &[1]), None);
        use MigrationState::*;
        assert_eq!(states(&status), [(1, Applied), (2, Pending), (3, Pending)]);
        assert!(!status.is_current());
        assert_eq!(
            status.problem().unwrap(),
            "the database is not migrated: 2 pending (0002 step 2, 0003 step 3)"
        );
        let all = MigrationStatus::new(&migrator, &applied(&migrator, &[1, 2, 3]), None);
        assert!(all.is_current());
        assert_eq!(all.problem(), None);
        assert_eq!(
            MigrationStatus::empty(&migrator).in_state(Pending).count(),
            3
        );
    }

    #[test]
    fn a_database_of_another_build_or_a_failed_migration_is_named() {
        let migrator = migrator(&[1, 2]);
        let mut applied = applied(&migrator, &[1, 2]);
        applied.insert(2, b"another text".to_vec());
        applied.insert(7, b"newer".to_vec());
        let status = MigrationStatus::new(&migrator, &applied, None);
        use MigrationState::*;
        assert_eq!(states(&status), [(1, Applied), (2, Changed), (7, Unknown)]);
        assert!(status.problem().unwrap().contains("another version"));

        let failed = MigrationStatus::new(&migrator, &applied, Some(7));
        assert_eq!(failed.migrations[2].state, Failed);
        assert!(failed.problem().unwrap().contains("failed part way"));
    }
}
