//! Handlers, a folder per resource.

pub mod health;
pub mod openapi;
pub mod options;
