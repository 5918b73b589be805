//! Jobs.

pub mod create;
pub mod get;
