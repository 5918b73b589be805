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
//!
//! [`Client::create_job`] sends one idempotency key per logical submission and
//! retries what is worth retrying (see [`RetryPolicy`]) with the same key and
//! body, so a lost answer never makes a second job. See `docs/client.md`.
//! Jobs with photos go through [`Client::create_job_with_images`] (see `docs/api.md`).

mod attachments;
mod client;
mod error;
mod jobs;
mod retry;
mod signing;

pub use attachments::MultipartForm;
pub use client::Client;
pub use error::ClientError;
pub use jobs::{new_idempotency_key, JobOutcome};
pub use retry::{Decision, Outcome, RetryPolicy};
pub use signing::SigningConfig;
