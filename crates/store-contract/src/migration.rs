//! What each backend's migration tests share: a directory as a store held
//! it before migration 0009, and what it must read back as after the
//! store's open carried it forward. Not part of the suite run on a fresh
//! store (the rows must be written before the store opens).

use intake_core::store::Store;

/// A trade as a store held it before migration 0009 (the search answer as
/// the specification's tables), in SQL both backends take: written by a test
/// after migrating a fresh database up to 0008, then carried forward by the
/// store's own open (see [`a_directory_from_before_0009_is_carried_forward`]).
pub const DIRECTORY_BEFORE_0009: &str = "\
INSERT INTO trades (company_id, company_name, logo_url, active, base_postcode, base_easting, base_northing, \
    radius_miles, districts, categories, webhook_url, email, review_score, total_reviews, card_json, updated_at) \
VALUES (42, 'Hudson Heating', NULL, TRUE, 'SW1A 1AA', 529090, 179645, 10, '', '10 1335', NULL, \
    'leads@hudson.example.com', 9, 1, '{\"companyId\":42,\"logoUrl\":null,\"reviewsSummary\":null}', \
    '2026-01-01T00:00:00Z');
INSERT INTO trade_reviews (company_id, review_id, title, review, score, reliability, tidiness, courtesy, \
    workmanship, postcode_district, verified, created_at) \
VALUES (42, 'r1', 'New boiler', 'Fitted in a day.', 9, 8, 9, 10, 9, 'BR1', TRUE, '2026-03-14T09:30:00Z');
INSERT INTO trade_images (company_id, image_id, position, url, thumbnail_url, caption, width, height) \
VALUES (42, 'img-1', 0, 'https://img.example.com/1.jpg', 'https://img.example.com/1_t.jpg', 'Finished', 1600, 1200);
";

/// After [`DIRECTORY_BEFORE_0009`] and the store's open: the rows are in the
/// new form and the stored card was rebuilt in the specification's shape.
pub async fn a_directory_from_before_0009_is_carried_forward(store: &dyn Store) {
    use intake_core::directory::record::{BreakdownRecord, ImageKind};
    let records = store.trade_records(&[42]).await.unwrap();
    let review = &records[0].reviews[0];
    assert_eq!(
        (
            review.title.as_deref(),
            review.body.as_deref(),
            review.location.as_deref()
        ),
        (Some("New boiler"), Some("Fitted in a day."), Some("BR1"))
    );
    let four: Vec<BreakdownRecord> = [
        ("Reliability", 8.0),
        ("Tidiness", 9.0),
        ("Courtesy", 10.0),
        ("Workmanship", 9.0),
    ]
    .into_iter()
    .map(|(label, value)| BreakdownRecord {
        label: label.to_owned(),
        value,
    })
    .collect();
    assert_eq!(review.breakdowns, four);
    let image = &records[0].images[0];
    assert_eq!(
        (
            image.album_id.as_deref(),
            image.kind,
            image.description.as_deref(),
            image.width
        ),
        (Some("work"), ImageKind::Photo, Some("Finished"), Some(1600))
    );
    let card = store.trade_cards(&[42]).await.unwrap();
    assert_eq!(card, [intake_core::directory::rows::card_json(&records[0])]);
    let card: serde_json::Value = serde_json::from_str(&card[0]).unwrap();
    assert_eq!(card["logoUrl"], intake_api::trades::PLACEHOLDER_LOGO_URL);
    assert_eq!(card["reviewsSummary"], "Rated 9 out of 10 from 1 review");
    assert_eq!(card["recentReviews"][0]["reviewedDate"], "2026-03-14");
}
