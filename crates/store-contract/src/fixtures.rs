//! What the contract tests write: a small valid trade and a job.

use intake_core::environment::Environment;
use time::OffsetDateTime;

/// A small valid trade for directory tests.
pub fn trade(company_id: u64, name: &str, reviews: usize) -> intake_core::directory::ValidTrade {
    use intake_core::directory::record::{FourScores, ImageKind, ImageRecord, ReviewRecord};
    let record = intake_core::directory::TradeRecord {
        company_id,
        company_name: name.to_owned(),
        logo_url: None,
        active: true,
        base_postcode: "sw1a 1aa".to_owned(),
        coverage: intake_core::directory::Coverage {
            radius_miles: Some(10.0),
            districts: vec!["bt1".to_owned()],
        },
        categories: vec![20, 1335],
        delivery: intake_core::directory::Delivery {
            webhook_url: Some("https://example.com/hook".to_owned()),
            email: None,
        },
        reviews: (0..reviews)
            .map(|n| ReviewRecord {
                id: format!("r{n}"),
                title: Some("Great job".to_owned()),
                body: Some("Fixed the leak quickly.".to_owned()),
                score: 9.0 + (n % 2) as f64,
                breakdowns: Vec::new(),
                breakdown: Some(FourScores {
                    reliability: 9,
                    tidiness: 10,
                    courtesy: 10,
                    workmanship: 9,
                }),
                location: None,
                postcode_district: Some("SW1A".to_owned()),
                verified: n % 2 == 0,
                created_at: format!("2026-0{}-01T10:00:00Z", 1 + n % 9),
                trade_response: (n == 0).then(|| "Thank you!".to_owned()),
            })
            .collect(),
        images: vec![
            ImageRecord {
                id: "img-1".to_owned(),
                album_id: None,
                kind: ImageKind::Photo,
                url: Some("https://example.com/1.jpg".to_owned()),
                thumbnail_url: Some("https://example.com/1_thumb.jpg".to_owned()),
                url_template: Some("https://example.com/1_{width}.jpg".to_owned()),
                description: Some("A new boiler".to_owned()),
                label: Some("After".to_owned()),
                title: None,
                date: Some("2026-02-03".to_owned()),
                you_tube_id: None,
                width: Some(1600),
                height: Some(1200),
            },
            ImageRecord {
                id: "video-1".to_owned(),
                album_id: Some("videos".to_owned()),
                kind: ImageKind::Youtube,
                url: None,
                thumbnail_url: None,
                url_template: None,
                description: None,
                label: None,
                title: Some("Start to finish".to_owned()),
                date: None,
                you_tube_id: Some("dQw4w9WgXcQ".to_owned()),
                width: None,
                height: None,
            },
        ],
    };
    record
        .validate(
            intake_core::categories::CategoryTree::embedded(),
            intake_core::geography::Geography::embedded(),
        )
        .expect("the fixture is valid")
}

/// A job for store tests, with one idempotency record of `scope`.
pub fn new_job(id: &str, scope: &str, expires_in: time::Duration) -> intake_core::jobs::NewJob {
    use intake_core::jobs::{CreationSource, IdempotencyRecord, JobImage, NewJob, NewRecipient};
    let value = serde_json::json!({"categoryId": 1335, "description": "Boiler not working, no hot water", "email": "sam@example.com",
        "phone": "07900000000", "firstName": "Sam", "lastName": "Jones", "postcode": "SW1A 1AA",
        "address": {"line1": "1 High St", "city": "London", "postcode": "SW1A 2AA"}, "preferredStart": {"id": "URGENT", "date": "2026-12-01"}});
    let job =
        intake_core::jobs::validate(&value, intake_core::categories::CategoryTree::embedded())
            .expect("a valid job");
    let now = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
    NewJob {
        id: id.to_owned(),
        environment: Environment::Production,
        key_id: "prd_key".to_owned(),
        application: "Acme".to_owned(),
        creation_source: CreationSource::ApiWithAttachments,
        request_id: "req-1".to_owned(),
        received_at: now,
        fingerprint: intake_core::history::fingerprint(&job.description),
        job,
        recipients: vec![
            NewRecipient {
                company_id: 7,
                name: "Seven".to_owned(),
                rank: 1,
            },
            NewRecipient {
                company_id: 3,
                name: "Three".to_owned(),
                rank: 2,
            },
        ],
        images: vec![JobImage {
            id: "img-1".to_owned(),
            object_key: "jobs/x/1.jpg".to_owned(),
            file_name: "boiler.jpg".to_owned(),
            content_type: "image/jpeg".to_owned(),
            width: 640,
            height: 480,
            bytes: 12345,
        }],
        idempotency: vec![IdempotencyRecord {
            scope: scope.to_owned(),
            request_hash: "hash".to_owned(),
            status: 201,
            body: format!("{{\"id\":\"{id}\"}}"),
            expires_at: now + expires_in,
        }],
    }
}

/// Trade 7 takes leads by webhook and e-mail, trade 3 by webhook only.
pub async fn directory(store: &dyn intake_core::store::Store) {
    let mut seven = trade(7, "Seven Plumbing", 0);
    seven.record.delivery.email = Some("leads@seven.example".to_owned());
    let mut three = trade(3, "Three Heating", 0);
    three.record.delivery.webhook_url = Some("https://three.example/hook".to_owned());
    store.import_trades(&[seven, three]).await.unwrap();
}

/// A production submission held in quarantine, received at `at`.
pub fn quarantined_at(id: &str, at: OffsetDateTime) -> intake_core::jobs::Quarantined {
    intake_core::jobs::Quarantined {
        id: id.to_owned(),
        environment: Environment::Production,
        key_id: "prd_key".to_owned(),
        application: "Acme".to_owned(),
        creation_source: intake_core::jobs::CreationSource::Api,
        request_id: format!("req-{id}"),
        received_at: at,
        submission: r#"{"description":"Visit www.spam.example"}"#.to_owned(),
        score: 1.5,
        reasons: "[]".to_owned(),
        released_job_id: None,
        model_version: None,
        decision: None,
    }
}

/// An operator's decision on quarantine entry `id`, made at a whole second
/// (so that it reads back equal on every backend).
pub fn decision(id: &str, verdict: intake_core::spam::Verdict) -> intake_core::spam::SpamDecision {
    intake_core::spam::SpamDecision {
        quarantine_id: id.to_owned(),
        verdict,
        description: "Visit www.spam.example or call [phone]".to_owned(),
        model_version: Some("0123456789ab".to_owned()),
        decided_at: OffsetDateTime::from_unix_timestamp(1_800_000_100).unwrap(),
    }
}
