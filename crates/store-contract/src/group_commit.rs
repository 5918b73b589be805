//! Group commit: jobs submitted at once are written together (see
//! `intake_store_sql::group_commit`) and still behave one by one: each is written
//! whole or not at all, a scope shared by concurrent jobs makes exactly one
//! job, and a job that meets a held scope leaves nothing of its own behind.

use crate::fixtures::{new_job, trade};
use futures::future::join_all;
use intake_core::jobs::{CreateOutcome, IdempotencyRecord, NewJob};
use intake_core::store::Store;
use time::Duration;

/// `new_job` with more scopes, each with the job's answer.
fn job(id: &str, scopes: &[&str], expires_in: Duration) -> NewJob {
    let mut job = new_job(id, scopes[0], expires_in);
    let first = job.idempotency[0].clone();
    job.idempotency
        .extend(scopes[1..].iter().map(|scope| IdempotencyRecord {
            scope: (*scope).to_owned(),
            ..first.clone()
        }));
    job
}

/// Submits `jobs` at once (so that they queue for the writer together);
/// their outcomes in the same order.
async fn at_once(store: &dyn Store, jobs: &[NewJob]) -> Vec<CreateOutcome> {
    join_all(jobs.iter().map(|job| store.create_job(job)))
        .await
        .into_iter()
        .map(|outcome| outcome.expect("written"))
        .collect()
}

/// Many jobs at once, each with its own scopes, are all written whole.
pub async fn concurrent_jobs_with_their_own_scopes_are_all_written(store: &dyn Store) {
    store
        .import_trades(&[trade(7, "Seven", 0), trade(3, "Three", 0)])
        .await
        .unwrap();
    let jobs: Vec<NewJob> = (0..150)
        .map(|n| {
            job(
                &format!("job-{n}"),
                &[&format!("k:prd_key:{n}"), &format!("s:prd_key:{n}")],
                Duration::hours(1),
            )
        })
        .collect();
    let outcomes = at_once(store, &jobs).await;
    assert!(
        outcomes.iter().all(|o| *o == CreateOutcome::Created),
        "{outcomes:?}"
    );
    let counts = store.counts().await.unwrap();
    assert_eq!(
        (
            counts.jobs,
            counts.recipients,
            counts.idempotency,
            counts.deliveries
        ),
        (150, 300, 300, 300)
    );
    for n in [0, 77, 149] {
        let stored = store
            .job(&format!("job-{n}"))
            .await
            .unwrap()
            .expect("stored");
        assert_eq!(stored.job, jobs[n].clone_without_idempotency());
        assert_eq!(stored.recipients.len(), 2);
    }
}

/// Jobs at once that share a scope make one job; every other one gets the
/// winner's record and leaves none of its own scopes behind.
pub async fn concurrent_jobs_sharing_a_scope_make_one_job(store: &dyn Store) {
    let jobs: Vec<NewJob> = (0..40)
        .map(|n| {
            job(
                &format!("job-{n}"),
                &["k:prd_key:same", &format!("s:prd_key:{n}")],
                Duration::hours(1),
            )
        })
        .collect();
    let outcomes = at_once(store, &jobs).await;
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

/// A job that meets a held scope writes nothing, so its other scope stays
/// free for a later job.
pub async fn a_job_meeting_a_held_scope_leaves_its_free_scopes_free(store: &dyn Store) {
    let hour = Duration::hours(1);
    store
        .create_job(&job("first", &["k:prd_key:1"], hour))
        .await
        .unwrap();
    let repeat = store
        .create_job(&job("second", &["k:prd_key:1", "s:prd_key:2"], hour))
        .await
        .unwrap();
    assert!(
        matches!(repeat, CreateOutcome::Existing(ref r) if r.body == "{\"id\":\"first\"}"),
        "{repeat:?}"
    );
    assert_eq!(
        store
            .create_job(&job("third", &["s:prd_key:2"], hour))
            .await
            .unwrap(),
        CreateOutcome::Created
    );
    assert_eq!(store.counts().await.unwrap().jobs, 2);
}

/// One batch holding a repeat of a stored job, a job reusing an expired
/// scope and new jobs: the repeat gets the stored record and writes
/// nothing, the others are written.
pub async fn a_batch_mixes_repeats_expired_scopes_and_new_jobs(store: &dyn Store) {
    store
        .create_job(&job("held", &["k:prd_key:held"], Duration::hours(1)))
        .await
        .unwrap();
    store
        .create_job(&job("old", &["k:prd_key:expired"], Duration::seconds(-1)))
        .await
        .unwrap();
    let mut jobs = vec![
        job(
            "repeat",
            &["s:prd_key:repeat", "k:prd_key:held"],
            Duration::hours(1),
        ),
        job("reuse", &["k:prd_key:expired"], Duration::hours(1)),
    ];
    jobs.extend((0..10).map(|n| {
        job(
            &format!("new-{n}"),
            &[&format!("k:prd_key:new-{n}")],
            Duration::hours(1),
        )
    }));
    let outcomes = at_once(store, &jobs).await;
    assert!(
        matches!(&outcomes[0], CreateOutcome::Existing(r) if r.body == "{\"id\":\"held\"}"),
        "{:?}",
        outcomes[0]
    );
    assert!(
        outcomes[1..].iter().all(|o| *o == CreateOutcome::Created),
        "{outcomes:?}"
    );
    assert!(store.job("repeat").await.unwrap().is_none());
    assert!(store.job("reuse").await.unwrap().is_some());
    let counts = store.counts().await.unwrap();
    // held, old, reuse and ten new; the expired record was replaced.
    assert_eq!((counts.jobs, counts.idempotency), (13, 12));
    assert_eq!(
        store
            .idempotency("k:prd_key:expired", time::OffsetDateTime::now_utc())
            .await
            .unwrap()
            .map(|r| r.body),
        Some("{\"id\":\"reuse\"}".to_owned())
    );
}
