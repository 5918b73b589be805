//! `intake options`: the preferred-start options, as an affiliate sees them.

use crate::cli::ClientArgs;
use std::process::ExitCode;

pub async fn run(args: ClientArgs) -> anyhow::Result<ExitCode> {
    let client = super::client_from(&args)?;
    match client.preferred_start_options().await {
        Ok(options) => {
            outln!("{}", serde_json::to_string_pretty(&options)?)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("error: {error}");
            Ok(ExitCode::from(1))
        }
    }
}
