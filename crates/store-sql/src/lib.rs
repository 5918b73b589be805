#![forbid(unsafe_code)]
//! What the two SQL stores (`intake-store-sqlite`, `intake-store-postgres`)
//! share, so that they differ only in their dialect: the rows they read,
//! typed, and one conversion of each into the records of `intake-core`; the
//! group-commit writer over a dialect's fast path.

pub mod dialect;
pub mod rows;
pub mod time;
pub mod writer;

pub use dialect::{Batch, Dialect};
pub use time::{Millis, StoredTime};
pub use writer::{BatchWriter, Declined};
