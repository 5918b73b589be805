//! Jobs.

pub mod create;
pub mod get;
pub mod with_attachments;
