#![forbid(unsafe_code)]
//! What the test suites of the workspace share, kept out of the production
//! crates: throwaway PostgreSQL databases, a proxy that takes one away and a
//! TLS-only cluster ([`postgres`]), a webhook receiver ([`webhooks`]), an SMTP sink
//! ([`smtp`]). The backend contract suite is `intake-store-contract`. A
//! dev-dependency only (`publish = false`).

pub mod postgres;
pub mod smtp;
pub mod webhooks;
