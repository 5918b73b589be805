//! The client against a stub service that misbehaves on purpose.

mod additions;
mod create_job;
mod get_job;
mod helpers;
