//! Handlers, a folder per resource.

pub mod categories;
pub mod health;
pub mod images;
pub mod jobs;
pub mod openapi;
pub mod options;
pub mod trades;
pub mod verify;
