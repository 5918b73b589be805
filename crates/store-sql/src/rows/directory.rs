//! Rows of `trades`, `trade_reviews` and `trade_images`: what matching
//! indexes of a trade, and its whole record as validated at import.

use super::bad;
use intake_core::directory::record::{
    BreakdownRecord, Coverage, Delivery, ImageKind, ImageRecord, ReviewRecord, TradeRecord,
};
use intake_core::directory::IndexedTrade;
use intake_core::geography::Point;
use intake_core::store::StoreError;

/// What the in-memory index needs of a row of `trades`.
#[derive(Debug, sqlx::FromRow)]
pub struct IndexRow {
    pub company_id: i64,
    pub company_name: String,
    pub active: bool,
    pub base_easting: Option<f64>,
    pub base_northing: Option<f64>,
    pub radius_miles: Option<f64>,
    /// Space-separated districts.
    pub districts: String,
    /// Space-separated category ids.
    pub categories: String,
    pub review_score: Option<f64>,
}

impl IndexRow {
    /// The trade as the index holds it.
    pub fn into_indexed(self) -> Result<IndexedTrade, StoreError> {
        Ok(IndexedTrade {
            company_id: self.company_id as u64,
            company_name: self.company_name,
            active: self.active,
            base: self
                .base_easting
                .zip(self.base_northing)
                .map(|(easting, northing)| Point { easting, northing }),
            radius_miles: self.radius_miles,
            districts: districts(&self.districts),
            categories: categories(&self.categories)?,
            review_score: self.review_score,
        })
    }
}

/// A row of `trades`, as read for its record.
#[derive(Debug, sqlx::FromRow)]
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
        Ok(TradeRecord {
            company_id: self.company_id as u64,
            categories: categories(&self.categories)?,
            company_name: self.company_name,
            logo_url: self.logo_url,
            active: self.active,
            base_postcode: self.base_postcode,
            coverage: Coverage {
                radius_miles: self.radius_miles,
                districts: districts(&self.districts),
            },
            delivery: Delivery {
                webhook_url: self.webhook_url,
                email: self.email,
            },
            reviews: Vec::new(),
            images: Vec::new(),
        })
    }
}

/// A row of `trade_reviews`.
#[derive(Debug, sqlx::FromRow)]
pub struct ReviewRow {
    pub company_id: i64,
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

/// A row of `trade_images`.
#[derive(Debug, sqlx::FromRow)]
pub struct ImageRow {
    pub company_id: i64,
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
    pub width: Option<i32>,
    pub height: Option<i32>,
}

impl ImageRow {
    /// The image as validated at import.
    pub fn into_record(self) -> Result<ImageRecord, StoreError> {
        let kind = ImageKind::parse(&self.kind)
            .ok_or_else(|| bad(&format!("image `{}`", self.image_id), "kind"))?;
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

fn districts(column: &str) -> Vec<String> {
    column.split_whitespace().map(str::to_owned).collect()
}

fn categories(column: &str) -> Result<Vec<u32>, StoreError> {
    column
        .split_whitespace()
        .map(|id| {
            id.parse()
                .map_err(|_| StoreError::Other(format!("bad category id `{id}` in trades")))
        })
        .collect()
}
