//! The trade directory: the import record of a trade, its derived search card,
//! and the in-memory index that matching and search run on.

pub mod index;
pub mod loaded;
pub mod matching;
pub mod record;
pub mod rows;
pub mod summary;

#[cfg(test)]
mod matching_tests;

pub use index::{DirectoryIndex, IndexedTrade, Match};
pub use loaded::{Directory, LoadError};
pub use record::{Coverage, Delivery, TradeRecord, ValidTrade};
