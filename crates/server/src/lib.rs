#![forbid(unsafe_code)]
//! The HTTP server of the Affiliate Job Intake Service.
//!
//! `Application::build` takes a bound listener and the state, so tests and
//! `intake serve` start exactly the same thing.

mod app;
mod auth;
mod config;
pub mod delivery;
mod directory;
mod error;
mod handlers;
mod idempotency;
mod openapi;
mod problem_layer;
mod routes;
mod shutdown;
mod state;
mod storage;
mod workers;

pub use app::Application;
pub use auth::AuthenticatedKey;
pub use config::{ServerConfig, DEFAULT_MULTIPART_BODY_LIMIT};
pub use error::ApiError;
pub use shutdown::shutdown_signal;
pub use state::AppState;
pub use storage::{ImageStore, ImageStoreLocation, StorageError};
