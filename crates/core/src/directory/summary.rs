//! What a search shows of a trade (its card), derived from its reviews and
//! images; the choices where the specification says "not shown" are on the
//! members of `intake_api::trades`.

use super::record::{ImageRecord, ReviewRecord, TradeRecord};
use intake_api::trades::{
    Breakdown, Image, Review, TradeItem, PLACEHOLDER_LOGO_URL, RECENT_REVIEWS,
};
use time::macros::format_description;
use time::UtcOffset;

/// Mean review score out of 10, to two decimals; `None` without reviews.
pub fn review_score(reviews: &[ReviewRecord]) -> Option<f64> {
    if reviews.is_empty() {
        return None;
    }
    let mean = reviews.iter().map(|review| review.score).sum::<f64>() / reviews.len() as f64;
    Some(round(mean, 100.0))
}

/// `Rated 9.58 out of 10 from 23 reviews`; `None` without reviews.
pub fn reviews_summary(reviews: &[ReviewRecord]) -> Option<String> {
    let score = review_score(reviews)?;
    let count = reviews.len();
    let noun = if count == 1 { "review" } else { "reviews" };
    Some(format!("Rated {score} out of 10 from {count} {noun}"))
}

/// The most recent reviews, newest first, the newest opened; equal times by
/// id, so the order is stable.
pub fn recent_reviews(reviews: &[ReviewRecord]) -> Vec<Review> {
    let mut sorted: Vec<&ReviewRecord> = reviews.iter().collect();
    // Parsed, not compared as text: times may carry different offsets.
    sorted.sort_by(|a, b| {
        b.written_at()
            .cmp(&a.written_at())
            .then_with(|| a.id.cmp(&b.id))
    });
    sorted
        .into_iter()
        .take(RECENT_REVIEWS)
        .enumerate()
        .map(|(position, review)| wire_review(review, position == 0))
        .collect()
}

fn wire_review(review: &ReviewRecord, open: bool) -> Review {
    let day = format_description!("[year]-[month]-[day]");
    let reviewed_date = review
        .written_at()
        .and_then(|at| at.to_offset(UtcOffset::UTC).date().format(&day).ok())
        .unwrap_or_default();
    let breakdowns: Vec<Breakdown> = review
        .breakdowns
        .iter()
        .map(|part| Breakdown {
            label: part.label.clone(),
            value: part.value,
        })
        .collect();
    Review {
        body: review.body.clone(),
        review_id: review.id.clone(),
        location: review.location.clone().unwrap_or_default(),
        open_on_load: open,
        reviewed_date,
        score: review.score,
        score_percent: (review.score * 10.0).round().clamp(0.0, 100.0) as u8,
        show_breakdowns: !breakdowns.is_empty(),
        title: review.title.clone(),
        trade_response: review.trade_response.clone(),
        verified: review.verified,
        breakdowns,
    }
}

/// An image as the answer shows it.
pub fn wire_image(image: &ImageRecord) -> Image {
    let long_date = format_description!("[day padding:none] [month repr:long] [year]");
    Image {
        id: image.id.clone(),
        album_id: image
            .album_id
            .clone()
            .unwrap_or_else(|| super::record::DEFAULT_ALBUM.to_owned()),
        date_formatted: image.day().and_then(|day| day.format(&long_date).ok()),
        description: image.description.clone(),
        label: image.label.clone(),
        kind: image.kind.as_str().to_owned(),
        title: image.title.clone(),
        url: image.url.clone(),
        url_template: image.url_template.clone(),
        you_tube_id: image.you_tube_id.clone(),
    }
}

/// The search card of a trade.
pub fn card(record: &TradeRecord) -> TradeItem {
    TradeItem {
        company_id: record.company_id,
        company_name: record.company_name.clone(),
        review_score: review_score(&record.reviews).unwrap_or(0.0),
        total_reviews: u32::try_from(record.reviews.len()).unwrap_or(u32::MAX),
        logo_url: record
            .logo_url
            .clone()
            .unwrap_or_else(|| PLACEHOLDER_LOGO_URL.to_owned()),
        recent_reviews: recent_reviews(&record.reviews),
        images: record.images.iter().map(wire_image).collect(),
        reviews_summary: reviews_summary(&record.reviews),
    }
}

fn round(value: f64, scale: f64) -> f64 {
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directory::record::{BreakdownRecord, ImageKind};

    fn review(id: &str, score: f64, at: &str) -> ReviewRecord {
        ReviewRecord {
            id: id.into(),
            title: Some("t".into()),
            body: Some("r".into()),
            score,
            breakdowns: vec![BreakdownRecord {
                label: "Tidiness".into(),
                value: 9.0,
            }],
            breakdown: None,
            location: Some("BR1".into()),
            postcode_district: None,
            verified: true,
            created_at: at.into(),
            trade_response: None,
        }
    }

    #[test]
    fn the_score_is_a_mean_rounded_and_the_summary_says_it_in_words() {
        let reviews = [
            review("a", 10.0, "2026-01-01T00:00:00Z"),
            review("b", 9.0, "2026-01-02T00:00:00Z"),
            review("c", 9.0, "2026-01-03T00:00:00Z"),
        ];
        assert_eq!(review_score(&reviews), Some(9.33));
        assert_eq!(
            reviews_summary(&reviews).as_deref(),
            Some("Rated 9.33 out of 10 from 3 reviews")
        );
        assert_eq!(
            reviews_summary(&reviews[..1]).as_deref(),
            Some("Rated 10 out of 10 from 1 review")
        );
        assert_eq!(review_score(&[]), None);
        assert_eq!(reviews_summary(&[]), None);
    }

    #[test]
    fn recent_reviews_are_the_newest_three_newest_first_and_opened() {
        let reviews = [
            review("old", 9.0, "2025-01-01T00:00:00Z"),
            review("new", 9.0, "2026-05-01T10:00:00+01:00"),
            review("mid", 9.0, "2025-06-01T00:00:00Z"),
            review("newer", 9.5, "2026-05-01T09:30:00Z"),
        ];
        let recent = recent_reviews(&reviews);
        let ids: Vec<_> = recent.iter().map(|r| r.review_id.as_str()).collect();
        assert_eq!(ids, ["newer", "new", "mid"]);
        let opened: Vec<_> = recent.iter().map(|r| r.open_on_load).collect();
        assert_eq!(opened, [true, false, false]);
        assert_eq!(recent[0].score_percent, 95);
        assert_eq!(recent[1].reviewed_date, "2026-05-01");
        assert!(recent[0].show_breakdowns);
    }

    #[test]
    fn a_review_written_just_after_midnight_abroad_is_dated_in_utc() {
        let recent = recent_reviews(&[review("a", 8.0, "2026-03-15T00:30:00+02:00")]);
        assert_eq!(recent[0].reviewed_date, "2026-03-14");
    }

    #[test]
    fn an_image_date_is_written_out_and_its_album_defaults() {
        let image = ImageRecord {
            id: "i".into(),
            album_id: None,
            kind: ImageKind::Photo,
            url: Some("https://example.com/1.jpg".into()),
            thumbnail_url: None,
            url_template: None,
            description: None,
            label: Some("After".into()),
            title: None,
            date: Some("2026-03-04".into()),
            you_tube_id: None,
            width: None,
            height: None,
        };
        let wire = wire_image(&image);
        assert_eq!(wire.date_formatted.as_deref(), Some("4 March 2026"));
        assert_eq!(wire.album_id, "work");
        assert_eq!(wire.kind, "photo");
    }
}
