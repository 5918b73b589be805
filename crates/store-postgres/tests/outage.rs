//! The store while its database is away: every operation fails as
//! `Unavailable` within a few seconds (never hangs, never half-writes), and
//! works again by itself when the database is back. The outage is a cut
//! proxy (`intake_test_support::postgres::OutageProxy`), so the shared test server keeps running.

use intake_core::jobs::{CreateOutcome, CreationSource, NewJob, NewRecipient};
use intake_core::store::prelude::*;
use intake_core::{Environment, StoreError};
use intake_store_postgres::PostgresStore;
use intake_test_support::postgres::{OutageProxy, TestDatabase};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest an operation may take to fail while the database is away: the
/// pool's 3 s wait for a connection, and some slack for a loaded machine.
const BOUND: Duration = Duration::from_secs(6);

/// A production job with one recipient and no idempotency record.
fn new_production_job(id: &str) -> NewJob {
    let value = serde_json::json!({"categoryId": 1335, "description": "Boiler not working, no hot water",
        "email": "sam@example.com", "phone": "07900000000", "firstName": "Sam", "lastName": "Jones",
        "postcode": "SW1A 1AA"});
    let job =
        intake_core::jobs::validate(&value, intake_core::categories::CategoryTree::embedded())
            .expect("a valid job");
    NewJob {
        id: id.to_owned(),
        environment: Environment::Production,
        key_id: "prd_key".to_owned(),
        application: "Acme".to_owned(),
        creation_source: CreationSource::Api,
        request_id: format!("req-{id}"),
        received_at: time::OffsetDateTime::now_utc(),
        fingerprint: intake_core::history::fingerprint(&job.description),
        job,
        recipients: vec![NewRecipient {
            company_id: 7,
            name: "Seven".to_owned(),
            rank: 1,
        }],
        images: Vec::new(),
        idempotency: Vec::new(),
    }
}

#[tokio::test]
async fn an_outage_is_unavailable_within_seconds_writes_nothing_and_passes() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let proxy = OutageProxy::start(database.server_address()).await.unwrap();
    let store = PostgresStore::open(&proxy.url_through(&database.url))
        .await
        .unwrap();
    store
        .create_job(&new_production_job("before"))
        .await
        .unwrap();

    proxy.cut();
    for (n, operation) in ["ping", "create_job", "job", "claim"].iter().enumerate() {
        let started = Instant::now();
        let result = match *operation {
            "ping" => store.ping().await,
            "create_job" => store
                .create_job(&new_production_job(&format!("during-{n}")))
                .await
                .map(|_| ()),
            "job" => store.job("before").await.map(|_| ()),
            _ => store
                .claim_deliveries(time::OffsetDateTime::now_utc(), Duration::from_secs(60), 10)
                .await
                .map(|_| ()),
        };
        assert!(
            matches!(result, Err(StoreError::Unavailable(_))),
            "{operation}: {result:?}"
        );
        assert!(
            started.elapsed() < BOUND,
            "{operation} took {:?}",
            started.elapsed()
        );
    }

    proxy.restore();
    let deadline = Instant::now() + Duration::from_secs(10);
    while store.ping().await.is_err() {
        assert!(Instant::now() < deadline, "the store did not come back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    store
        .create_job(&new_production_job("after"))
        .await
        .unwrap();
    assert!(
        store.job("during-1").await.unwrap().is_none(),
        "nothing half-written"
    );
    assert_eq!(store.counts().await.unwrap().jobs, 2);
    store.close().await;
}

/// Group commit across outages: every job the store reported written is
/// stored, however the connection died under its batch. (A savepoint that
/// failed to start once made sqlx skip the batch's COMMIT silently.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_job_reported_written_survives_repeated_outages() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let proxy = OutageProxy::start(database.server_address()).await.unwrap();
    let store = Arc::new(
        PostgresStore::open(&proxy.url_through(&database.url))
            .await
            .unwrap(),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let mut submitters = Vec::new();
    for n in 0..12 {
        let (store, stop) = (store.clone(), stop.clone());
        submitters.push(tokio::spawn(async move {
            let mut written = Vec::new();
            for i in 0.. {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let id = format!("job-{n}-{i}");
                match store.create_job(&new_production_job(&id)).await {
                    Ok(CreateOutcome::Created) => written.push(id),
                    Ok(other) => panic!("{other:?}"),
                    Err(StoreError::Unavailable(_)) => {
                        tokio::time::sleep(Duration::from_millis(5)).await
                    }
                    Err(other) => panic!("{other:?}"),
                }
            }
            written
        }));
    }
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        proxy.cut();
        tokio::time::sleep(Duration::from_millis(250)).await;
        proxy.restore();
    }
    tokio::time::sleep(Duration::from_millis(250)).await;
    stop.store(true, Ordering::SeqCst);
    let mut written = Vec::new();
    for submitter in submitters {
        written.extend(submitter.await.unwrap());
    }
    assert!(!written.is_empty());
    let mut lost = Vec::new();
    for id in &written {
        if store.job(id).await.unwrap().is_none() {
            lost.push(id);
        }
    }
    assert!(lost.is_empty(), "reported written, not stored: {lost:?}");
    let counts = store.counts().await.unwrap();
    assert_eq!(counts.recipients, counts.jobs, "no job stored in part");
    store.close().await;
}
