//! Dispatch of the sub commands.

mod admin;
mod backup;
mod db;
mod demo_data;
mod health;
mod import;
mod jobs;
mod keys;
mod leads;
mod options;
mod quarantine;
mod restore;
mod serve;
mod spam;
pub mod submit;
mod worker;

use crate::cli::{Cli, ClientArgs, Command};
use anyhow::Context;
use clap::CommandFactory;
use intake_client::{Client, SigningConfig};
use std::process::ExitCode;

/// Runs one command; the exit code tells the class of outcome.
pub async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Serve(args) => serve::run(args).await,
        Command::Keys(command) => keys::run(command).await,
        Command::Import(command) => import::run(command).await,
        Command::DemoData(args) => demo_data::run(args).await,
        Command::Options(args) => options::run(args).await,
        Command::Submit(args) => submit::run(args).await,
        Command::Bench(args) => crate::bench::run(args).await,
        Command::Spam(command) => spam::run(command).await,
        Command::Leads(command) => leads::run(command).await,
        Command::Worker(args) => worker::run(args).await,
        Command::Db(command) => db::run(command).await,
        Command::Backup(args) => backup::run(args).await,
        Command::Restore(args) => restore::run(args).await,
        Command::Jobs(command) => jobs::run(command).await,
        Command::Health(args) => health::run(args).await,
        Command::Completions(args) => {
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "intake", &mut script);
            out!("{}", String::from_utf8_lossy(&script))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .context("rendering the manual page")?;
            out!("{}", String::from_utf8_lossy(&page))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A signing client from the client flags; the secret comes from
/// `INTAKE_KEY_SECRET` only, so it never shows in a process list or shell history.
pub fn client_from(args: &ClientArgs) -> anyhow::Result<Client> {
    let secret = std::env::var("INTAKE_KEY_SECRET")
        .context("set INTAKE_KEY_SECRET to the key's secret (it is never taken as a flag)")?;
    let algorithm = args
        .algorithm
        .parse()
        .map_err(|error| anyhow::anyhow!("--algorithm: {error}"))?;
    let signing = SigningConfig {
        algorithm,
        ..SigningConfig::default()
    }
    .with_headers(&args.headers);
    Ok(Client::new(&args.base_url, &args.key_id, &secret)?.with_signing(signing))
}
