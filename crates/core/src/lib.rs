#![forbid(unsafe_code)]
//! The domain of the Affiliate Job Intake Service: environments, affiliate keys
//! and their sealed secrets, and the `Store` trait every backend implements.
//! No HTTP and no SQL live here.

pub mod categories;
pub mod delivery;
pub mod directory;
pub mod email;
pub mod environment;
pub mod geography;
pub mod history;
pub mod intake;
pub mod jobs;
pub mod keys;
pub mod postcode;
pub mod secrets;
pub mod spam;

pub mod store;
pub mod telemetry;

pub use environment::Environment;
pub use keys::{ApiKey, KeyPolicy, NewKey};
pub use secrets::{MasterKey, SealedSecret, SecretString};
pub use store::{
    DirectoryStore, ImportSummary, JobStore, KeyStore, Outbox, Ping, Store, StoreCounts, StoreError,
};
