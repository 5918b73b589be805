//! The directory as both stores keep it in rows: one conversion from rows
//! back to records, so the two backends cannot drift apart in how they read
//! what they wrote.

use super::record::{
    BreakdownRecord, Coverage, Delivery, ImageKind, ImageRecord, ReviewRecord, TradeRecord,
};
use crate::store::StoreError;

/// The format of the search cards this binary writes. A store whose cards are
/// older (its `directory_state.card_format` is lower) rebuilds them from its
/// rows when it opens. 1: the shape before the specification's tables;
/// 2: the specification's tables.
pub const CARD_FORMAT: i64 = 2;

/// The search card of a stored record, as JSON.
pub fn card_json(record: &TradeRecord) -> String {
    serde_json::to_string(&super::summary::card(record)).expect("a card always serialises")
}

/// The `breakdowns` column of a review: a JSON array of `{label, value}`.
pub fn breakdowns_json(review: &ReviewRecord) -> String {
    serde_json::to_string(&review.breakdowns).expect("breakdowns always serialise")
}

/// A row of `trades`, as read.
#[derive(Debug)]
pub struct TradeRow {
    pub company_id: i64,
    pub company_name: String,
    pub logo_url: Option<String>,
    pub active: bool,
    pub base_postcode: String,
    pub radius_miles: Option<f64>,
    /// Space-separated districts.
    pub districts: String,
    /// Space-separated category ids.
    pub categories: String,
    pub webhook_url: Option<String>,
    pub email: Option<String>,
}

impl TradeRow {
    /// The record, without its reviews and images (read from their own rows).
    pub fn into_record(self) -> Result<TradeRecord, StoreError> {
        let categories = self
            .categories
            .split_whitespace()
            .map(|id| {
                id.parse()
                    .map_err(|_| StoreError::Other(format!("bad category id `{id}` in trades")))
            })
            .collect::<Result<_, _>>()?;
        Ok(TradeRecord {
            company_id: self.company_id as u64,
            company_name: self.company_name,
            logo_url: self.logo_url,
            active: self.active,
            base_postcode: self.base_postcode,
            coverage: Coverage {
                radius_miles: self.radius_miles,
                districts: self
                    .districts
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
            },
            categories,
            delivery: Delivery {
                webhook_url: self.webhook_url,
                email: self.email,
            },
            reviews: Vec::new(),
            images: Vec::new(),
        })
    }
}

/// A row of `trade_reviews`, as read.
#[derive(Debug)]
pub struct ReviewRow {
    pub review_id: String,
    pub title: Option<String>,
    pub body: Option<String>,
    pub score: f64,
    /// JSON array of `{label, value}`.
    pub breakdowns: String,
    pub location: String,
    pub verified: bool,
    pub created_at: String,
    pub trade_response: Option<String>,
}

impl ReviewRow {
    /// The review as validated at import.
    pub fn into_record(self) -> Result<ReviewRecord, StoreError> {
        let breakdowns: Vec<BreakdownRecord> =
            serde_json::from_str(&self.breakdowns).map_err(|error| {
                StoreError::Other(format!(
                    "bad breakdowns of review `{}`: {error}",
                    self.review_id
                ))
            })?;
        Ok(ReviewRecord {
            id: self.review_id,
            title: self.title,
            body: self.body,
            score: self.score,
            breakdowns,
            breakdown: None,
            location: Some(self.location),
            postcode_district: None,
            verified: self.verified,
            created_at: self.created_at,
            trade_response: self.trade_response,
        })
    }
}

/// A row of `trade_images`, as read.
#[derive(Debug)]
pub struct ImageRow {
    pub image_id: String,
    pub album_id: String,
    pub kind: String,
    pub url: Option<String>,
    pub thumbnail_url: Option<String>,
    pub url_template: Option<String>,
    pub description: Option<String>,
    pub label: Option<String>,
    pub title: Option<String>,
    pub taken_on: Option<String>,
    pub youtube_id: Option<String>,
    pub width: Option<i64>,
    pub height: Option<i64>,
}

impl ImageRow {
    /// The image as validated at import.
    pub fn into_record(self) -> Result<ImageRecord, StoreError> {
        let kind = ImageKind::parse(&self.kind).ok_or_else(|| {
            StoreError::Other(format!(
                "bad kind `{}` of image `{}`",
                self.kind, self.image_id
            ))
        })?;
        Ok(ImageRecord {
            id: self.image_id,
            album_id: Some(self.album_id),
            kind,
            url: self.url,
            thumbnail_url: self.thumbnail_url,
            url_template: self.url_template,
            description: self.description,
            label: self.label,
            title: self.title,
            date: self.taken_on,
            you_tube_id: self.youtube_id,
            width: self.width.map(|w| w as u32),
            height: self.height.map(|h| h as u32),
        })
    }
}
