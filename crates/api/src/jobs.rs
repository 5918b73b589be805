//! Jobs: `POST /jobs` (and its multipart twin) and `GET /jobs/{id}`.

pub mod rules;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Header naming one logical submission, so a retry never makes a second job.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Set to `true` on an answer replayed for a repeated submission.
pub const IDEMPOTENCY_REPLAYED: &str = "idempotency-replayed";

/// A homeowner's job, as an affiliate sends it. Unknown members are ignored;
/// a control character in any text member but the description is refused.
///
/// The server checks every member and lists every problem in one 400 (it does
/// not stop at the first), so this type documents the shape; the server reads
/// the JSON itself. The member rules of the OpenAPI schema come from [`rules`],
/// the constants validation applies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobRequest {
    /// A category id from `/api/v1/category`: a JSON number, or a string of digits.
    #[schema(schema_with = rules::category_id_schema)]
    pub category_id: serde_json::Value,
    /// What needs doing: more than 10 characters once trimmed; line breaks
    /// (CRLF and CR stored as LF) and tabs are its only control characters.
    #[schema(schema_with = rules::description_schema)]
    pub description: String,
    /// The homeowner's e-mail address.
    #[schema(schema_with = rules::email_schema)]
    pub email: String,
    /// The homeowner's phone number: `^\+?\d{5,15}$` once separators are removed.
    #[schema(schema_with = rules::phone_schema)]
    pub phone: String,
    /// Not blank.
    #[schema(schema_with = rules::short_text_schema)]
    pub first_name: String,
    /// Not blank.
    #[schema(schema_with = rules::short_text_schema)]
    pub last_name: String,
    /// A UK postcode, any case, with or without the space.
    #[schema(schema_with = rules::postcode_schema)]
    pub postcode: String,
    /// Where the work is, when the affiliate has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// When the homeowner would like the work to start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_start: Option<PreferredStart>,
}

/// A postal address. Unknown members are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    /// Required, not blank.
    #[schema(schema_with = rules::short_text_schema)]
    pub line1: String,
    /// Optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = rules::optional_line_schema)]
    pub line2: Option<String>,
    /// Optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = rules::optional_line_schema)]
    pub line3: Option<String>,
    /// Required, not blank.
    #[schema(schema_with = rules::short_text_schema)]
    pub city: String,
    /// Required, a UK postcode.
    #[schema(schema_with = rules::postcode_schema)]
    pub postcode: String,
}

/// The homeowner's preferred start. Unknown members are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreferredStart {
    /// One of the ids of `GET /preferred-start-options`.
    #[schema(value_type = crate::PreferredStartId, example = "WITHIN_2_WEEKS")]
    pub id: String,
    /// A calendar date `YYYY-MM-DD` (an RFC 3339 date-time is also accepted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = rules::date_schema)]
    pub date: Option<String>,
}

/// The 201 answer: the job's id and the trades that received it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JobCreated {
    /// The job's id (a UUID).
    #[schema(example = "0193a4b2-6c1e-7d2f-9a41-3b5c6d7e8f90")]
    pub id: String,
    /// The trades the job went to (in staging: would have gone to), best match first.
    pub trades: Vec<TradeRef>,
}

/// A trade that received a job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TradeRef {
    /// The trade's company id.
    pub id: u64,
    /// Trading name.
    pub name: String,
    /// The trade's public profile page.
    #[serde(rename = "profileURL")]
    #[schema(example = "https://www.example-trades.co.uk/trades/104233")]
    pub profile_url: String,
}

/// `GET /jobs/{id}`: the job as stored, with its recipients.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    /// The job's id.
    pub id: String,
    /// `staging` or `production`.
    pub environment: String,
    /// The category id.
    #[schema(minimum = 1)]
    pub category_id: u32,
    /// The description as received, trimmed, its line breaks as LF.
    pub description: String,
    /// The homeowner.
    pub consumer: Consumer,
    /// Normalised postcode.
    pub postcode: String,
    /// The address, or `null`.
    pub address: Option<Address>,
    /// The preferred start, or `null`.
    pub preferred_start: Option<PreferredStart>,
    /// How the job arrived: `api` or `api-with-attachments`.
    pub creation_source: String,
    /// When the service received the job (RFC 3339, UTC).
    pub received_at: String,
    /// The trades chosen, with the state of the lead to each.
    pub recipients: Vec<Recipient>,
    /// The job's photos (empty for jobs sent to `/jobs`).
    pub images: Vec<JobImageView>,
}

/// A photo of a job, as stored (metadata removed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobImageView {
    /// The image's id.
    pub id: String,
    /// The file name the affiliate sent, sanitised.
    pub file_name: String,
    /// The type decided from the content.
    pub content_type: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Size of the stored file in bytes.
    pub bytes: u64,
}

/// The homeowner's contact details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Consumer {
    /// E-mail address.
    pub email: String,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Phone number.
    pub phone: String,
}

/// A trade chosen for a job and where its lead stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Recipient {
    /// Company id.
    pub id: u64,
    /// Trading name.
    pub name: String,
    /// Profile page.
    #[serde(rename = "profileURL")]
    pub profile_url: String,
    /// Rank among the recipients, from 1.
    pub rank: u32,
    /// `pending`, `delivered`, `dead` (the retry window passed), `gone` (the
    /// trade's channels answered 410) or `not_sent` (staging never delivers).
    pub delivery_state: String,
}
