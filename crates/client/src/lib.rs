#![forbid(unsafe_code)]
//! Rust SDK for affiliates of the Affiliate Job Intake API.
//!
//! Every request is signed (HTTP Signatures, HMAC) with the covered headers
//! and algorithm of a [`SigningConfig`]; error answers come back as a typed
//! [`ClientError::Problem`] carrying the service's problem body.
//!
//! ```no_run
//! # async fn demo() -> Result<(), intake_client::ClientError> {
//! let client = intake_client::Client::new("http://127.0.0.1:8080", "stg_...", "SECRET")?;
//! let options = client.preferred_start_options().await?;
//! # Ok(()) }
//! ```

mod client;
mod error;
mod signing;

pub use client::Client;
pub use error::ClientError;
pub use signing::SigningConfig;
