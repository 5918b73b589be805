// The intake pipeline (intake_core::intake) on its own, without HTTP: a real
// store of the binary's backend, the standard spam screen and a directory
// loaded from the store. The HTTP tests check the adapters; these check that
// creating and verifying run the same steps and differ only where the mode
// says.

use crate::helpers::backend::TestStore;
use crate::helpers::{job_body, trade};
use intake_api::jobs::JobCreated;
use intake_core::directory::Directory;
use intake_core::intake::{
    Caller, Committed, Intake, IntakeSettings, Origin, Repeat, Stop, Submission, Submitted,
};
use intake_core::jobs::CreationSource;
use intake_core::{Environment, Store};
use intake_spam::SpamScreen;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

struct Bench {
    store: Arc<dyn Store>,
    intake: Intake,
    directory: Directory,
    caller: Caller,
    origin: Origin,
    _backend: TestStore,
    _dir: tempfile::TempDir,
}

/// A store holding two heating trades near SW1A 1AA, and its pipeline.
async fn bench() -> Bench {
    let dir = tempfile::tempdir().unwrap();
    let backend = TestStore::open(dir.path()).await;
    let store = backend.store();
    let tree = intake_core::categories::CategoryTree::embedded();
    let geography = intake_core::geography::Geography::embedded();
    let trades: Vec<_> = [
        trade(11, &[1335], "SW1A 2AA", Some(10.0), &[], 9.5),
        trade(12, &[1335], "SW1A 1AA", Some(5.0), &[], 9.0),
    ]
    .into_iter()
    .map(|t| t.validate(tree, geography).unwrap())
    .collect();
    store.import_trades(&trades).await.unwrap();
    let directory = Directory::load(store.as_ref()).await.unwrap();
    let intake = Intake::new(
        store.clone(),
        Arc::new(SpamScreen::standard(SpamScreen::DEFAULT_THRESHOLD)),
        IntakeSettings {
            max_recipients: 3,
            idempotency_ttl: Duration::from_secs(86_400),
            signature_ttl: Duration::from_secs(600),
            public_base_url: "https://trades.example/".into(),
        },
    );
    Bench {
        store,
        intake,
        directory,
        caller: Caller {
            key_id: "stg_pipeline".into(),
            application: "Pipeline".into(),
            environment: Environment::Staging,
        },
        origin: Origin {
            source: CreationSource::Api,
            request_id: "req-1".into(),
        },
        _backend: backend,
        _dir: dir,
    }
}

fn submission(key: &str, hash: &str) -> Submission {
    Submission {
        key_scope: Some(format!("k:stg_pipeline:{key}")),
        signature_scope: format!("s:stg_pipeline:{key}-signature"),
        request_hash: hash.repeat(64),
    }
}

/// A job the spam screen refuses: a link offer with no trade content.
fn spam_body() -> Value {
    let mut body = job_body();
    body["description"] =
        json!("CHEAP SEO!!! Visit http://cheap-links.example and buy backlinks now!!!");
    body
}

impl Bench {
    fn submitted(&self, body: Result<Value, String>) -> Submitted<'_, String> {
        Submitted {
            caller: &self.caller,
            origin: &self.origin,
            body,
        }
    }

    async fn create(&self, submission: &Submission, body: Result<Value, String>) -> Stopped {
        match self
            .intake
            .create(&self.directory, submission, self.submitted(body))
            .await
        {
            Ok(prepared) => Stopped::No(prepared.recipients().len()),
            Err(stop) => Stopped::Yes(kind(stop)),
        }
    }

    async fn verify(&self, body: Result<Value, String>) -> Stopped {
        match self
            .intake
            .verify(&self.directory, self.submitted(body))
            .await
        {
            Ok(verified) => Stopped::No(verified.recipients.len()),
            Err(stop) => Stopped::Yes(kind(stop)),
        }
    }

    async fn commit(&self, submission: &Submission, body: Value) -> Committed {
        let prepared = self
            .intake
            .create(&self.directory, submission, self.submitted(Ok(body)))
            .await
            .unwrap();
        self.intake.commit(prepared, Vec::new()).await.unwrap()
    }
}

/// What came of a submission, comparable across modes.
#[derive(Debug, PartialEq)]
enum Stopped {
    /// It passed, with this many recipients.
    No(usize),
    /// It stopped here.
    Yes(String),
}

fn kind(stop: Stop<String>) -> String {
    match stop {
        Stop::Repeat(Repeat::Replay(_)) => "replay".into(),
        Stop::Repeat(Repeat::Conflict { by_idempotency_key }) => {
            format!("conflict by key: {by_idempotency_key}")
        }
        Stop::Undecodable(error) => format!("undecodable: {error}"),
        Stop::Invalid(errors) => format!(
            "invalid: {}",
            errors
                .iter()
                .map(|e| e.field.clone())
                .collect::<Vec<_>>()
                .join(",")
        ),
        Stop::Spam(_) => "spam".into(),
        Stop::NoTrades {
            category_id,
            label,
            postcode,
        } => format!("no trades: {category_id} {label} {postcode}"),
        Stop::Store(error) => format!("store: {error}"),
    }
}

#[tokio::test]
async fn a_committed_job_is_stored_with_its_fingerprint_and_answered_best_first() {
    let bench = bench().await;
    let committed = bench.commit(&submission("a", "a"), job_body()).await;
    let Committed::Created {
        id,
        recipients,
        answer,
    } = committed
    else {
        panic!("expected a new job, got {committed:?}");
    };
    assert_eq!(recipients, 2);
    let answer: JobCreated = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer.id, id);
    let ids: Vec<u64> = answer.trades.iter().map(|t| t.id).collect();
    assert_eq!(ids.len(), 2);
    for trade in &answer.trades {
        assert_eq!(
            trade.profile_url,
            format!("https://trades.example/trades/{}", trade.id)
        );
    }
    let stored = bench.store.job(&id).await.unwrap().expect("stored");
    assert_eq!(
        stored.job.fingerprint,
        intake_core::history::fingerprint("Boiler not working, no hot water since Monday.")
    );
    assert_eq!(stored.job.key_id, "stg_pipeline");
    assert_eq!(stored.job.request_id, "req-1");
    assert_eq!(
        stored
            .recipients
            .iter()
            .map(|r| r.company_id)
            .collect::<Vec<_>>(),
        ids
    );
    // The answer is kept for repeats under both scopes.
    assert_eq!(bench.store.counts().await.unwrap().idempotency, 2);
}

#[tokio::test]
async fn a_repeat_gets_its_earlier_answer_whatever_it_holds() {
    let bench = bench().await;
    let first = submission("a", "a");
    bench.commit(&first, job_body()).await;
    // The same submission again, and again unreadable or invalid: the earlier answer each time.
    assert_eq!(
        bench.create(&first, Ok(job_body())).await,
        Stopped::Yes("replay".into())
    );
    assert_eq!(
        bench.create(&first, Err("not JSON".into())).await,
        Stopped::Yes("replay".into())
    );
    assert_eq!(
        bench.create(&first, Ok(json!({"categoryId": 1335}))).await,
        Stopped::Yes("replay".into())
    );
    // Another request under the same Idempotency-Key is a conflict.
    assert_eq!(
        bench.create(&submission("a", "b"), Ok(job_body())).await,
        Stopped::Yes("conflict by key: true".into())
    );
    let same_signature = Submission {
        key_scope: None,
        ..submission("a", "b")
    };
    assert_eq!(
        bench.create(&same_signature, Ok(job_body())).await,
        Stopped::Yes("conflict by key: false".into())
    );
    assert_eq!(bench.store.counts().await.unwrap().jobs, 1);
}

#[tokio::test]
async fn verify_refuses_exactly_what_create_refuses_and_writes_nothing() {
    let bench = bench().await;
    let mut unknown_category = job_body();
    unknown_category["categoryId"] = json!(99_999_999);
    let mut no_email = job_body();
    no_email.as_object_mut().unwrap().remove("email");
    let cases: Vec<Result<Value, String>> = vec![
        Err("The body is not valid JSON.".into()),
        Ok(json!([1, 2, 3])),
        Ok(unknown_category),
        Ok(no_email),
        Ok(spam_body()),
        Ok(job_body()),
    ];
    for (n, body) in cases.into_iter().enumerate() {
        let created = bench
            .create(&submission(&format!("case-{n}"), "c"), body.clone())
            .await;
        let verified = bench.verify(body).await;
        assert_eq!(created, verified, "case {n}");
    }
    let counts = bench.store.counts().await.unwrap();
    assert_eq!(
        (counts.jobs, counts.idempotency, counts.deliveries),
        (0, 0, 0),
        "neither preparing nor verifying writes a job"
    );
    // Creating kept the spam submission for review; verifying did not.
    let quarantined = bench.store.quarantined(true).await.unwrap();
    assert_eq!(quarantined.len(), 1);
    assert_eq!(quarantined[0].key_id, "stg_pipeline");
    assert_eq!(quarantined[0].request_id, "req-1");
    assert_eq!(
        serde_json::from_str::<Value>(&quarantined[0].submission).unwrap(),
        spam_body()
    );
}

#[tokio::test]
async fn a_job_no_trade_serves_is_refused_when_creating_and_reported_empty_when_verifying() {
    let bench = bench().await;
    let mut far_away = job_body();
    far_away["postcode"] = json!("KW15 1BX");
    assert_eq!(
        bench
            .create(&submission("far", "f"), Ok(far_away.clone()))
            .await,
        Stopped::Yes("no trades: 1335 Boiler Repairs / Servicing KW15 1BX".into())
    );
    assert_eq!(bench.verify(Ok(far_away)).await, Stopped::No(0));
}

#[tokio::test]
async fn a_concurrent_repeat_committed_first_makes_the_later_commit_answer_from_it() {
    let bench = bench().await;
    let first = submission("race", "r");
    // Both are prepared before either is written, as two processes would.
    let one = bench
        .intake
        .create(&bench.directory, &first, bench.submitted(Ok(job_body())))
        .await
        .unwrap();
    let two = bench
        .intake
        .create(&bench.directory, &first, bench.submitted(Ok(job_body())))
        .await
        .unwrap();
    let Committed::Created { answer, .. } = bench.intake.commit(one, Vec::new()).await.unwrap()
    else {
        panic!("the first commit writes the job");
    };
    match bench.intake.commit(two, Vec::new()).await.unwrap() {
        Committed::Repeat(Repeat::Replay(record)) => assert_eq!(record.body, answer),
        other => panic!("expected the first answer, got {other:?}"),
    }
    assert_eq!(bench.store.counts().await.unwrap().jobs, 1);
}
