//! Retention (`intake_server::retention`): a pass as of a controlled time
//! removes jobs older than their period with their photos in the image
//! store, and nothing younger; a served process runs passes on its own.

use crate::helpers::photos::jpeg;
use crate::helpers::{job_body, spawn_app_with, trade, TestApp, TestKey};
use intake_server::retention::{self, Purged, RetentionPolicy};
use intake_server::ServerConfig;
use std::time::Duration;
use time::OffsetDateTime;

/// A boiler-repair trade covering Westminster, a key, and a job with one
/// photo written through the API: its id.
async fn job_with_photo(config: ServerConfig) -> (TestApp, TestKey, String) {
    let app = spawn_app_with(config).await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    let outcome = app
        .client(&key)
        .create_job_with_images(
            serde_json::to_vec(&job_body()).unwrap(),
            vec![("boiler.jpg".to_owned(), jpeg(64, 48))],
            None,
        )
        .await
        .unwrap();
    assert_eq!(outcome.status, 201);
    (app, key, outcome.created.id)
}

#[tokio::test]
async fn a_pass_removes_a_job_with_its_photo_once_its_period_is_over() {
    // The served process's own passes are kept out of the way.
    let mut config = ServerConfig::default();
    config.retention.interval = Duration::from_secs(3600);
    let (app, _key, id) = job_with_photo(config).await;
    assert_eq!(app.stored_files().len(), 1);
    let policy = RetentionPolicy::default();
    let images = app.state.images.clone();
    let pass = |now| retention::pass(app.store.as_ref(), &images, &policy, now);

    let now = OffsetDateTime::now_utc();
    assert_eq!(pass(now).await.unwrap(), Purged::default());
    // A day on, the answers kept for repeats have expired; the job stays.
    let kept = pass(now + time::Duration::days(2)).await.unwrap();
    assert_eq!((kept.idempotency, kept.jobs, kept.photos), (2, 0, 0));
    let last_day = now + policy.jobs - time::Duration::hours(1);
    assert_eq!(pass(last_day).await.unwrap(), Purged::default());
    assert!(app.store.job(&id).await.unwrap().is_some());
    assert_eq!(app.stored_files().len(), 1);

    let over = pass(now + policy.jobs + time::Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!((over.jobs, over.photos), (1, 1));
    assert!(app.store.job(&id).await.unwrap().is_none());
    assert!(app.stored_files().is_empty(), "{:?}", app.stored_files());
    let counts = app.counts().await;
    assert_eq!(
        (counts.jobs, counts.recipients, counts.idempotency),
        (0, 0, 0)
    );
}

#[tokio::test]
async fn a_served_process_runs_retention_on_its_own() {
    let mut config = ServerConfig::default();
    config.retention.jobs = Duration::ZERO;
    config.retention.interval = Duration::from_millis(100);
    let (app, _key, id) = job_with_photo(config).await;
    let mut gone = false;
    for _ in 0..50 {
        if app.store.job(&id).await.unwrap().is_none() && app.stored_files().is_empty() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        gone,
        "the job and its photo are removed by the server's own task"
    );
}
