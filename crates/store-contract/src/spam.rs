//! Operators' spam decisions and stored text models.

use crate::fixtures::{decision, quarantined_at};
use intake_core::spam::{StoredSpamModel, Verdict};
use intake_core::{Store, StoreError};
use time::OffsetDateTime;

/// A confirmed submission leaves the review list, its decision reads back
/// as written, and an entry is decided on once only.
pub async fn a_submission_is_confirmed_as_spam_once(store: &dyn Store) {
    let at = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    let mut kept = quarantined_at("q-kept", at);
    kept.model_version = Some("abcdefabcdef".to_owned());
    store.quarantine(&kept).await.unwrap();
    store
        .quarantine(&quarantined_at("q-other", at + time::Duration::seconds(1)))
        .await
        .unwrap();
    assert_eq!(store.quarantined(false).await.unwrap()[0], kept);

    let confirmed = decision("q-kept", Verdict::Spam);
    store.confirm_spam(&confirmed).await.unwrap();
    let open: Vec<_> = store
        .quarantined(false)
        .await
        .unwrap()
        .into_iter()
        .map(|entry| entry.id)
        .collect();
    assert_eq!(open, ["q-other"]);
    let all = store.quarantined(true).await.unwrap();
    assert_eq!(all[0].decision, Some(Verdict::Spam));
    assert_eq!(all[0].model_version.as_deref(), Some("abcdefabcdef"));
    assert_eq!(all[1].decision, None);
    assert_eq!(
        store.spam_decisions().await.unwrap(),
        vec![confirmed.clone()]
    );

    assert!(matches!(
        store.confirm_spam(&confirmed).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store
            .confirm_spam(&decision("q-missing", Verdict::Spam))
            .await,
        Err(StoreError::NotFound)
    ));
    // A confirmed entry cannot be released any more.
    let job = crate::fixtures::new_job("released-1", "unused", time::Duration::hours(1));
    let job = intake_core::jobs::NewJob {
        idempotency: Vec::new(),
        ..job
    };
    assert!(matches!(
        store
            .release("q-kept", &job, &decision("q-kept", Verdict::Ham))
            .await,
        Err(StoreError::Conflict(_))
    ));
    assert!(store.job("released-1").await.unwrap().is_none());
    assert_eq!(store.spam_decisions().await.unwrap().len(), 1);
}

/// Decisions outlive their quarantine entries' retention, and go with them
/// when a person's submissions are erased.
pub async fn decisions_outlive_retention_and_go_with_an_erasure(store: &dyn Store) {
    let at = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    for id in ["q-old", "q-erased"] {
        store.quarantine(&quarantined_at(id, at)).await.unwrap();
        store
            .confirm_spam(&decision(id, Verdict::Spam))
            .await
            .unwrap();
    }
    store
        .delete_quarantined(&["q-erased".to_owned()])
        .await
        .unwrap();
    let left: Vec<_> = store
        .spam_decisions()
        .await
        .unwrap()
        .into_iter()
        .map(|d| d.quarantine_id)
        .collect();
    assert_eq!(left, ["q-old"]);
    assert_eq!(
        store
            .purge_quarantine(at + time::Duration::days(1), 100)
            .await
            .unwrap(),
        1
    );
    assert!(store.quarantined(true).await.unwrap().is_empty());
    assert_eq!(store.spam_decisions().await.unwrap().len(), 1);
}

/// The model stored last is the one answered, its version first; a version
/// is stored once.
pub async fn the_latest_stored_model_is_answered(store: &dyn Store) {
    assert_eq!(store.latest_spam_model().await.unwrap(), None);
    assert_eq!(store.latest_spam_model_version().await.unwrap(), None);
    let model = |version: &str, second: i64| StoredSpamModel {
        version: version.to_owned(),
        model: format!("{{\"v\":\"{version}\"}}"),
        report: "{}".to_owned(),
        created_at: OffsetDateTime::from_unix_timestamp(1_800_000_000 + second).unwrap(),
    };
    store
        .save_spam_model(&model("aaaaaaaaaaaa", 0))
        .await
        .unwrap();
    store
        .save_spam_model(&model("bbbbbbbbbbbb", 60))
        .await
        .unwrap();
    assert_eq!(
        store.latest_spam_model().await.unwrap(),
        Some(model("bbbbbbbbbbbb", 60))
    );
    assert_eq!(
        store.latest_spam_model_version().await.unwrap().as_deref(),
        Some("bbbbbbbbbbbb")
    );
    assert!(matches!(
        store.save_spam_model(&model("aaaaaaaaaaaa", 120)).await,
        Err(StoreError::Conflict(_))
    ));
}
