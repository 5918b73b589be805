//! Lead delivery in production: the dispatcher and what it sends.
//!
//! Job creation writes one outbox row per recipient and channel in the job's
//! own transaction; a [`Dispatcher`] (in `intake serve`, or `intake worker`
//! apart) claims due rows for a lease, sends each lead as a Standard Webhooks
//! POST or an e-mail, and records the outcome. Leads go out at least once;
//! repeats carry the same delivery id (`webhook-id`, `Message-ID`), which
//! makes them once in effect for a receiver. See docs/delivery.md.
//!
//! This crate knows the store and the wire types, not HTTP serving: `intake
//! serve` starts a [`Dispatcher`] beside its server, `intake worker` runs one
//! alone, and the server checks the photo links made here with [`ImageLinks`].

mod attempt;
mod config;
mod dispatcher;
mod email;
mod image_links;
mod lead;
mod send;
mod webhook;

pub use config::{DeliveryConfig, SmtpSettings, DEFAULT_MAIL_FROM};
pub use dispatcher::Dispatcher;
pub use image_links::{ImageLinks, LinkError};
pub use webhook::signature as webhook_signature;

use intake_core::{MasterKey, SecretString};

/// The secret trade `company_id` verifies its webhooks with (`whsec_...`),
/// derived from the master key and never stored: what `intake leads
/// webhook-secret COMPANY_ID` prints for the operator to hand to the trade.
pub fn webhook_secret(master: &MasterKey, company_id: u64) -> SecretString {
    master.webhook_secret(company_id)
}
