//! Integration tests: the real server on port 0, a fresh SQLite store each,
//! spoken to over real HTTP.

mod helpers;

mod attachments;
mod attachments_edges;
mod auth;
mod categories;
mod delivery;
mod errors;
mod jobs;
mod openapi;
mod options;
mod shutdown;
mod spam_history;
mod trades;
mod unchanged;
mod verify;
