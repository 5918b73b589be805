#![forbid(unsafe_code)]
//! What the two SQL stores (`intake-store-sqlite`, `intake-store-postgres`)
//! share, so that they differ only in their dialect: the rows they read,
//! typed, and one conversion of each into the records of `intake-core`.

pub mod rows;
pub mod time;

pub use time::{Millis, StoredTime};
