//! What the store keeps of a job, and what it gives back.

use super::validate::ValidatedJob;
use crate::environment::Environment;
use time::OffsetDateTime;

/// How a job arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreationSource {
    /// `POST /jobs`.
    Api,
    /// `POST /jobs/with-attachments`.
    ApiWithAttachments,
}

impl CreationSource {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            CreationSource::Api => "api",
            CreationSource::ApiWithAttachments => "api-with-attachments",
        }
    }

    /// Reads a stored name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "api" => Some(CreationSource::Api),
            "api-with-attachments" => Some(CreationSource::ApiWithAttachments),
            _ => None,
        }
    }
}

/// A trade chosen for a job.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRecipient {
    /// Company id.
    pub company_id: u64,
    /// Trading name at the time.
    pub name: String,
    /// 1 for the best match.
    pub rank: u32,
}

/// A photo of the job, already checked, cleaned of metadata and stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobImage {
    /// Generated id of the image.
    pub id: String,
    /// Where the cleaned image is kept in the object store (a generated name).
    pub object_key: String,
    /// The client's file name, sanitised; metadata only, never a path.
    pub file_name: String,
    /// `image/jpeg`, `image/png`, `image/webp` or `image/gif`, decided by content.
    pub content_type: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Size of the stored (cleaned) file in bytes.
    pub bytes: u64,
}

/// The stored answer to a submission, replayed for a repeat of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyRecord {
    /// `k:KEY_ID:IDEMPOTENCY_KEY`, or `s:KEY_ID:SIGNATURE` for a repeated signed request.
    pub scope: String,
    /// SHA-256 (hex) of the method, path and body: a repeat must match it.
    pub request_hash: String,
    /// The status answered.
    pub status: u16,
    /// The body answered.
    pub body: String,
    /// When the record may be forgotten.
    pub expires_at: OffsetDateTime,
}

/// Everything written for a new job, in one transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    /// The job's id (a UUID).
    pub id: String,
    /// Environment of the server and key.
    pub environment: Environment,
    /// The key that signed the submission.
    pub key_id: String,
    /// The affiliate application (the key's name).
    pub application: String,
    /// How it arrived.
    pub creation_source: CreationSource,
    /// The request's `x-request-id`.
    pub request_id: String,
    /// When it was received.
    pub received_at: OffsetDateTime,
    /// The description's fingerprint (`history::fingerprint`), kept for the
    /// spam screen's contact history.
    pub fingerprint: String,
    /// The checked job.
    pub job: ValidatedJob,
    /// The trades chosen, best first.
    pub recipients: Vec<NewRecipient>,
    /// The job's photos, in the order sent.
    pub images: Vec<JobImage>,
    /// The answer to keep for repeats, if any.
    pub idempotency: Vec<IdempotencyRecord>,
}

impl NewJob {
    /// The job as a store reads it back (idempotency records are kept apart).
    pub fn clone_without_idempotency(&self) -> NewJob {
        NewJob {
            idempotency: Vec::new(),
            ..self.clone()
        }
    }
}

/// What `Store::create_job` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreateOutcome {
    /// The job is stored.
    Created,
    /// A record for the same scope was stored first (a concurrent repeat):
    /// nothing was written; answer from this record.
    Existing(IdempotencyRecord),
}

/// A stored recipient and where its lead stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRecipient {
    /// Company id.
    pub company_id: u64,
    /// Trading name at the time.
    pub name: String,
    /// 1 for the best match.
    pub rank: u32,
    /// `not_sent`, `pending`, `delivered`, `failed` or `gone`.
    pub delivery_state: String,
}

/// A job as stored, with its recipients.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredJob {
    /// The job.
    pub job: NewJob,
    /// Its recipients and their delivery state.
    pub recipients: Vec<StoredRecipient>,
}
