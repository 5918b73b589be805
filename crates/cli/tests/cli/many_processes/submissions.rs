//! One submission spread over two processes makes one job: concurrent
//! requests under one `Idempotency-Key`, and the very same signed request
//! sent to both.

use super::Cluster;
use crate::delivery::job;
use intake_core::store::prelude::*;
use intake_store_postgres::PostgresStore;
use reqwest::header::RETRY_AFTER;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Requests sent to each server at once under one key.
const EACH: usize = 10;

/// One answer as it came.
#[derive(Debug)]
struct Answer {
    status: u16,
    replayed: bool,
    retry_after: Option<u64>,
    body: String,
}

impl Answer {
    async fn of(response: reqwest::Response) -> Answer {
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let replayed = header("idempotency-replayed").as_deref() == Some("true");
        let retry_after = header(RETRY_AFTER.as_str()).and_then(|value| value.parse().ok());
        Answer {
            status: response.status().as_u16(),
            replayed,
            retry_after,
            body: response.text().await.unwrap(),
        }
    }

    /// The job id of a 201.
    fn job_id(&self) -> String {
        assert_eq!(self.status, 201, "{self:?}");
        let created: serde_json::Value = serde_json::from_str(&self.body).unwrap();
        created["id"].as_str().unwrap().to_owned()
    }
}

/// Posts `body` under `idempotency_key` through `client`, signed afresh each
/// attempt. A 409 must carry `Retry-After` (the submission is in flight) and
/// is sent again after the wait it names. Returns the final answer and the
/// number of 409s on the way.
async fn submit(
    client: intake_client::Client,
    body: Vec<u8>,
    idempotency_key: &str,
) -> (Answer, u32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut in_flight = 0;
    loop {
        let mut request = client
            .signed_request(
                reqwest::Method::POST,
                "/jobs",
                Some(("application/json", body.clone())),
            )
            .unwrap();
        request
            .headers_mut()
            .insert("idempotency-key", idempotency_key.parse().unwrap());
        let answer = Answer::of(reqwest::Client::new().execute(request).await.unwrap()).await;
        if answer.status != 409 {
            return (answer, in_flight);
        }
        let wait = answer
            .retry_after
            .unwrap_or_else(|| panic!("a 409 without Retry-After: {answer:?}"));
        assert!(Instant::now() < deadline, "still in flight after 30 s");
        in_flight += 1;
        // The wait the service asked for, as a client must honour it.
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
}

async fn jobs_in(cluster: &Cluster) -> u64 {
    let store = PostgresStore::open(&cluster.database.url).await.unwrap();
    let jobs = store.counts().await.unwrap().jobs;
    store.close().await;
    jobs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_idempotency_key_sent_to_two_processes_at_once_makes_one_job_and_every_answer_names_it()
{
    let Some(cluster) = Cluster::start().await else {
        return;
    };
    let body = serde_json::to_vec(&job(0)).unwrap();
    let started = Instant::now();
    let mut requests = tokio::task::JoinSet::new();
    for n in 0..2 * EACH {
        let (client, body) = (cluster.client(n % 2), body.clone());
        requests.spawn(async move { submit(client, body, "spread-over-two").await });
    }
    let mut ids = HashSet::new();
    let (mut first_answers, mut in_flight) = (0, 0);
    while let Some(done) = requests.join_next().await {
        let (answer, waits) = done.unwrap();
        ids.insert(answer.job_id());
        first_answers += usize::from(!answer.replayed);
        in_flight += waits;
    }
    assert_eq!(ids.len(), 1, "every answer names the same job: {ids:?}");
    assert_eq!(
        first_answers, 1,
        "one answer made the job, the rest replay it"
    );
    assert_eq!(jobs_in(&cluster).await, 1, "one job in the store");
    eprintln!(
        "{} requests over two servers: one job, {in_flight} answered 409 in flight first, {:?}",
        2 * EACH,
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_signed_request_sent_to_two_processes_makes_one_job_and_the_second_answer_replays_the_first(
) {
    let Some(cluster) = Cluster::start().await else {
        return;
    };
    let http = reqwest::Client::new();
    // No Idempotency-Key: only the signature makes the two one submission.
    let signed_for_both = |n: usize| {
        let body = serde_json::to_vec(&job(n)).unwrap();
        let signed = cluster
            .client(0)
            .signed_request(
                reqwest::Method::POST,
                "/jobs",
                Some(("application/json", body)),
            )
            .unwrap();
        let mut copy = signed.try_clone().unwrap();
        let target = format!("{}{}", cluster.servers[1].base_url(), signed.url().path());
        *copy.url_mut() = target.parse().unwrap();
        (signed, copy)
    };

    // One after the other: the second server answers with the first's 201.
    let (to_a, to_b) = signed_for_both(1);
    let first = Answer::of(http.execute(to_a).await.unwrap()).await;
    let second = Answer::of(http.execute(to_b).await.unwrap()).await;
    assert_eq!(first.job_id(), second.job_id());
    assert!(!first.replayed && second.replayed, "{first:?} {second:?}");
    assert_eq!(second.body, first.body, "the first answer, byte for byte");
    assert_eq!(jobs_in(&cluster).await, 1);

    // At the same moment: still one job, both answers name it.
    let (to_a, to_b) = signed_for_both(2);
    let (a, b) = tokio::join!(http.execute(to_a), http.execute(to_b));
    let (a, b) = (Answer::of(a.unwrap()).await, Answer::of(b.unwrap()).await);
    assert_eq!(a.job_id(), b.job_id(), "{a:?} {b:?}");
    assert!(a.replayed != b.replayed, "exactly one replays: {a:?} {b:?}");
    assert_eq!(jobs_in(&cluster).await, 2, "one job per signed request");
}
