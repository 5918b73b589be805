//! The trade search: `GET /trades/search?postcode&category&page&size`.
//!
//! The answer is exactly the specification's tables (Trade search item,
//! Review, Image, Pagination meta): every member, type and nullability as they
//! say, and no other members. Where the specification says "not shown" (formats,
//! ranges, the values of `type`, the text of `reviewsSummary`, `logoUrl` without
//! a logo, `reviewScore` without reviews), the choice is ours and is written
//! on the member below and in docs/api.md.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Largest `size` a search accepts (the specification sets no maximum).
pub const MAX_PAGE_SIZE: u32 = 50;
/// `size` when none is given.
pub const DEFAULT_PAGE_SIZE: u32 = 5;
/// How many of a trade's most recent reviews an item carries.
pub const RECENT_REVIEWS: usize = 3;

/// `logoUrl` of a trade that has no logo: a neutral grey placeholder as an
/// RFC 2397 `data:` URL, so it renders in any `<img>` with no request to any
/// host, and a client that wants its own placeholder recognises it by the
/// `data:` prefix.
pub const PLACEHOLDER_LOGO_URL: &str = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA5NiA5NiI+PHJlY3Qgd2lkdGg9Ijk2IiBoZWlnaHQ9Ijk2IiByeD0iMTIiIGZpbGw9IiNlNWU3ZWIiLz48cGF0aCBkPSJNMjQgNTIgNDggMzBsMjQgMjJ2MjJINTZWNThINDB2MTZIMjR6IiBmaWxsPSIjOWNhM2FmIi8+PC9zdmc+";

/// `type` of an image that is a photo: `url` is the full-size photo.
pub const IMAGE_TYPE_PHOTO: &str = "photo";
/// `type` of an image that is a YouTube video: `youTubeId` is its id and
/// `url` its watch page.
pub const IMAGE_TYPE_YOUTUBE: &str = "youtube";

/// Query parameters of the search, as sent (checked by the handler so that
/// each bad one gets a 400 naming it).
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TradeSearchQuery {
    /// A full UK postcode, any case, with or without the space.
    #[param(required = true, min_length = 1, example = "SW1A 1AA")]
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
pub struct TradeSearchResponse {
    /// The trades of this page, best first.
    pub items: Vec<TradeItem>,
    /// Paging figures.
    pub meta: SearchMeta,
}

/// One tradesperson in a search answer (the specification's Trade search item).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeItem {
    /// The marketplace's id of the trade's company.
    #[schema(example = 104_233)]
    pub company_id: u64,
    /// Trading name.
    #[schema(example = "Hudson Plumbing & Heating")]
    pub company_name: String,
    /// Mean of the trade's review scores, 0 to 10 with at most two decimals;
    /// 0 when the trade has no reviews (`totalReviews` is then 0).
    #[schema(example = 9.58)]
    pub review_score: f64,
    /// Number of reviews.
    #[schema(example = 23)]
    pub total_reviews: u32,
    /// Address of the trade's logo; [`PLACEHOLDER_LOGO_URL`] (a `data:` URL)
    /// when the trade has none.
    #[schema(example = "https://images.example-trades.co.uk/logos/104233.png")]
    pub logo_url: String,
    /// The most recent reviews, newest first (at most 3).
    pub recent_reviews: Vec<Review>,
    /// Photos and videos of the trade's work, in the trade's order.
    pub images: Vec<Image>,
    /// One line on the reviews, `Rated 9.58 out of 10 from 23 reviews`;
    /// absent when the trade has no reviews.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = "Rated 9.58 out of 10 from 23 reviews")]
    pub reviews_summary: Option<String>,
}

/// A homeowner's review of a trade (the specification's Review).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// The review text, or `null` when the reviewer wrote only a score.
    pub body: Option<String>,
    /// Stable id of the review.
    #[schema(example = "3f2a9c1e-8b7d-4e6f-a5c4-1d2e3f4a5b6c")]
    pub review_id: String,
    /// Where the job was: a town or a postcode district such as `BR1`,
    /// never a full postcode.
    #[schema(example = "BR1")]
    pub location: String,
    /// Whether a page shows this review opened: true for the newest review
    /// of an item only.
    pub open_on_load: bool,
    /// The day the review was written, `YYYY-MM-DD` (UK time).
    #[schema(example = "2026-03-14")]
    pub reviewed_date: String,
    /// Overall score, 1 to 10, at most one decimal.
    #[schema(example = 9.5)]
    pub score: f64,
    /// `score` as a whole percentage, 10 to 100 (`score` × 10, rounded).
    #[schema(example = 95)]
    pub score_percent: u8,
    /// Whether the review has `breakdowns` to show.
    pub show_breakdowns: bool,
    /// Short headline, or `null`.
    #[schema(example = "New combi boiler fitted")]
    pub title: Option<String>,
    /// The trade's public answer to the review, or `null`.
    pub trade_response: Option<String>,
    /// Whether the marketplace checked that the job took place.
    pub verified: bool,
    /// Scores of the review's aspects, each 1 to 10 (empty when the review
    /// scored none).
    pub breakdowns: Vec<Breakdown>,
}

/// The score of one aspect of a review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Breakdown {
    /// What was scored.
    #[schema(example = "Reliability & timekeeping")]
    pub label: String,
    /// The score, 1 to 10.
    #[schema(example = 10)]
    pub value: f64,
}

/// A photo or video of a trade's work (the specification's Image).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    /// Stable id of the image.
    #[schema(example = "img-104233-1")]
    pub id: String,
    /// The album the image belongs to (`work` unless the trade names one).
    #[schema(example = "work")]
    pub album_id: String,
    /// The day the photo was taken or the video published, as a UK reader
    /// writes it (`14 March 2026`), or `null` when unknown.
    #[schema(example = "14 March 2026")]
    pub date_formatted: Option<String>,
    /// What the image shows, or `null`.
    pub description: Option<String>,
    /// A short tag such as `Before` or `After`, or `null`.
    pub label: Option<String>,
    /// [`IMAGE_TYPE_PHOTO`] or [`IMAGE_TYPE_YOUTUBE`].
    #[serde(rename = "type")]
    #[schema(example = "photo")]
    pub kind: String,
    /// A title, or `null`.
    pub title: Option<String>,
    /// The full-size photo, or the video's watch page; `null` when neither
    /// is known.
    pub url: Option<String>,
    /// The photo at any size: replace `{width}` and `{height}`; `null` when
    /// the trade offers only `url`.
    #[schema(example = "https://images.example-trades.co.uk/work/104233/1_{width}x{height}.jpg")]
    pub url_template: Option<String>,
    /// The YouTube video id of a `youtube` image, else `null`.
    #[serde(rename = "youTubeId")]
    pub you_tube_id: Option<String>,
}

/// Paging figures of a search answer (the specification's Pagination meta).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchMeta {
    /// This page's number, from 1.
    pub current_page: u32,
    /// The page size asked for (`size`).
    pub items_per_page: u32,
    /// `ceil(totalResults / itemsPerPage)`; 0 when nothing matches.
    pub total_pages: u64,
    /// Matching trades in all pages.
    pub total_results: u64,
}

impl SearchMeta {
    /// Figures for `page` of `size` over `total` results.
    pub fn new(page: u32, size: u32, total: u64) -> Self {
        SearchMeta {
            current_page: page,
            items_per_page: size,
            total_pages: total.div_ceil(u64::from(size)),
            total_results: total,
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
    fn meta_has_the_four_members_of_the_specification() {
        let json = serde_json::to_value(SearchMeta::new(2, 5, 11)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"currentPage": 2, "itemsPerPage": 5, "totalPages": 3, "totalResults": 11})
        );
    }

    #[test]
    fn an_item_without_reviews_has_a_zero_score_a_placeholder_logo_and_no_summary() {
        let item = TradeItem {
            company_id: 1,
            company_name: "A".into(),
            review_score: 0.0,
            total_reviews: 0,
            logo_url: PLACEHOLDER_LOGO_URL.into(),
            recent_reviews: vec![],
            images: vec![],
            reviews_summary: None,
        };
        let json = serde_json::to_value(&item).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"companyId": 1, "companyName": "A", "reviewScore": 0.0, "totalReviews": 0,
                "logoUrl": PLACEHOLDER_LOGO_URL, "recentReviews": [], "images": []})
        );
    }

    #[test]
    fn the_placeholder_logo_is_an_svg_data_url() {
        use base64::Engine;
        let encoded = PLACEHOLDER_LOGO_URL
            .strip_prefix("data:image/svg+xml;base64,")
            .unwrap();
        let svg = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>"));
    }

    #[test]
    fn image_members_are_named_as_the_specification() {
        let image = Image {
            id: "i".into(),
            album_id: "work".into(),
            date_formatted: None,
            description: None,
            label: None,
            kind: IMAGE_TYPE_YOUTUBE.into(),
            title: None,
            url: None,
            url_template: None,
            you_tube_id: Some("dQw4w9WgXcQ".into()),
        };
        let json = serde_json::to_value(&image).unwrap();
        let mut names: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
        names.sort();
        assert_eq!(
            names,
            [
                "albumId",
                "dateFormatted",
                "description",
                "id",
                "label",
                "title",
                "type",
                "url",
                "urlTemplate",
                "youTubeId"
            ]
        );
    }
}
