//! Jobs: written whole, read back, answered once per idempotency scope;
//! quarantined submissions kept and released once.

use crate::fixtures::{new_job, trade};
use intake_core::environment::Environment;
use intake_core::store::{Store, StoreError};
use time::OffsetDateTime;

/// A job is written whole and reads back as written; a second job with the
/// same scope writes nothing and gets the first record.
pub async fn a_job_reads_back_whole_and_a_repeated_scope_writes_nothing(store: &dyn Store) {
    use intake_core::jobs::CreateOutcome;
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
    use intake_core::jobs::CreateOutcome;
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
    use intake_core::jobs::{CreationSource, Quarantined};
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
        model_version: Some("0123456789ab".to_owned()),
        decision: None,
    };
    store.quarantine(&entry).await.unwrap();
    assert_eq!(store.quarantined(false).await.unwrap(), vec![entry.clone()]);

    let job = new_job("released-1", "unused", time::Duration::hours(1));
    let job = intake_core::jobs::NewJob {
        idempotency: Vec::new(),
        ..job
    };
    let decision = crate::fixtures::decision("q-1", intake_core::spam::Verdict::Ham);
    store.release("q-1", &job, &decision).await.unwrap();
    assert!(store.job("released-1").await.unwrap().is_some());
    assert!(store.quarantined(false).await.unwrap().is_empty());
    let all = store.quarantined(true).await.unwrap();
    assert_eq!(all[0].released_job_id.as_deref(), Some("released-1"));
    assert_eq!(all[0].decision, Some(intake_core::spam::Verdict::Ham));
    assert_eq!(
        store.spam_decisions().await.unwrap(),
        vec![decision.clone()]
    );

    let again = intake_core::jobs::NewJob {
        id: "released-2".to_owned(),
        ..job
    };
    assert!(matches!(
        store.release("q-1", &again, &decision).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(
        store.job("released-2").await.unwrap().is_none(),
        "a refused release writes nothing"
    );
    assert!(matches!(
        store.release("q-missing", &again, &decision).await,
        Err(StoreError::NotFound)
    ));
}
