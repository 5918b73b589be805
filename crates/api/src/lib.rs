#![forbid(unsafe_code)]
//! Wire types of the Affiliate Job Intake API, shared by the server and the client.
//!
//! Everything here is what crosses the wire: request and response bodies, the
//! problem (error) body, and the OpenAPI schemas derived from them.
//!
//! Answers decode leniently: a member this version does not know is ignored,
//! so that a member the service adds later never breaks a deployed client
//! (issue 19). Strictness is the server's, checked in its tests against the
//! specification's schemas (`additionalProperties: false`), not here.

pub mod categories;
pub mod jobs;
pub mod leads;
pub mod options;
pub mod problem;
pub mod trades;
pub mod verify;

pub use options::{PreferredStartId, PreferredStartOption};
pub use problem::Problem;

/// Base path of the affiliate API.
pub const BASE_PATH: &str = "/v1/affiliate-job";
