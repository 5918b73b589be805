//! Structured logs to standard error (standard output is for command results).

use serde::Deserialize;
use tracing_subscriber::EnvFilter;

/// How log lines are written (`INTAKE_LOG_FORMAT`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Lines for a person.
    #[default]
    Text,
    /// One JSON object a line, for a log collector.
    Json,
}

/// Installs the subscriber: `RUST_LOG` filters (default `info`).
pub fn init(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    // Colours only for a person at a terminal: never in files, pipes or log collectors.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    let result = if format == LogFormat::Json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    if let Err(error) = result {
        eprintln!("warning: logging already initialised: {error}");
    }
}
