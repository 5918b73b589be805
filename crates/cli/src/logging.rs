//! Structured logs to standard error (standard output is for command results).

use tracing_subscriber::EnvFilter;

/// Installs the subscriber: `RUST_LOG` filters (default `info`), `format` is `text` or `json`.
pub fn init(format: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let result = if format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    if let Err(error) = result {
        eprintln!("warning: logging already initialised: {error}");
    }
}
