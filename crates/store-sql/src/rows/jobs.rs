//! Rows of `jobs`, `job_recipients`, `job_images` and `idempotency`: as
//! read back, and the recipient and image rows of jobs being written.

use super::bad;
use crate::StoredTime;
use intake_api::PreferredStartId;
use intake_core::email::Email;
use intake_core::history::fingerprint;
use intake_core::jobs::{
    CreationSource, IdempotencyRecord, JobImage, NewJob, NewRecipient, Phone, StoredRecipient,
    ValidAddress, ValidPreferredStart, ValidatedJob,
};
use intake_core::postcode::Postcode;
use intake_core::store::StoreError;
use std::collections::HashMap;
use time::{Date, OffsetDateTime};

/// The `job_recipients` rows of `jobs`: each recipient with its job.
pub fn recipient_rows<'a>(jobs: &[&'a NewJob]) -> Vec<(&'a NewJob, &'a NewRecipient)> {
    jobs.iter()
        .flat_map(|job| job.recipients.iter().map(move |r| (*job, r)))
        .collect()
}

/// The `job_images` rows of `jobs`: each image with its job and position.
pub fn image_rows<'a>(jobs: &[&'a NewJob]) -> Vec<(&'a NewJob, usize, &'a JobImage)> {
    jobs.iter()
        .flat_map(|job| {
            job.images
                .iter()
                .enumerate()
                .map(move |(n, i)| (*job, n, i))
        })
        .collect()
}

/// A row of `jobs` (`SELECT *`: other columns are not read).
#[derive(Debug, sqlx::FromRow)]
pub struct JobRow {
    pub id: String,
    pub environment: String,
    pub key_id: String,
    pub application: String,
    pub creation_source: String,
    pub request_id: String,
    pub received_at: OffsetDateTime,
    pub category_id: i32,
    pub description: String,
    /// `None` for jobs written before fingerprints were kept.
    pub fingerprint: Option<String>,
    pub email: String,
    pub phone: String,
    pub first_name: String,
    pub last_name: String,
    pub postcode: String,
    pub address_line1: Option<String>,
    pub address_line2: Option<String>,
    pub address_line3: Option<String>,
    pub address_city: Option<String>,
    pub address_postcode: Option<String>,
    pub preferred_start_id: Option<String>,
    pub preferred_start_date: Option<Date>,
}

impl JobRow {
    /// The job as validated when it was written, without its recipients,
    /// images and idempotency records (read from their own rows).
    pub fn into_job(self) -> Result<NewJob, StoreError> {
        let bad = |what| bad("a stored job", what);
        let postcode = |text: &str| Postcode::parse(text).map_err(|_| bad("postcode"));
        let address = match (self.address_line1, self.address_city, self.address_postcode) {
            (Some(line1), Some(city), Some(code)) => Some(ValidAddress {
                line1,
                line2: self.address_line2,
                line3: self.address_line3,
                city,
                postcode: postcode(&code)?,
            }),
            _ => None,
        };
        let preferred_start = match self.preferred_start_id {
            Some(id) => Some(ValidPreferredStart {
                id: PreferredStartId::parse(&id).ok_or_else(|| bad("preferred start"))?,
                date: self.preferred_start_date,
            }),
            None => None,
        };
        Ok(NewJob {
            environment: self.environment.parse().map_err(|_| bad("environment"))?,
            creation_source: CreationSource::parse(&self.creation_source)
                .ok_or_else(|| bad("creation source"))?,
            id: self.id,
            key_id: self.key_id,
            application: self.application,
            request_id: self.request_id,
            received_at: self.received_at,
            fingerprint: self
                .fingerprint
                .unwrap_or_else(|| fingerprint(&self.description)),
            job: ValidatedJob {
                category_id: self.category_id as u32,
                email: Email::parse(&self.email).map_err(|_| bad("e-mail"))?,
                phone: Phone::parse(&self.phone).ok_or_else(|| bad("phone"))?,
                postcode: postcode(&self.postcode)?,
                description: self.description,
                first_name: self.first_name,
                last_name: self.last_name,
                address,
                preferred_start,
            },
            recipients: Vec::new(),
            images: Vec::new(),
            idempotency: Vec::new(),
        })
    }
}

/// A row of `job_recipients`.
#[derive(Debug, sqlx::FromRow)]
pub struct RecipientRow {
    pub company_id: i64,
    pub name: String,
    pub rank: i32,
}

impl RecipientRow {
    /// The recipient, in the delivery state its deliveries add up to.
    pub fn into_recipient(self, delivery_state: &str) -> StoredRecipient {
        StoredRecipient {
            company_id: self.company_id as u64,
            name: self.name,
            rank: self.rank as u32,
            delivery_state: delivery_state.to_owned(),
        }
    }
}

/// The recipient as it was written with its job.
pub fn new_recipient(stored: &StoredRecipient) -> NewRecipient {
    NewRecipient {
        company_id: stored.company_id,
        name: stored.name.clone(),
        rank: stored.rank,
    }
}

/// A row of `job_images`.
#[derive(Debug, sqlx::FromRow)]
pub struct JobImageRow {
    pub image_id: String,
    pub object_key: String,
    pub file_name: String,
    pub content_type: String,
    pub width: i32,
    pub height: i32,
    pub bytes: i64,
}

impl JobImageRow {
    /// The image as written with its job.
    pub fn into_image(self) -> JobImage {
        JobImage {
            id: self.image_id,
            object_key: self.object_key,
            file_name: self.file_name,
            content_type: self.content_type,
            width: self.width as u32,
            height: self.height as u32,
            bytes: self.bytes as u64,
        }
    }
}

/// A row of `idempotency`; SQLite's `expires_ms` is read as `expires_at`.
#[derive(Debug, sqlx::FromRow)]
pub struct IdempotencyRow<T> {
    pub scope: String,
    pub request_hash: String,
    pub status: i32,
    pub body: String,
    pub expires_at: T,
}

/// The records of `rows`, by scope.
pub fn records_by_scope<T: StoredTime>(
    rows: Vec<IdempotencyRow<T>>,
) -> Result<HashMap<String, IdempotencyRecord>, StoreError> {
    rows.into_iter()
        .map(|row| {
            let record = row.into_record()?;
            Ok((record.scope.clone(), record))
        })
        .collect()
}

impl<T: StoredTime> IdempotencyRow<T> {
    /// The record as stored.
    pub fn into_record(self) -> Result<IdempotencyRecord, StoreError> {
        Ok(IdempotencyRecord {
            status: u16::try_from(self.status).map_err(|_| bad("a stored answer", "status"))?,
            expires_at: self.expires_at.time()?,
            scope: self.scope,
            request_hash: self.request_hash,
            body: self.body,
        })
    }
}
