//! Trades.

pub mod search;
