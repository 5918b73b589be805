//! The trade search: `GET /trades/search?postcode&category&page&size`.
//!
//! The seed documents no shape for this answer, so it is ours (docs/api.md):
//! every member below is always present, nullable ones as `null`, and no others.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Largest `size` a search accepts.
pub const MAX_PAGE_SIZE: u32 = 50;
/// `size` when none is given.
pub const DEFAULT_PAGE_SIZE: u32 = 5;
/// How many of a trade's most recent reviews an item carries.
pub const RECENT_REVIEWS: usize = 3;

/// Query parameters of the search, as sent (checked by the handler so that
/// each bad one gets a 400 naming it).
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TradeSearchQuery {
    /// A UK postcode, any case, with or without the space.
    #[param(required = true, example = "SW1A 1AA")]
    pub postcode: Option<String>,
    /// A category id (a parent also finds trades of its sub categories).
    #[param(required = true, value_type = u32, minimum = 1, example = 20)]
    pub category: Option<String>,
    /// Page number, from 1.
    #[param(value_type = Option<u32>, minimum = 1, default = 1)]
    pub page: Option<String>,
    /// Items per page, 1 to 50.
    #[param(value_type = Option<u32>, minimum = 1, maximum = 50, default = 5)]
    pub size: Option<String>,
}

/// The answer of a search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TradeSearchResponse {
    /// The trades of this page, best first.
    pub items: Vec<TradeItem>,
    /// Paging figures.
    pub meta: SearchMeta,
}

/// One tradesperson in a search answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TradeItem {
    /// The marketplace's id of the trade's company.
    #[schema(example = 104_233)]
    pub company_id: u64,
    /// Trading name.
    #[schema(example = "Hudson Plumbing & Heating")]
    pub company_name: String,
    /// Logo address, or `null` when the trade has none.
    pub logo_url: Option<String>,
    /// Mean review score out of 10, two decimals; `null` with no reviews.
    #[schema(example = 9.58)]
    pub review_score: Option<f64>,
    /// Number of reviews.
    pub total_reviews: u32,
    /// Mean of each review dimension out of 10; `null` with no reviews.
    pub reviews_summary: Option<ReviewsSummary>,
    /// The most recent reviews, newest first (at most 3).
    pub recent_reviews: Vec<Review>,
    /// Photos of the trade's work.
    pub images: Vec<Image>,
}

/// Means of the review dimensions, each out of 10 with one decimal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewsSummary {
    /// Turned up when agreed, kept to the plan.
    pub reliability: f64,
    /// Left the home clean and tidy.
    pub tidiness: f64,
    /// Polite and considerate.
    pub courtesy: f64,
    /// Quality of the work.
    pub workmanship: f64,
}

/// A homeowner's review of a trade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Review {
    /// Stable id of the review (a UUID).
    pub id: String,
    /// Short headline.
    #[schema(example = "New combi boiler fitted")]
    pub title: String,
    /// The review text.
    pub review: String,
    /// Overall score out of 10.
    #[schema(example = 10)]
    pub score: f64,
    /// Scores of each dimension, 1 to 10.
    pub breakdown: ReviewBreakdown,
    /// Postcode district of the job, e.g. `BR1` (never the full postcode).
    #[schema(example = "BR1")]
    pub postcode_district: String,
    /// Whether the marketplace checked the job took place.
    pub verified: bool,
    /// When the review was written (RFC 3339, UTC).
    #[schema(example = "2026-03-14T09:30:00Z")]
    pub created_at: String,
}

/// Scores of one review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewBreakdown {
    /// 1 to 10.
    pub reliability: u8,
    /// 1 to 10.
    pub tidiness: u8,
    /// 1 to 10.
    pub courtesy: u8,
    /// 1 to 10.
    pub workmanship: u8,
}

/// A photo of a trade's work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Image {
    /// Stable id of the image.
    pub id: String,
    /// Address of the full-size image.
    pub url: String,
    /// Address of a small version for lists.
    pub thumbnail_url: String,
    /// What the photo shows, or `null`.
    pub caption: Option<String>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Paging figures of a search answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchMeta {
    /// This page's number.
    pub page: u32,
    /// The page size asked for.
    pub items_per_page: u32,
    /// Matching trades in all pages.
    pub total_results: u64,
    /// `ceil(totalResults / itemsPerPage)`.
    pub total_pages: u64,
}

impl SearchMeta {
    /// Figures for `page` of `size` over `total` results.
    pub fn new(page: u32, size: u32, total: u64) -> Self {
        SearchMeta {
            page,
            items_per_page: size,
            total_results: total,
            total_pages: total.div_ceil(u64::from(size)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_pages_is_the_ceiling_of_results_over_page_size() {
        assert_eq!(SearchMeta::new(1, 5, 0).total_pages, 0);
        assert_eq!(SearchMeta::new(1, 5, 5).total_pages, 1);
        assert_eq!(SearchMeta::new(1, 5, 6).total_pages, 2);
        assert_eq!(SearchMeta::new(3, 50, 101).total_pages, 3);
    }

    #[test]
    fn an_item_without_reviews_carries_nulls_not_missing_members() {
        let item = TradeItem {
            company_id: 1,
            company_name: "A".into(),
            logo_url: None,
            review_score: None,
            total_reviews: 0,
            reviews_summary: None,
            recent_reviews: vec![],
            images: vec![],
        };
        let json = serde_json::to_value(&item).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"companyId": 1, "companyName": "A", "logoUrl": null, "reviewScore": null, "totalReviews": 0, "reviewsSummary": null, "recentReviews": [], "images": []})
        );
    }
}
