//! The database going away under load (issue 8), on PostgreSQL: every answer
//! is a 201 or a 503 problem with `Retry-After` within a bounded time (no 500,
//! no hang), `/readyz` fails while it is away, nothing is half-written, and
//! the service recovers by itself when it returns. On SQLite the embedded
//! store cannot go away like this; `jobs.rs` covers a closed store on both.

use crate::helpers::{api, job_body, spawn_app, trade, TestApp, TestKey};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest any answer may take while the database is away: the store's 3 s
/// wait for a connection, and slack for a loaded machine.
const BOUND: Duration = Duration::from_secs(8);

/// Submitters, each with a key of its own so that no per-key limit is hit.
const SUBMITTERS: usize = 4;

/// What one submitter saw: (status, job id of a 201).
type Seen = Vec<(u16, Option<String>)>;

/// Submits distinct consumers' jobs, about 30 a second, until `stop`.
async fn submit_until(app: Arc<TestApp>, key: TestKey, n: usize, stop: Arc<AtomicBool>) -> Seen {
    let mut seen = Vec::new();
    let mut pace = tokio::time::interval(Duration::from_millis(30));
    for i in 0.. {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        pace.tick().await;
        let mut body = job_body();
        body["email"] = format!("homeowner{n}x{i}@example.com").into();
        body["phone"] = format!("079{n:02}{i:06}").into();
        let started = Instant::now();
        let response = app.post_json(&key, "/jobs", &body, &[]).await;
        let took = started.elapsed();
        let status = response.status().as_u16();
        assert!(took < BOUND, "an answer took {took:?}");
        match status {
            201 => {
                let answer: serde_json::Value = response.json().await.unwrap();
                seen.push((201, answer["id"].as_str().map(str::to_owned)));
            }
            503 => {
                assert!(response.headers().contains_key("retry-after"));
                crate::helpers::problem(response, 503, &api("/jobs")).await;
                seen.push((503, None));
            }
            other => panic!("{other} while the database came and went"),
        }
    }
    seen
}

async fn ready(app: &TestApp) -> u16 {
    app.http
        .get(app.url("/readyz"))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_database_outage_under_load_answers_503_and_the_service_recovers_by_itself() {
    let app = spawn_app().await;
    if app.outage().is_none() {
        return;
    }
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    let app = Arc::new(app);
    let stop = Arc::new(AtomicBool::new(false));
    let mut submitters = Vec::new();
    for n in 0..SUBMITTERS {
        let key = app.staging_key().await;
        submitters.push(tokio::spawn(submit_until(
            app.clone(),
            key,
            n,
            stop.clone(),
        )));
    }
    let proxy = app.outage().unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    proxy.cut();
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        ready(&app).await,
        503,
        "readyz fails while the database is away"
    );
    proxy.restore();
    let deadline = Instant::now() + Duration::from_secs(15);
    while ready(&app).await != 200 {
        assert!(Instant::now() < deadline, "the service did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::SeqCst);

    let mut seen = Seen::new();
    for submitter in submitters {
        let own = submitter.await.unwrap();
        assert_eq!(
            own.last().map(|(status, _)| *status),
            Some(201),
            "submissions succeed again after the outage"
        );
        seen.extend(own);
    }
    let created: Vec<&String> = seen.iter().filter_map(|(_, id)| id.as_ref()).collect();
    let refused = seen.iter().filter(|(status, _)| *status == 503).count();
    assert!(refused > 0, "some submissions met the outage");
    for id in &created {
        assert!(
            app.store.job(id).await.unwrap().is_some(),
            "201 job {id} is stored"
        );
    }
    let counts = app.counts().await;
    // A commit whose acknowledgement the outage swallowed may be stored
    // after a 503 (the client's retry with its Idempotency-Key makes that
    // safe); a job is never stored in part.
    assert!(counts.jobs as usize >= created.len());
    assert_eq!(
        counts.recipients, counts.jobs,
        "each job with its one recipient"
    );
}
