//! A trade as an operator imports it (one JSON object per line of the
//! `intake import trades` file; the format is documented in docs/directory.md).

use crate::categories::CategoryTree;
use crate::geography::{Geography, Point};
use crate::postcode::Postcode;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

mod images;
mod reviews;

pub use images::{youtube_url, ImageKind, ImageRecord, DEFAULT_ALBUM};
pub use reviews::{BreakdownRecord, FourScores, ReviewRecord};

/// Widest radius a trade may cover, in miles.
pub const MAX_RADIUS_MILES: f64 = 100.0;

/// One trade of the import file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TradeRecord {
    /// The marketplace's company id, unique.
    pub company_id: u64,
    /// Trading name.
    pub company_name: String,
    /// Logo address (https), if any.
    #[serde(default)]
    pub logo_url: Option<String>,
    /// Whether the trade takes leads now.
    #[serde(default = "yes")]
    pub active: bool,
    /// Postcode of the trade's base.
    pub base_postcode: String,
    /// Where the trade works.
    pub coverage: Coverage,
    /// Category ids the trade is registered for.
    pub categories: Vec<u32>,
    /// How leads reach the trade.
    pub delivery: Delivery,
    /// Reviews, any order.
    #[serde(default)]
    pub reviews: Vec<ReviewRecord>,
    /// Photos and videos of work, in the order a search shows them.
    #[serde(default)]
    pub images: Vec<ImageRecord>,
}

fn yes() -> bool {
    true
}

/// Where a trade works: within a radius of its base, and/or in listed postcode districts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Coverage {
    /// Miles around the base postcode.
    #[serde(default)]
    pub radius_miles: Option<f64>,
    /// Postcode districts covered whatever the distance (the only way to cover
    /// postcodes without coordinates, such as Northern Ireland).
    #[serde(default)]
    pub districts: Vec<String>,
}

/// A trade's delivery channels; at least one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Delivery {
    /// Leads are POSTed here.
    #[serde(default)]
    pub webhook_url: Option<String>,
    /// Leads are e-mailed here.
    #[serde(default)]
    pub email: Option<String>,
}

/// A record that passed every check, with its base located.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidTrade {
    /// The record, normalised (postcode and districts upper case).
    pub record: TradeRecord,
    /// Base centroid, when the base postcode has coordinates.
    pub base: Option<Point>,
}

impl ValidTrade {
    /// The search card of the trade as JSON, as stored.
    pub fn card_json(&self) -> String {
        super::rows::card_json(&self.record)
    }

    /// What the index needs of the trade.
    pub fn indexed(&self) -> super::IndexedTrade {
        let record = &self.record;
        super::IndexedTrade {
            company_id: record.company_id,
            company_name: record.company_name.clone(),
            active: record.active,
            base: self.base,
            radius_miles: record.coverage.radius_miles,
            districts: record.coverage.districts.clone(),
            categories: record.categories.clone(),
            review_score: super::summary::review_score(&record.reviews),
        }
    }
}

impl TradeRecord {
    /// Checks every field; returns all problems found, each naming the field.
    pub fn validate(
        mut self,
        tree: &CategoryTree,
        geography: &Geography,
    ) -> Result<ValidTrade, Vec<String>> {
        let mut problems = Vec::new();
        if self.company_id == 0 {
            problems.push("companyId must be at least 1".to_owned());
        }
        self.company_name = self.company_name.trim().to_owned();
        if self.company_name.is_empty() {
            problems.push("companyName must not be blank".to_owned());
        }
        if let Some(url) = &self.logo_url {
            if !is_web_url(url) {
                problems.push(format!("logoUrl `{url}` is not an http(s) address"));
            }
        }
        let base = match Postcode::parse(&self.base_postcode) {
            Ok(postcode) => {
                let located = geography.locate(&postcode).map(|location| location.point);
                self.base_postcode = postcode.into_string();
                located
            }
            Err(error) => {
                problems.push(format!("basePostcode: {error}"));
                None
            }
        };
        self.check_coverage(base.is_some(), &mut problems);
        self.check_categories(tree, &mut problems);
        self.check_delivery(&mut problems);
        reviews::check_reviews(&mut self.reviews, &mut problems);
        images::check_images(&mut self.images, &mut problems);
        if problems.is_empty() {
            Ok(ValidTrade { record: self, base })
        } else {
            Err(problems)
        }
    }

    fn check_coverage(&mut self, located: bool, problems: &mut Vec<String>) {
        if let Some(radius) = self.coverage.radius_miles {
            if !(radius > 0.0 && radius <= MAX_RADIUS_MILES) {
                problems.push(format!("coverage.radiusMiles must be above 0 and at most {MAX_RADIUS_MILES}, not {radius}"));
            } else if !located {
                problems.push("coverage.radiusMiles needs a basePostcode with coordinates; list coverage.districts instead".to_owned());
            }
        }
        let mut seen = HashSet::new();
        for district in &mut self.coverage.districts {
            *district = district.trim().to_ascii_uppercase();
            if !is_district(district) {
                problems.push(format!("coverage.districts: `{district}` is not a postcode district such as SW1A or M1"));
            } else if !seen.insert(district.clone()) {
                problems.push(format!("coverage.districts: `{district}` is listed twice"));
            }
        }
        if self.coverage.radius_miles.is_none() && self.coverage.districts.is_empty() {
            problems.push("coverage needs radiusMiles or districts".to_owned());
        }
    }

    fn check_categories(&self, tree: &CategoryTree, problems: &mut Vec<String>) {
        if self.categories.is_empty() {
            problems.push("categories must list at least one category id".to_owned());
        }
        let mut seen = HashSet::new();
        for id in &self.categories {
            if tree.get(*id).is_none() {
                problems.push(format!("categories: {id} is not a known category"));
            } else if !seen.insert(*id) {
                problems.push(format!("categories: {id} is listed twice"));
            }
        }
    }

    fn check_delivery(&self, problems: &mut Vec<String>) {
        let Delivery { webhook_url, email } = &self.delivery;
        if webhook_url.is_none() && email.is_none() {
            problems.push("delivery needs webhookUrl or email".to_owned());
        }
        if let Some(url) = webhook_url {
            if !is_web_url(url) {
                problems.push(format!(
                    "delivery.webhookUrl `{url}` is not an http(s) address"
                ));
            }
        }
        if let Some(email) = email {
            if !crate::email::is_valid(email) {
                problems.push(format!("delivery.email `{email}` is not an e-mail address"));
            }
        }
    }
}

fn is_web_url(text: &str) -> bool {
    (text.starts_with("https://") || text.starts_with("http://"))
        && text.len() > 8
        && !text.contains(char::is_whitespace)
}

/// An outward code such as `M1`, `SW1A`, `EC1V`.
pub fn is_district(text: &str) -> bool {
    let bytes = text.as_bytes();
    let letters = bytes.iter().take_while(|b| b.is_ascii_uppercase()).count();
    let rest = &bytes[letters..];
    (1..=2).contains(&letters)
        && (1..=2).contains(&rest.len())
        && rest[0].is_ascii_digit()
        && rest[1..]
            .iter()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
}
