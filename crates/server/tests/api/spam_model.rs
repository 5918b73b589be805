//! A spam model trained with operators' decisions and stored in the store is
//! picked up by a running server (docs/spam.md, "Learning from operators"),
//! named in what it quarantines, and a broken one is refused.

use crate::helpers::{api, job_body, problem, spawn_app, trade};
use intake_core::spam::StoredSpamModel;
use intake_spam::{embedded_model, ModelOrigin, NaiveBayes};
use std::time::Duration;

/// A model that has learnt one new kind of spam: "glitter wizardry" offers.
fn learnt_model() -> NaiveBayes {
    let mut examples = Vec::new();
    for _ in 0..40 {
        examples.push((
            "glitter wizardry for your kitchen tap, sparkle guaranteed",
            true,
        ));
        examples.push(("kitchen tap dripping, needs a new washer", false));
    }
    NaiveBayes::train(&examples)
}

fn stored(model: &NaiveBayes, version: String, second: i64) -> StoredSpamModel {
    StoredSpamModel {
        version,
        model: model.to_json(),
        report: "{}".to_owned(),
        created_at: time::OffsetDateTime::now_utc() + time::Duration::seconds(second),
    }
}

#[tokio::test]
async fn a_stored_model_screens_the_next_job_and_is_named_in_the_quarantine() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    let mut body = job_body();
    body["description"] = "Glitter wizardry for the kitchen tap please".into();
    let embedded = embedded_model().version();
    assert_eq!(app.state.spam_model.current().version, embedded);
    assert_eq!(app.post_json(&key, "/jobs", &body, &[]).await.status(), 201);

    let model = learnt_model();
    app.store
        .save_spam_model(&stored(&model, model.version(), 0))
        .await
        .unwrap();
    assert!(app.state.refresh_spam_model().await.unwrap());
    assert!(!app.state.refresh_spam_model().await.unwrap(), "once only");
    body["description"] = "Glitter wizardry needed for my kitchen tap".into();
    let answer = problem(
        app.post_json(&key, "/jobs", &body, &[]).await,
        422,
        &api("/jobs"),
    )
    .await;
    assert_eq!(answer["detail"], "Job classified as spam");
    let kept = app.store.quarantined(false).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].model_version.as_deref(),
        Some(model.version().as_str())
    );
    assert!(
        kept[0]
            .reasons
            .contains(&format!("(model {})", model.version())),
        "{}",
        kept[0].reasons
    );
}

#[tokio::test]
async fn the_refresher_takes_a_new_model_and_refuses_one_that_does_not_match_its_version() {
    let app = spawn_app().await;
    let model = learnt_model();
    app.store
        .save_spam_model(&stored(&model, model.version(), 0))
        .await
        .unwrap();
    // The refresher runs every `directory_refresh` (3 s by default).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while app.state.spam_model.current().version != model.version() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the refresher never took the stored model"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(app.state.spam_model.current().origin, ModelOrigin::Stored);

    // Counts edited by hand no longer match their version: refused, the
    // model in use stays.
    let mut edited = learnt_model();
    edited.spam_documents += 1;
    app.store
        .save_spam_model(&stored(&edited, "0000000000ed".to_owned(), 60))
        .await
        .unwrap();
    assert!(!app.state.refresh_spam_model().await.unwrap());
    assert_eq!(app.state.spam_model.current().version, model.version());
}
