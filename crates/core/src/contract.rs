//! The backend contract: behaviour every [`Store`] must show, written once and
//! run by each backend crate's tests against a fresh store.

pub mod deliveries;
pub mod group_commit;
pub mod history;

pub use deliveries::*;
pub use group_commit::*;
pub use history::*;

use crate::environment::Environment;
use crate::keys::{KeyPolicy, NewKey};
use crate::secrets::MasterKey;
use crate::store::{Store, StoreError};
use time::OffsetDateTime;

/// A stored key reads back exactly as written, including its sealed secret and policy.
pub async fn a_key_reads_back_as_written(store: &dyn Store) {
    let master = MasterKey::generate();
    let new = NewKey::generate(
        "Acme",
        Environment::Staging,
        KeyPolicy::parse("(request-target) date digest"),
        &master,
    );
    store.insert_key(&new.key).await.unwrap();
    let found = store
        .find_key(&new.key.key_id)
        .await
        .unwrap()
        .expect("the key was stored");
    assert_eq!(found, new.key);
    assert_eq!(
        master.open(&found.key_id, &found.secret).unwrap(),
        new.secret
    );
    assert!(store.find_key("stg_nope").await.unwrap().is_none());
}

/// A second key with the same id is a conflict, and the first stays as it was.
pub async fn a_duplicate_key_id_is_a_conflict(store: &dyn Store) {
    let master = MasterKey::generate();
    let first = NewKey::generate(
        "First",
        Environment::Production,
        KeyPolicy::default(),
        &master,
    );
    store.insert_key(&first.key).await.unwrap();
    let mut second = NewKey::generate(
        "Second",
        Environment::Staging,
        KeyPolicy::default(),
        &master,
    )
    .key;
    second.key_id = first.key.key_id.clone();
    assert!(matches!(
        store.insert_key(&second).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.find_key(&first.key.key_id).await.unwrap().unwrap(),
        first.key
    );
}

/// Keys are listed oldest first; revoking marks one key once and only that key.
pub async fn revoking_marks_one_key_and_keeps_the_first_time(store: &dyn Store) {
    let master = MasterKey::generate();
    let mut a = NewKey::generate("A", Environment::Staging, KeyPolicy::default(), &master).key;
    let mut b = NewKey::generate("B", Environment::Production, KeyPolicy::default(), &master).key;
    a.created_at = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    b.created_at = OffsetDateTime::from_unix_timestamp(1_700_000_100).unwrap();
    store.insert_key(&b).await.unwrap();
    store.insert_key(&a).await.unwrap();
    let ids: Vec<_> = store
        .list_keys()
        .await
        .unwrap()
        .into_iter()
        .map(|k| k.key_id)
        .collect();
    assert_eq!(ids, [a.key_id.clone(), b.key_id.clone()]);

    let first_time = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    let revoked = store.revoke_key(&a.key_id, first_time).await.unwrap();
    assert_eq!(revoked.revoked_at, Some(first_time));
    let again = store
        .revoke_key(&a.key_id, first_time + time::Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(
        again.revoked_at,
        Some(first_time),
        "a second revoke keeps the first time"
    );
    assert!(!store
        .find_key(&a.key_id)
        .await
        .unwrap()
        .unwrap()
        .is_active());
    assert!(store
        .find_key(&b.key_id)
        .await
        .unwrap()
        .unwrap()
        .is_active());
    assert!(matches!(
        store.revoke_key("prd_missing", first_time).await,
        Err(StoreError::NotFound)
    ));
}

/// The store answers a ping.
pub async fn a_store_answers_a_ping(store: &dyn Store) {
    store.ping().await.unwrap();
}

/// A small valid trade for directory tests.
pub(crate) fn trade(company_id: u64, name: &str, reviews: usize) -> crate::directory::ValidTrade {
    use crate::directory::record::{FourScores, ImageKind, ImageRecord, ReviewRecord};
    let record = crate::directory::TradeRecord {
        company_id,
        company_name: name.to_owned(),
        logo_url: None,
        active: true,
        base_postcode: "sw1a 1aa".to_owned(),
        coverage: crate::directory::Coverage {
            radius_miles: Some(10.0),
            districts: vec!["bt1".to_owned()],
        },
        categories: vec![20, 1335],
        delivery: crate::directory::Delivery {
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
            crate::categories::CategoryTree::embedded(),
            crate::geography::Geography::embedded(),
        )
        .expect("the fixture is valid")
}

/// Imported trades come back in the index and as cards; a re-import replaces
/// a trade whole (its reviews too) and every import bumps the version.
pub async fn imported_trades_are_indexed_and_replaced_whole(store: &dyn Store) {
    let before = store.directory_version().await.unwrap();
    let first = [trade(7, "Seven Plumbing", 4), trade(3, "Three Heating", 0)];
    let summary = store.import_trades(&first).await.unwrap();
    assert_eq!((summary.inserted, summary.updated), (2, 0));
    let after_first = store.directory_version().await.unwrap();
    assert!(after_first > before);

    let index = store.directory().await.unwrap();
    assert_eq!(
        index,
        vec![first[1].indexed(), first[0].indexed()],
        "ordered by company id, as imported"
    );
    assert!(index[1].base.is_some());
    assert_eq!(index[1].districts, ["BT1"]);

    let cards = store.trade_cards(&[7, 99, 3]).await.unwrap();
    assert_eq!(
        cards,
        vec![first[0].card_json(), first[1].card_json()],
        "in the order asked, unknown skipped"
    );
    let card: serde_json::Value = serde_json::from_str(&cards[0]).unwrap();
    assert_eq!(card["totalReviews"], 4);
    assert_eq!(card["recentReviews"].as_array().unwrap().len(), 3);

    let summary = store
        .import_trades(&[trade(7, "Seven Plumbing & Gas", 1)])
        .await
        .unwrap();
    assert_eq!((summary.inserted, summary.updated), (0, 1));
    let card: serde_json::Value =
        serde_json::from_str(&store.trade_cards(&[7]).await.unwrap()[0]).unwrap();
    assert_eq!(
        (card["companyName"].as_str(), card["totalReviews"].as_u64()),
        (Some("Seven Plumbing & Gas"), Some(1))
    );
    assert!(store.directory_version().await.unwrap() > after_first);
}

/// A trade reads back exactly as validated at import, with every member the
/// search answer is made from (reviews oldest first, images in order), and
/// its stored card is the card of what reads back.
pub async fn stored_trades_read_back_as_imported(store: &dyn Store) {
    let trades = [trade(7, "Seven Plumbing", 4), trade(3, "Three Heating", 0)];
    store.import_trades(&trades).await.unwrap();
    let records = store.trade_records(&[3, 99, 7]).await.unwrap();
    assert_eq!(
        records,
        vec![trades[1].record.clone(), trades[0].record.clone()],
        "in the order asked, unknown skipped"
    );
    let review = &records[1].reviews[0];
    assert_eq!(review.location.as_deref(), Some("SW1A"));
    assert_eq!(review.trade_response.as_deref(), Some("Thank you!"));
    assert_eq!(review.breakdowns.len(), 4);
    assert_eq!(
        records[1].images[1].you_tube_id.as_deref(),
        Some("dQw4w9WgXcQ")
    );
    for record in &records {
        assert_eq!(
            store.trade_cards(&[record.company_id]).await.unwrap(),
            [crate::directory::rows::card_json(record)]
        );
    }
}

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
    use crate::directory::record::{BreakdownRecord, ImageKind};
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
    assert_eq!(card, [crate::directory::rows::card_json(&records[0])]);
    let card: serde_json::Value = serde_json::from_str(&card[0]).unwrap();
    assert_eq!(card["logoUrl"], intake_api::trades::PLACEHOLDER_LOGO_URL);
    assert_eq!(card["reviewsSummary"], "Rated 9 out of 10 from 1 review");
    assert_eq!(card["recentReviews"][0]["reviewedDate"], "2026-03-14");
}

/// An import that fails part-way writes nothing at all.
pub async fn a_failed_import_writes_nothing(store: &dyn Store) {
    store
        .import_trades(&[trade(1, "Existing", 2)])
        .await
        .unwrap();
    let version = store.directory_version().await.unwrap();
    let cards_before = store.trade_cards(&[1]).await.unwrap();
    // The same company twice in one import breaks the primary key at the end.
    let result = store
        .import_trades(&[
            trade(2, "Two", 1),
            trade(1, "Changed", 0),
            trade(2, "Two again", 0),
        ])
        .await;
    assert!(result.is_err());
    assert_eq!(store.directory().await.unwrap().len(), 1);
    assert_eq!(store.trade_cards(&[1]).await.unwrap(), cards_before);
    assert_eq!(store.directory_version().await.unwrap(), version);
}

/// The operator's category tree is kept and bumps the version.
pub async fn a_saved_category_tree_reads_back(store: &dyn Store) {
    assert_eq!(store.category_tree().await.unwrap(), None);
    let version = store.directory_version().await.unwrap();
    let json = r#"[{"id":1,"label":"Plumber","name":"plumber","subcategories":[],"noindex":false,"nofollow":false}]"#;
    store.save_category_tree(json).await.unwrap();
    assert_eq!(store.category_tree().await.unwrap().as_deref(), Some(json));
    assert!(store.directory_version().await.unwrap() > version);
}

/// A job for store tests, with one idempotency record of `scope`.
pub(crate) fn new_job(id: &str, scope: &str, expires_in: time::Duration) -> crate::jobs::NewJob {
    use crate::jobs::{CreationSource, IdempotencyRecord, JobImage, NewJob, NewRecipient};
    let value = serde_json::json!({"categoryId": 1335, "description": "Boiler not working, no hot water", "email": "sam@example.com",
        "phone": "07900000000", "firstName": "Sam", "lastName": "Jones", "postcode": "SW1A 1AA",
        "address": {"line1": "1 High St", "city": "London", "postcode": "SW1A 2AA"}, "preferredStart": {"id": "URGENT", "date": "2026-12-01"}});
    let job = crate::jobs::validate(&value, crate::categories::CategoryTree::embedded())
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
        fingerprint: crate::history::fingerprint(&job.description),
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

/// A job is written whole and reads back as written; a second job with the
/// same scope writes nothing and gets the first record.
pub async fn a_job_reads_back_whole_and_a_repeated_scope_writes_nothing(store: &dyn Store) {
    use crate::jobs::CreateOutcome;
    store
        .import_trades(&[trade(7, "Seven", 0), trade(3, "Three", 0)])
        .await
        .unwrap();
    let first = new_job("job-1", "k:prd_key:order-1", time::Duration::hours(24));
    assert_eq!(
        store.create_job(&first).await.unwrap(),
        CreateOutcome::Created
    );
    let stored = store.job("job-1").await.unwrap().expect("stored");
    assert_eq!(stored.job, first.clone_without_idempotency());
    let states: Vec<_> = stored
        .recipients
        .iter()
        .map(|r| (r.company_id, r.rank, r.delivery_state.as_str()))
        .collect();
    assert_eq!(states, [(7, 1, "pending"), (3, 2, "pending")]);

    let repeat = new_job("job-2", "k:prd_key:order-1", time::Duration::hours(24));
    match store.create_job(&repeat).await.unwrap() {
        CreateOutcome::Existing(record) => assert_eq!(record, first.idempotency[0]),
        other => panic!("expected the first record, got {other:?}"),
    }
    assert!(store.job("job-2").await.unwrap().is_none());
    let counts = store.counts().await.unwrap();
    assert_eq!(
        (
            counts.jobs,
            counts.recipients,
            counts.idempotency,
            counts.deliveries
        ),
        (1, 2, 1, 2)
    );
    let found = store
        .idempotency("k:prd_key:order-1", OffsetDateTime::now_utc())
        .await
        .unwrap();
    assert_eq!(found.as_ref(), Some(&first.idempotency[0]));
    let leads = store
        .recent_leads(
            &[7, 3, 99],
            OffsetDateTime::now_utc() - time::Duration::days(1),
        )
        .await
        .unwrap();
    assert_eq!(
        (leads.get(&7), leads.get(&3), leads.get(&99)),
        (Some(&1), Some(&1), None)
    );
}

/// An expired record no longer answers, and its scope can be used again.
pub async fn an_expired_idempotency_record_frees_its_scope(store: &dyn Store) {
    use crate::jobs::CreateOutcome;
    let old = new_job("job-old", "k:prd_key:reused", time::Duration::seconds(-1));
    assert_eq!(
        store.create_job(&old).await.unwrap(),
        CreateOutcome::Created
    );
    assert!(store
        .idempotency("k:prd_key:reused", OffsetDateTime::now_utc())
        .await
        .unwrap()
        .is_none());
    let new = new_job("job-new", "k:prd_key:reused", time::Duration::hours(1));
    assert_eq!(
        store.create_job(&new).await.unwrap(),
        CreateOutcome::Created
    );
    assert_eq!(store.counts().await.unwrap().jobs, 2);
    assert_eq!(
        store
            .purge_idempotency(OffsetDateTime::now_utc() + time::Duration::hours(2))
            .await
            .unwrap(),
        1
    );
}

/// A quarantined submission is kept, listed, and released once into a job.
pub async fn a_quarantined_submission_is_kept_and_released_once(store: &dyn Store) {
    use crate::jobs::{CreationSource, Quarantined};
    let entry = Quarantined {
        id: "q-1".to_owned(),
        environment: Environment::Staging,
        key_id: "stg_key".to_owned(),
        application: "Acme".to_owned(),
        creation_source: CreationSource::Api,
        request_id: "req-9".to_owned(),
        received_at: OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap(),
        submission: r#"{"description":"Visit www.spam.example"}"#.to_owned(),
        score: 1.25,
        reasons: r#"[{"signal":"link","weight":1.0,"detail":"www.spam.example"}]"#.to_owned(),
        released_job_id: None,
    };
    store.quarantine(&entry).await.unwrap();
    assert_eq!(store.quarantined(false).await.unwrap(), vec![entry.clone()]);

    let job = new_job("released-1", "unused", time::Duration::hours(1));
    let job = crate::jobs::NewJob {
        idempotency: Vec::new(),
        ..job
    };
    store.release("q-1", &job).await.unwrap();
    assert!(store.job("released-1").await.unwrap().is_some());
    assert!(store.quarantined(false).await.unwrap().is_empty());
    let all = store.quarantined(true).await.unwrap();
    assert_eq!(all[0].released_job_id.as_deref(), Some("released-1"));

    let again = crate::jobs::NewJob {
        id: "released-2".to_owned(),
        ..job
    };
    assert!(matches!(
        store.release("q-1", &again).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(
        store.job("released-2").await.unwrap().is_none(),
        "a refused release writes nothing"
    );
    assert!(matches!(
        store.release("q-missing", &again).await,
        Err(StoreError::NotFound)
    ));
}
