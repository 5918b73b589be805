//! `intake db migrate | status`: the database's migrations, run apart from
//! starting the service, for deployments that migrate once
//! (`INTAKE_MIGRATE_ON_START=false`, docs/operations.md).

use crate::cli::{DbCommand, StoreArgs};
use crate::config::{self, FlagOverrides, Settings};
use crate::{logging, open_store};
use intake_store_sqlite::{MigrationState, MigrationStatus};
use serde_json::json;
use std::process::ExitCode;

/// `db status`'s exit code for a database that is not current.
const NOT_CURRENT: u8 = 2;

pub async fn run(command: DbCommand) -> anyhow::Result<ExitCode> {
    match command {
        DbCommand::Migrate { store } => migrate(&settings(&store)?).await,
        DbCommand::Status { store, json } => status(&settings(&store)?, json).await,
    }
}

fn settings(store: &StoreArgs) -> anyhow::Result<Settings> {
    let settings = config::load(store.config.as_deref(), FlagOverrides::from_store(store))?;
    logging::init(settings.server.log_format);
    Ok(settings)
}

async fn migrate(settings: &Settings) -> anyhow::Result<ExitCode> {
    let applied = open_store::migrate(settings).await?;
    for entry in &applied {
        outln!("applied {:04} {}", entry.version, entry.description)?;
    }
    let status = open_store::migration_status(settings).await?;
    match status.problem() {
        None if applied.is_empty() => outln!(
            "the database was already up to date ({} migrations)",
            status.migrations.len()
        )?,
        None => outln!(
            "the database is up to date ({} migrations)",
            status.migrations.len()
        )?,
        // Another build's migrations: this one cannot make it current.
        Some(problem) => anyhow::bail!("{problem}"),
    }
    Ok(ExitCode::SUCCESS)
}

async fn status(settings: &Settings, json: bool) -> anyhow::Result<ExitCode> {
    let status = open_store::migration_status(settings).await?;
    if json {
        for entry in &status.migrations {
            let line = json!({"version": entry.version, "description": entry.description, "state": entry.state.to_string()});
            outln!("{line}")?;
        }
    } else {
        print_table(&status)?;
    }
    Ok(if status.is_current() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_CURRENT)
    })
}

fn print_table(status: &MigrationStatus) -> anyhow::Result<()> {
    outln!("{:<8} {:<8} DESCRIPTION", "VERSION", "STATE")?;
    for entry in &status.migrations {
        outln!(
            "{:<8} {:<8} {}",
            format!("{:04}", entry.version),
            entry.state.to_string(),
            entry.description
        )?;
    }
    let count = |state| status.in_state(state).count();
    outln!(
        "{} applied, {} pending",
        count(MigrationState::Applied),
        count(MigrationState::Pending)
    )?;
    if let Some(problem) = status.problem() {
        let only_pending = status.migrations.iter().all(|entry| {
            matches!(
                entry.state,
                MigrationState::Applied | MigrationState::Pending
            )
        });
        let advice = if only_pending {
            "; run `intake db migrate`"
        } else {
            ""
        };
        outln!("{problem}{advice}")?;
    }
    Ok(())
}
