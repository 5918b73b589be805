//! Background work of a server process, stopped with it.

pub mod directory_refresh;
pub mod retention;
