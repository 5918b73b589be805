#![forbid(unsafe_code)]
//! The HTTP server of the Affiliate Job Intake Service.
//!
//! `Application::build` takes a bound listener and the state, so tests and
//! `intake serve` start exactly the same thing.

mod access_log;
mod admin;
mod app;
mod auth;
mod body_budget;
mod config;
mod directory;
mod dispatcher;
mod error;
mod handlers;
mod head_limits;
mod idempotency;
mod image_budget;
mod limits;
mod log_text;
mod openapi;
mod portal;
mod problem_layer;
mod request_id;
mod routes;
mod serve;
mod shutdown;
mod state;
mod storage;
pub mod telemetry;
mod workers;

pub use admin::AdminListener;
pub use app::Application;
pub use auth::AuthenticatedKey;
pub use body_budget::{BodyBudget, BODY_BUDGET_WAIT};
pub use config::{
    ConnectionLimits, ServerConfig, DEFAULT_BODY_BUDGET, DEFAULT_BODY_READ_TIMEOUT,
    DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_IMAGE_BUDGET_WAIT,
    DEFAULT_IMAGE_MEMORY_BUDGET, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_IN_FLIGHT_PER_KEY,
    DEFAULT_MULTIPART_BODY_LIMIT, DEFAULT_RATE_LIMIT_BURST, DEFAULT_RATE_LIMIT_PER_SECOND,
};
pub use error::ApiError;
pub use handlers::jobs::get::view as job_view;
pub use image_budget::{ImageBudget, Refused as BudgetRefused, Share as BudgetShare};
pub use shutdown::shutdown_signal;
pub use state::AppState;
pub use storage::{ImageStore, ImageStoreLocation, StorageError};
pub use workers::retention;
