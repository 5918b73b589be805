//! The client against a stub service that misbehaves on purpose.

mod create_job;
mod get_job;
mod helpers;
