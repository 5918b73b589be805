//! `POST /verify/jobs/with-attachments`: what the service would make of a
//! job with images, without creating anything.

use crate::jobs::Consumer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The 200 answer of a verification: the job as the service read it, the
/// request's headers (credentials removed), the trades it would go to and the
/// images it would keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyResult {
    /// The job's main members, normalised as they would be stored.
    pub body: VerifiedBody,
    /// The headers the client sent, names lowercased; `authorization`, `signature`,
    /// `cookie`, `proxy-authorization` and other credentials are left out, and so is
    /// the `x-request-id` the service makes for a request that came without one.
    pub headers: BTreeMap<String, String>,
    /// The homeowner's contact details.
    pub consumer: Consumer,
    /// The trades the job would go to, best match first; empty when none serves it.
    pub found_trades: Vec<FoundTrade>,
    /// The sanitised file names of the images, in the order sent.
    pub images: Vec<String>,
}

/// The job's main members after validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedBody {
    /// The category id, as a number.
    #[schema(example = 1335, minimum = 1)]
    pub category_id: u32,
    /// The description, trimmed, its line breaks as LF.
    pub description: String,
    /// The postcode, normalised (upper case, one space).
    #[schema(example = "SW1A 1AA")]
    pub postcode: String,
    /// How the job would be recorded: `api-with-attachments`.
    #[schema(example = "api-with-attachments")]
    pub creation_source: String,
}

/// A trade the job would be sent to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FoundTrade {
    /// The trade's company id.
    pub company_id: u64,
    /// Trading name.
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_uses_the_published_member_names() {
        let result = VerifyResult {
            body: VerifiedBody {
                category_id: 1335,
                description: "Boiler broken".into(),
                postcode: "SW1A 1AA".into(),
                creation_source: "api-with-attachments".into(),
            },
            headers: BTreeMap::from([("date".to_owned(), "now".to_owned())]),
            consumer: Consumer {
                email: "a@example.com".into(),
                first_name: "A".into(),
                last_name: "B".into(),
                phone: "07900000000".into(),
            },
            found_trades: vec![FoundTrade {
                company_id: 7,
                name: "T".into(),
            }],
            images: vec!["boiler.jpg".into()],
        };
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(json["body"]["categoryId"], 1335);
        assert_eq!(json["body"]["creationSource"], "api-with-attachments");
        assert_eq!(json["foundTrades"][0]["companyId"], 7);
        assert_eq!(json["consumer"]["firstName"], "A");
        assert_eq!(
            serde_json::from_value::<VerifyResult>(json).unwrap(),
            result
        );
    }
}
