//! Both servers' dispatchers claim from one outbox: every lead a 201 named
//! arrives, under one `webhook-id`, signed with the secret every process
//! derives from the shared master key, and no one else gets anything.

use super::{within, Cluster, OUTSIDERS, SERVING};
use crate::delivery::{assert_signed, by_webhook_id, job, Trade};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

/// Jobs submitted, spread evenly over the two servers.
const JOBS: usize = 20;

/// How long every lead may take to be delivered on a busy 2-core machine.
const DELIVERED_WITHIN: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_dispatchers_on_one_database_deliver_every_lead_once_to_its_recipients_and_nothing_to_anyone_else(
) {
    let Some(cluster) = Cluster::start().await else {
        return;
    };
    let started = Instant::now();
    let mut submissions = tokio::task::JoinSet::new();
    for n in 0..JOBS {
        let client = cluster.client(n % 2);
        submissions.spawn(async move {
            let body = serde_json::to_vec(&job(n)).unwrap();
            let key = intake_client::new_idempotency_key();
            client.create_job_from_json(body, &key).await
        });
    }
    let mut expected = BTreeSet::new();
    while let Some(done) = submissions.join_next().await {
        let outcome = done.unwrap().expect("every job is accepted");
        assert_eq!(outcome.created.trades.len(), 3, "three recipients each");
        for trade in &outcome.created.trades {
            expected.insert((outcome.created.id.clone(), trade.id));
        }
    }
    assert_eq!(expected.len(), 3 * JOBS);

    let mut rows = Vec::new();
    let took = within(DELIVERED_WITHIN, "every lead delivered", || {
        rows = cluster.leads();
        let done = rows.len() == expected.len() && rows.iter().all(|r| r["state"] == "delivered");
        async move { done }
    })
    .await;

    // The store holds exactly the 201s' recipients, each delivered.
    let stored: BTreeSet<(String, u64)> = rows
        .iter()
        .map(|row| {
            (
                row["jobId"].as_str().unwrap().to_owned(),
                row["companyId"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        stored, expected,
        "one delivery per recipient named in a 201"
    );

    // The receiver got every delivery, under its own id, to its own trade.
    let requests = cluster.receiver.received();
    let groups = by_webhook_id(&requests);
    let delivery_ids: HashSet<&str> = rows.iter().map(|row| row["id"].as_str().unwrap()).collect();
    let received_ids: HashSet<&str> = groups.keys().map(String::as_str).collect();
    assert_eq!(
        received_ids, delivery_ids,
        "no delivery lost, none invented"
    );
    let mut received = BTreeSet::new();
    for (id, copies) in &groups {
        let lead: Value = copies[0].json();
        assert_eq!(lead["id"], id.as_str());
        assert_eq!(
            lead["trade"]["id"], copies[0].company_id,
            "sent to its own trade's URL"
        );
        received.insert((
            lead["job"]["id"].as_str().unwrap().to_owned(),
            copies[0].company_id,
        ));
        for copy in &copies[1..] {
            assert_eq!(copy.company_id, copies[0].company_id, "repeat of {id}");
            assert_eq!(
                copy.body, copies[0].body,
                "a repeat of {id} is the same lead"
            );
        }
    }
    assert_eq!(received, expected, "every recipient got its lead");
    for Trade(outsider, ..) in &OUTSIDERS {
        assert!(
            requests.iter().all(|r| r.company_id != *outsider),
            "trade {outsider} was no recipient"
        );
    }

    // Both processes sign with the one secret per trade the operator hands out.
    let secrets: HashMap<u64, String> = SERVING
        .iter()
        .map(|Trade(id, ..)| {
            let output = cluster.cli(&["leads", "webhook-secret", &id.to_string()]);
            (
                *id,
                String::from_utf8(output.stdout).unwrap().trim().to_owned(),
            )
        })
        .collect();
    for request in &requests {
        assert_signed(request, &secrets[&request.company_id]);
    }

    // Both dispatchers took part, and each delivery was recorded once (a
    // sender whose lease ran out logs that its outcome was not recorded).
    let recorded = |server: &crate::helpers::Server| {
        let log = server.log();
        log.matches("lead delivered").count() - log.matches("outcome not recorded").count()
    };
    let mut sent = Vec::new();
    within(Duration::from_secs(5), "every delivery logged", || {
        sent = cluster.servers.iter().map(recorded).collect();
        let done = sent.iter().sum::<usize>() == expected.len();
        async move { done }
    })
    .await;
    assert!(
        sent.iter().all(|&n| n > 0),
        "leads sent by each server: {sent:?}"
    );
    let repeats = requests.len() - groups.len();
    eprintln!(
        "{} leads of {JOBS} jobs delivered {took:?} after the last 201 ({:?} in all); sent by each server: {sent:?}; {repeats} repeats",
        expected.len(),
        started.elapsed()
    );
}
