//! Exactly once in effect (issue 7): the server is SIGKILLed while leads are
//! being sent, restarted on the same data dir, and every lead a 201 named
//! still arrives, repeats keeping their `webhook-id` and body.

use super::{
    assert_signed, by_webhook_id, import_trades, job, wait_for_leads, webhook_secret, Trade,
    FAST_DELIVERY,
};
use crate::helpers::{client, create_key, data_dir, Server};
use intake_test_support::webhooks::Receiver;
use std::collections::{BTreeSet, HashSet};
use std::time::Duration;

/// Jobs submitted before the kill.
const JOBS: usize = 30;

/// Trades that can take the test jobs (boiler repairs within reach of SW1A 1AA).
const SERVING: [Trade; 6] = [
    Trade(101, "SW1A 2AA", 1335),
    Trade(102, "SW1P 3BU", 1335),
    Trade(103, "SE1 7PB", 1335),
    Trade(104, "W1D 3QF", 1335),
    Trade(105, "EC1A 1BB", 1335),
    Trade(106, "NW1 6XE", 1335),
];

/// Trades with webhooks at the same receiver that no test job can reach: a
/// gardener next door, boiler repairs in Edinburgh.
const OUTSIDERS: [Trade; 2] = [Trade(201, "SW1A 2AA", 5), Trade(301, "EH1 1AA", 1335)];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lead_a_201_named_arrives_after_a_sigkill_mid_dispatch_and_repeats_keep_their_webhook_id(
) {
    let (tmp, dir) = data_dir();
    // Slow answers, so that the kill lands while sends are in flight.
    let receiver = Receiver::with_delay(Duration::from_millis(200));
    let trades: Vec<Trade> = SERVING.into_iter().chain(OUTSIDERS).collect();
    import_trades(tmp.path(), &dir, &receiver, &trades);
    let key = create_key(&dir, "production");
    let production = ["--environment", "production"];
    let mut server = Server::start(&dir, &production, FAST_DELIVERY);

    let signed = client(&server, &key);
    let mut submissions = tokio::task::JoinSet::new();
    for n in 0..JOBS {
        let signed = signed.clone();
        submissions.spawn(async move {
            let body = serde_json::to_vec(&job(n)).unwrap();
            let key = intake_client::new_idempotency_key();
            signed.create_job_from_json(body, &key).await
        });
    }
    let mut expected = BTreeSet::new();
    let mut job_ids = Vec::new();
    while let Some(done) = submissions.join_next().await {
        let outcome = done.unwrap().expect("every job is accepted");
        assert_eq!(outcome.status, 201);
        assert!(!outcome.created.trades.is_empty());
        for trade in &outcome.created.trades {
            expected.insert((outcome.created.id.clone(), trade.id));
        }
        job_ids.push(outcome.created.id);
    }

    // Some leads answered, some in flight, the rest not yet sent.
    receiver.wait_blocking("leads in flight", Duration::from_secs(30), |r| {
        r.received().len() >= 20 && r.in_flight() > 0
    });
    server.child.kill().unwrap(); // SIGKILL: no shutdown, no grace
    server.child.wait().unwrap();
    let at_kill = receiver.received().len();
    assert!(
        at_kill < expected.len(),
        "the kill came after every lead was sent"
    );
    drop(server);

    let server = Server::start(&dir, &production, FAST_DELIVERY);
    let rows = wait_for_leads(
        &dir,
        "every lead delivered",
        Duration::from_secs(90),
        |rows| rows.len() >= expected.len() && rows.iter().all(|row| row["state"] == "delivered"),
    );

    // Nothing a 201 acknowledged is lost, and nothing else was made.
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
        "deliveries are exactly the 201s' recipients"
    );
    assert_eq!(
        rows.len(),
        expected.len(),
        "one webhook delivery per recipient"
    );
    let signed = client(&server, &key);
    for id in &job_ids {
        let view = signed.get_job(id).await.expect("the job survived the kill");
        let named: BTreeSet<u64> = view.recipients.iter().map(|r| r.id).collect();
        let sent: BTreeSet<u64> = expected
            .iter()
            .filter(|(job, _)| job == id)
            .map(|(_, trade)| *trade)
            .collect();
        assert_eq!(named, sent, "job {id}");
        assert!(view
            .recipients
            .iter()
            .all(|r| r.delivery_state == "delivered"));
    }

    // Every recipient got its lead, every repeat is the same message, and
    // no one else got anything.
    let requests = receiver.received();
    let groups = by_webhook_id(&requests);
    let delivery_ids: HashSet<&str> = rows.iter().map(|row| row["id"].as_str().unwrap()).collect();
    let received_ids: HashSet<&str> = groups.keys().map(String::as_str).collect();
    assert_eq!(
        received_ids, delivery_ids,
        "every delivery reached the receiver"
    );
    let mut received = BTreeSet::new();
    for (id, copies) in &groups {
        let first = copies[0];
        let lead = first.json();
        assert_eq!(lead["id"], id.as_str());
        assert_eq!(
            lead["trade"]["id"], first.company_id,
            "sent to its own trade's URL"
        );
        received.insert((
            lead["job"]["id"].as_str().unwrap().to_owned(),
            first.company_id,
        ));
        for copy in &copies[1..] {
            assert_eq!(copy.company_id, first.company_id, "repeat of {id}");
            assert_eq!(
                copy.body, first.body,
                "repeat of {id} carries the same lead"
            );
        }
    }
    assert_eq!(
        received, expected,
        "the receiver saw exactly the recipients"
    );
    for Trade(outsider, ..) in &OUTSIDERS {
        assert!(requests.iter().all(|r| r.company_id != *outsider));
    }
    let repeated = groups.values().filter(|copies| copies.len() > 1).count();
    assert!(
        repeated > 0,
        "the leads in flight at the kill were sent again"
    );

    let secrets: std::collections::HashMap<u64, String> = SERVING
        .iter()
        .map(|Trade(id, ..)| (*id, webhook_secret(&dir, *id)))
        .collect();
    for request in &requests {
        assert_signed(request, &secrets[&request.company_id]);
    }
    eprintln!(
        "{} leads, {} requests ({} at the kill), {repeated} sent more than once",
        expected.len(),
        requests.len(),
        at_kill
    );
}
