//! A hostile client against the real `intake serve` (issue 13): each test
//! starts the binary on a port of its own, attacks it over real TCP as
//! someone on the internet could, and asserts what the server did about it:
//! connections closed, requests refused with the right status and a problem
//! body, no job created, nothing forged in its log, and its peak memory
//! within [`target::RSS_BUDGET_MIB`] (image memory and unauthenticated
//! bodies have budgets of their own: 1 GB, and 50 MB of growth). The timeouts are lowered through the
//! environment so that no test waits the production 10 to 75 seconds.
//!
//! `schemathesis` runs the independent API fuzzer against the served
//! OpenAPI document; it is skipped when schemathesis is not installed,
//! unless `INTAKE_REQUIRE_INTEROP=1` (CI) makes that a failure.

// The CLI suite's helpers, shared rather than copied; this target uses some of them.
#[allow(dead_code)]
#[path = "../cli/helpers.rs"]
mod helpers;

mod raw;
mod target;

mod image_memory;
mod log_injection;
mod oversized_heads;
mod replay;
mod schemathesis;
mod slow_clients;
mod unread_bodies;
