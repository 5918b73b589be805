//! Jobs: a homeowner's job checked field by field, and the record the store keeps.

pub mod quarantine;
pub mod record;
pub mod route;
pub mod validate;

pub use quarantine::Quarantined;
pub use record::{
    CreateOutcome, CreationSource, IdempotencyRecord, JobImage, NewJob, NewRecipient, StoredJob,
    StoredRecipient,
};
pub use validate::{validate, FieldError, Phone, ValidAddress, ValidPreferredStart, ValidatedJob};
