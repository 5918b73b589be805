//! What a search shows of a trade, derived from its reviews and images.

use super::record::TradeRecord;
use intake_api::trades::{Review, ReviewsSummary, TradeItem, RECENT_REVIEWS};

/// Mean review score out of 10, to two decimals; `None` without reviews.
pub fn review_score(reviews: &[Review]) -> Option<f64> {
    if reviews.is_empty() {
        return None;
    }
    let mean = reviews.iter().map(|review| review.score).sum::<f64>() / reviews.len() as f64;
    Some(round(mean, 100.0))
}

/// Means of each dimension, to one decimal; `None` without reviews.
pub fn reviews_summary(reviews: &[Review]) -> Option<ReviewsSummary> {
    if reviews.is_empty() {
        return None;
    }
    let n = reviews.len() as f64;
    let mean = |pick: fn(&Review) -> u8| {
        round(
            reviews.iter().map(|r| f64::from(pick(r))).sum::<f64>() / n,
            10.0,
        )
    };
    Some(ReviewsSummary {
        reliability: mean(|r| r.breakdown.reliability),
        tidiness: mean(|r| r.breakdown.tidiness),
        courtesy: mean(|r| r.breakdown.courtesy),
        workmanship: mean(|r| r.breakdown.workmanship),
    })
}

/// The most recent reviews, newest first; equal times by id, so the order is stable.
pub fn recent_reviews(reviews: &[Review]) -> Vec<Review> {
    let mut sorted: Vec<&Review> = reviews.iter().collect();
    // RFC 3339 UTC times from one writer sort as text; parse to be safe with offsets.
    sorted.sort_by(|a, b| {
        let at = |r: &Review| {
            time::OffsetDateTime::parse(
                &r.created_at,
                &time::format_description::well_known::Rfc3339,
            )
            .ok()
        };
        at(b).cmp(&at(a)).then_with(|| a.id.cmp(&b.id))
    });
    sorted.into_iter().take(RECENT_REVIEWS).cloned().collect()
}

/// The search card of a trade.
pub fn card(record: &TradeRecord) -> TradeItem {
    TradeItem {
        company_id: record.company_id,
        company_name: record.company_name.clone(),
        logo_url: record.logo_url.clone(),
        review_score: review_score(&record.reviews),
        total_reviews: u32::try_from(record.reviews.len()).unwrap_or(u32::MAX),
        reviews_summary: reviews_summary(&record.reviews),
        recent_reviews: recent_reviews(&record.reviews),
        images: record.images.clone(),
    }
}

fn round(value: f64, scale: f64) -> f64 {
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_api::trades::ReviewBreakdown;

    fn review(id: &str, score: f64, at: &str, reliability: u8) -> Review {
        Review {
            id: id.into(),
            title: "t".into(),
            review: "r".into(),
            score,
            breakdown: ReviewBreakdown {
                reliability,
                tidiness: 10,
                courtesy: 9,
                workmanship: 8,
            },
            postcode_district: "BR1".into(),
            verified: true,
            created_at: at.into(),
        }
    }

    #[test]
    fn scores_are_means_rounded_and_absent_without_reviews() {
        let reviews = [
            review("a", 10.0, "2026-01-01T00:00:00Z", 10),
            review("b", 9.0, "2026-01-02T00:00:00Z", 7),
            review("c", 9.0, "2026-01-03T00:00:00Z", 7),
        ];
        assert_eq!(review_score(&reviews), Some(9.33));
        let summary = reviews_summary(&reviews).unwrap();
        assert_eq!(
            (
                summary.reliability,
                summary.tidiness,
                summary.courtesy,
                summary.workmanship
            ),
            (8.0, 10.0, 9.0, 8.0)
        );
        assert_eq!(review_score(&[]), None);
        assert!(reviews_summary(&[]).is_none());
    }

    #[test]
    fn recent_reviews_are_the_newest_three_newest_first() {
        let reviews = [
            review("old", 9.0, "2025-01-01T00:00:00Z", 9),
            review("new", 9.0, "2026-05-01T10:00:00+01:00", 9),
            review("mid", 9.0, "2025-06-01T00:00:00Z", 9),
            review("newer", 9.0, "2026-05-01T09:30:00Z", 9),
        ];
        let ids: Vec<_> = recent_reviews(&reviews).into_iter().map(|r| r.id).collect();
        assert_eq!(ids, ["newer", "new", "mid"]);
    }
}
