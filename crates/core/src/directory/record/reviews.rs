//! A review as an operator imports it, checked and brought to one form.

use crate::postcode::Postcode;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Longest `location` accepted, in characters.
const MAX_LOCATION: usize = 100;

/// One review of the import file.
///
/// Files written before the search answer followed the specification use
/// `review` for the text, a four-score `breakdown` object and a
/// `postcodeDistrict`; they stay valid: [`check_reviews`] turns them into
/// `body`, `breakdowns` and `location`, the one form that is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReviewRecord {
    /// Unique within the trade.
    pub id: String,
    /// Headline, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The text, if any (`review` in older files).
    #[serde(default, alias = "review", skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Overall score, 1 to 10.
    pub score: f64,
    /// Scores of the review's aspects, each 1 to 10.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breakdowns: Vec<BreakdownRecord>,
    /// The older form of `breakdowns`; never stored.
    #[serde(default, skip_serializing)]
    pub breakdown: Option<FourScores>,
    /// Where the job was: a town or a postcode district, never a full postcode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The older form of `location`: a district such as `BR1`; never stored.
    #[serde(default, skip_serializing)]
    pub postcode_district: Option<String>,
    /// Whether the marketplace checked that the job took place.
    pub verified: bool,
    /// When the review was written (RFC 3339).
    pub created_at: String,
    /// The trade's public answer, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trade_response: Option<String>,
}

/// The score of one aspect of a review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreakdownRecord {
    /// What was scored, e.g. `Tidiness`.
    pub label: String,
    /// 1 to 10.
    pub value: f64,
}

/// The four aspects older import files score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FourScores {
    /// 1 to 10.
    pub reliability: u8,
    /// 1 to 10.
    pub tidiness: u8,
    /// 1 to 10.
    pub courtesy: u8,
    /// 1 to 10.
    pub workmanship: u8,
}

impl FourScores {
    /// The same scores as label and value pairs.
    pub fn breakdowns(self) -> Vec<BreakdownRecord> {
        [
            ("Reliability", self.reliability),
            ("Tidiness", self.tidiness),
            ("Courtesy", self.courtesy),
            ("Workmanship", self.workmanship),
        ]
        .into_iter()
        .map(|(label, value)| BreakdownRecord {
            label: label.to_owned(),
            value: f64::from(value),
        })
        .collect()
    }
}

impl ReviewRecord {
    /// When the review was written, if `created_at` is valid.
    pub fn written_at(&self) -> Option<OffsetDateTime> {
        OffsetDateTime::parse(&self.created_at, &Rfc3339).ok()
    }
}

/// Checks every review, naming each problem by its place in the list, and
/// brings the valid ones to the stored form (blank optional text as absent,
/// `breakdown` as `breakdowns`, `postcodeDistrict` as `location`).
pub(super) fn check_reviews(reviews: &mut [ReviewRecord], problems: &mut Vec<String>) {
    let mut ids = HashSet::new();
    for (index, review) in reviews.iter_mut().enumerate() {
        let at = format!("reviews[{index}]");
        if review.id.trim().is_empty() || !ids.insert(review.id.clone()) {
            problems.push(format!("{at}.id must be present and unique"));
        }
        for text in [
            &mut review.title,
            &mut review.body,
            &mut review.trade_response,
        ] {
            if text.as_deref().is_some_and(|t| t.trim().is_empty()) {
                *text = None;
            }
        }
        if !(1.0..=10.0).contains(&review.score) {
            problems.push(format!("{at}.score must be 1 to 10"));
        }
        match (review.breakdown.take(), review.breakdowns.is_empty()) {
            (Some(_), false) => problems.push(format!(
                "{at}: give breakdowns or the older breakdown, not both"
            )),
            (Some(four), true) => review.breakdowns = four.breakdowns(),
            (None, _) => {}
        }
        for (n, part) in review.breakdowns.iter().enumerate() {
            if part.label.trim().is_empty() {
                problems.push(format!("{at}.breakdowns[{n}].label must not be blank"));
            }
            if !(1.0..=10.0).contains(&part.value) {
                problems.push(format!("{at}.breakdowns[{n}].value must be 1 to 10"));
            }
        }
        check_location(review, &at, problems);
        if review.written_at().is_none() {
            problems.push(format!(
                "{at}.createdAt `{}` is not an RFC 3339 time",
                review.created_at
            ));
        }
    }
}

fn check_location(review: &mut ReviewRecord, at: &str, problems: &mut Vec<String>) {
    if let Some(district) = review.postcode_district.take() {
        let district = district.trim().to_ascii_uppercase();
        if !super::is_district(&district) {
            problems.push(format!(
                "{at}.postcodeDistrict `{district}` is not a postcode district"
            ));
        }
        if review.location.is_none() {
            review.location = Some(district);
        }
    }
    match review.location.as_mut() {
        None => problems.push(format!(
            "{at} needs a location (or the older postcodeDistrict)"
        )),
        Some(location) => {
            *location = location.trim().to_owned();
            if location.is_empty() || location.chars().count() > MAX_LOCATION {
                problems.push(format!(
                    "{at}.location must be 1 to {MAX_LOCATION} characters"
                ));
            } else if Postcode::parse(location).is_ok() {
                problems.push(format!(
                    "{at}.location `{location}` is a full postcode; reviews are public, give the district or the town"
                ));
            }
        }
    }
}
