// Integration tests: the real server on port 0, a fresh store each, spoken
// to over real HTTP. Run on SQLite as this test binary (`api`) and on
// PostgreSQL as `api_postgres`, which includes this file (hence plain
// comments here: an included file may not carry inner doc comments).

mod helpers;

mod access_log;
mod attachments;
mod attachments_edges;
mod auth;
mod body_after_auth;
mod categories;
mod clean_text;
mod conformance;
mod conformance_requests;
mod connections;
mod delivery;
mod errors;
mod image_budget;
mod jobs;
mod malformed_heads;
mod openapi;
mod options;
mod outage;
mod pipeline;
mod rate_limits;
mod replay;
mod retention;
mod shutdown;
mod signature_limits;
mod spam_history;
mod spam_model;
mod trades;
mod unchanged;
mod verify;
