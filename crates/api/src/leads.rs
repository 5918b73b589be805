//! The lead: what a trade receives for a job, as the JSON body of a webhook
//! and inside the lead e-mail. Documented with an example in docs/delivery.md.

use crate::jobs::Address;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The `type` of every lead.
pub const LEAD_CREATED: &str = "lead.created";

/// One job for one trade. The same delivery (same `id`) may arrive more than
/// once after a failure or a crash: treat a repeated `id` as the same lead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lead {
    /// Always `lead.created`.
    #[serde(rename = "type")]
    #[schema(example = "lead.created")]
    pub kind: String,
    /// The delivery id; also the `webhook-id` header. The same on every attempt.
    #[schema(example = "0193a4b2-6c1e-7d2f-9a41-3b5c6d7e8f90.104233.webhook")]
    pub id: String,
    /// When the job was received (RFC 3339, UTC).
    pub created_at: String,
    /// The trade this lead is for.
    pub trade: LeadTrade,
    /// The job.
    pub job: LeadJob,
}

/// The receiving trade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadTrade {
    /// Company id.
    pub id: u64,
    /// Trading name.
    pub name: String,
}

/// What a trade needs to quote for the job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadJob {
    /// The job id (as the affiliate knows it).
    pub id: String,
    /// The job's category.
    pub category: LeadCategory,
    /// What needs doing, as the homeowner wrote it.
    pub description: String,
    /// When the homeowner would like to start, or `null`.
    pub preferred_start: Option<LeadPreferredStart>,
    /// The job's postcode, normalised (`SW1A 1AA`).
    pub postcode: String,
    /// The full address, or `null` when the affiliate did not send one.
    pub address: Option<Address>,
    /// How to reach the homeowner.
    pub consumer: LeadConsumer,
    /// The job's photos (empty when none).
    pub images: Vec<LeadImage>,
}

/// A category by id and label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadCategory {
    /// Category id (as in `/api/v1/category`).
    pub id: u32,
    /// Its label.
    pub name: String,
}

/// The preferred start with its label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadPreferredStart {
    /// One of the preferred-start ids, e.g. `URGENT`.
    pub id: String,
    /// Its label, e.g. `It's urgent (within 48 hours)`.
    pub label: String,
    /// The date asked for (`YYYY-MM-DD`), or `null`.
    pub date: Option<String>,
}

/// The homeowner's contact details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadConsumer {
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// E-mail address.
    pub email: String,
    /// Phone number.
    pub phone: String,
}

/// A photo of the job behind a signed link that expires.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadImage {
    /// A signed link to the cleaned photo; no other authentication needed.
    pub url: String,
    /// When the link stops working (RFC 3339, UTC).
    pub url_expires_at: String,
    /// `image/jpeg`, `image/png`, `image/webp` or `image/gif`.
    pub content_type: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_serialises_with_camel_case_members_and_explicit_nulls() {
        let lead = Lead {
            kind: LEAD_CREATED.into(),
            id: "j.1.webhook".into(),
            created_at: "2026-11-26T10:00:00Z".into(),
            trade: LeadTrade {
                id: 1,
                name: "Trade".into(),
            },
            job: LeadJob {
                id: "j".into(),
                category: LeadCategory {
                    id: 1335,
                    name: "Boiler repair".into(),
                },
                description: "Boiler not working".into(),
                preferred_start: None,
                postcode: "SW1A 1AA".into(),
                address: None,
                consumer: LeadConsumer {
                    first_name: "Sam".into(),
                    last_name: "Jones".into(),
                    email: "sam@example.com".into(),
                    phone: "07900000000".into(),
                },
                images: Vec::new(),
            },
        };
        let value = serde_json::to_value(&lead).unwrap();
        assert_eq!(value["type"], "lead.created");
        assert_eq!(value["createdAt"], "2026-11-26T10:00:00Z");
        assert!(value["job"]["preferredStart"].is_null());
        assert!(value["job"]["address"].is_null());
        assert_eq!(value["job"]["consumer"]["firstName"], "Sam");
        let back: Lead = serde_json::from_value(value).unwrap();
        assert_eq!(back, lead);
    }
}
