//! Tests of the `intake` binary itself: real processes, real data dirs.

mod helpers;

mod backup;
mod bench;
mod comforts;
mod config;
mod connections;
mod db;
mod delivery;
mod deploy;
mod directory;
mod keys;
mod many_processes;
mod metrics;
mod output;
mod personal_data;
mod portal;
mod postgres;
mod postgres_tls;
mod rate_limits;
mod samples;
mod secrets;
mod spam_learning;
mod submit;
