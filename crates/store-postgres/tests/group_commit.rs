//! Group commit on PostgreSQL: concurrent jobs are written together, a
//! scope shared by concurrent jobs makes exactly one job, and a job that
//! meets a held scope leaves none of its own behind.

use intake_core::jobs::{CreateOutcome, CreationSource, IdempotencyRecord, NewJob, NewRecipient};
use intake_core::{Environment, Store};
use intake_store_postgres::testing::TestDatabase;
use intake_store_postgres::PostgresStore;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

fn job(id: &str, scopes: &[&str]) -> NewJob {
    let value = serde_json::json!({"categoryId": 1335, "description": "Boiler not working, no hot water",
        "email": "sam@example.com", "phone": "07900000000", "firstName": "Sam", "lastName": "Jones",
        "postcode": "SW1A 1AA"});
    let now = OffsetDateTime::now_utc();
    NewJob {
        id: id.to_owned(),
        environment: Environment::Production,
        key_id: "prd_key".to_owned(),
        application: "Acme".to_owned(),
        creation_source: CreationSource::Api,
        request_id: format!("req-{id}"),
        received_at: now,
        job: intake_core::jobs::validate(&value, intake_core::categories::CategoryTree::embedded())
            .expect("a valid job"),
        recipients: vec![NewRecipient {
            company_id: 7,
            name: "Seven".to_owned(),
            rank: 1,
        }],
        images: Vec::new(),
        idempotency: scopes
            .iter()
            .map(|scope| IdempotencyRecord {
                scope: (*scope).to_owned(),
                request_hash: "hash".to_owned(),
                status: 201,
                body: format!("{{\"id\":\"{id}\"}}"),
                expires_at: now + Duration::hours(1),
            })
            .collect(),
    }
}

async fn fresh() -> Option<(Arc<PostgresStore>, TestDatabase)> {
    let database = TestDatabase::from_env().await?;
    let store = PostgresStore::open(&database.url).await.unwrap();
    Some((Arc::new(store), database))
}

/// Runs `jobs` concurrently; their outcomes in the same order.
async fn concurrently(store: &Arc<PostgresStore>, jobs: Vec<NewJob>) -> Vec<CreateOutcome> {
    let tasks: Vec<_> = jobs
        .into_iter()
        .map(|job| {
            let store = store.clone();
            tokio::spawn(async move { store.create_job(&job).await.unwrap() })
        })
        .collect();
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap());
    }
    outcomes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_jobs_with_their_own_scopes_are_all_written() {
    let Some((store, _database)) = fresh().await else {
        return;
    };
    let jobs = (0..200)
        .map(|n| {
            job(
                &format!("job-{n}"),
                &[&format!("k:a:{n}"), &format!("s:a:{n}")],
            )
        })
        .collect();
    let outcomes = concurrently(&store, jobs).await;
    assert!(outcomes.iter().all(|o| *o == CreateOutcome::Created));
    let counts = store.counts().await.unwrap();
    assert_eq!(
        (counts.jobs, counts.recipients, counts.idempotency),
        (200, 200, 400)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_jobs_sharing_a_scope_make_one_job() {
    let Some((store, _database)) = fresh().await else {
        return;
    };
    let jobs = (0..40)
        .map(|n| job(&format!("job-{n}"), &["k:a:same", &format!("s:a:{n}")]))
        .collect();
    let outcomes = concurrently(&store, jobs).await;
    let created: Vec<usize> = (0..40)
        .filter(|n| outcomes[*n] == CreateOutcome::Created)
        .collect();
    assert_eq!(created.len(), 1, "{outcomes:?}");
    let winner = format!("{{\"id\":\"job-{}\"}}", created[0]);
    for outcome in &outcomes {
        if let CreateOutcome::Existing(record) = outcome {
            assert_eq!(record.body, winner);
        }
    }
    let counts = store.counts().await.unwrap();
    assert_eq!(
        (counts.jobs, counts.idempotency),
        (1, 2),
        "the others left no scope behind"
    );
}

#[tokio::test]
async fn a_job_meeting_a_held_scope_leaves_its_free_scopes_free() {
    let Some((store, _database)) = fresh().await else {
        return;
    };
    store.create_job(&job("first", &["k:a:1"])).await.unwrap();
    let repeat = store
        .create_job(&job("second", &["k:a:1", "s:a:2"]))
        .await
        .unwrap();
    assert!(matches!(repeat, CreateOutcome::Existing(ref r) if r.body == "{\"id\":\"first\"}"));
    assert_eq!(
        store.create_job(&job("third", &["s:a:2"])).await.unwrap(),
        CreateOutcome::Created
    );
    assert_eq!(store.counts().await.unwrap().jobs, 2);
}
