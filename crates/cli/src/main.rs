#![forbid(unsafe_code)]
// Results go through `outln!`, which returns an error on a closed pipe where `println!` panics.
#![deny(clippy::print_stdout)]
//! `intake`: the one binary of the Affiliate Job Intake Service.

#[macro_use]
mod output;

mod bench;
mod cli;
mod commands;
mod config;
mod data_dir;
mod logging;
mod master_key;
mod open_store;
mod progress;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(commands::run(cli)) {
        Ok(code) => code,
        Err(error) if error.is::<output::Closed>() => ExitCode::from(output::CLOSED_EXIT),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
