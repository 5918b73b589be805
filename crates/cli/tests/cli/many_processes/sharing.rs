//! What one process (or the operator's command) changes in the database, every
//! process acts on within the bounds docs/operations.md gives: a revoked key
//! within 2 s, an imported directory within the refresh interval.

use super::{within, Cluster};
use crate::delivery::{job, Trade};
use std::time::{Duration, Instant};

/// The bound issue 8 sets for a revocation to reach every process. A process
/// uses a key read at most a second earlier (docs/operations.md: within 2 s),
/// so the test waits for the refusal and asserts this as the outer limit.
const REVOCATION_BOUND: Duration = Duration::from_secs(5);

/// The documented bound: `directory_refresh_seconds` (the default, 3 s), after
/// which each process has seen a new directory version, and up to 2 s more to
/// reload the directory and answer on a busy 2-core machine.
const IMPORT_BOUND: Duration = Duration::from_secs(5);

/// Air conditioning repair: no trade of the initial directory does it.
const NEW_CATEGORY: u32 = 2023;

/// A trade imported while the servers run.
const NEWCOMER: Trade = Trade(701, "SW1A 2AA", NEW_CATEGORY);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_revoked_through_the_database_is_refused_by_both_processes_within_the_bound() {
    let Some(cluster) = Cluster::start().await else {
        return;
    };
    let clients = [cluster.client(0), cluster.client(1)];
    for client in &clients {
        client
            .preferred_start_options()
            .await
            .expect("the key works on both");
    }

    cluster.cli(&["keys", "revoke", &cluster.key_id]);
    let revoked = Instant::now();
    for (n, client) in clients.iter().enumerate() {
        within(REVOCATION_BOUND, &format!("server {n} refuses"), || async {
            match client.preferred_start_options().await {
                Ok(_) => false,
                Err(read) => {
                    assert_eq!(read.status(), Some(401), "server {n}: {read:?}");
                    true
                }
            }
        })
        .await;
        let body = serde_json::to_vec(&job(n)).unwrap();
        let write = client
            .create_job_from_json(body, &intake_client::new_idempotency_key())
            .await
            .unwrap_err();
        assert_eq!(write.status(), Some(401), "server {n}: {write:?}");
    }
    let took = revoked.elapsed();
    assert!(took < REVOCATION_BOUND, "refused by both after {took:?}");
    eprintln!("the revoked key was refused by both servers after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_import_reaches_the_matching_of_both_processes_within_the_refresh_interval() {
    let Some(cluster) = Cluster::start().await else {
        return;
    };
    let mut wanted = job(0);
    wanted["categoryId"] = NEW_CATEGORY.into();
    let wanted = serde_json::to_vec(&wanted).unwrap();
    let clients = [cluster.client(0), cluster.client(1)];
    let matched = |client: intake_client::Client, job: Vec<u8>| async move {
        let verified = client
            .verify_job_with_images(job, Vec::new())
            .await
            .unwrap();
        verified
            .found_trades
            .iter()
            .map(|trade| trade.company_id)
            .collect::<Vec<_>>()
    };
    for client in &clients {
        let found = matched(client.clone(), wanted.clone()).await;
        assert!(found.is_empty(), "no trade does this yet: {found:?}");
    }

    cluster.import(&[NEWCOMER]);
    let imported = Instant::now();
    let mut took = Vec::new();
    for (n, client) in clients.iter().enumerate() {
        let remaining = IMPORT_BOUND.saturating_sub(imported.elapsed());
        within(
            remaining,
            &format!("server {n} matching the new trade"),
            || {
                let found = matched(client.clone(), wanted.clone());
                async move { found.await.contains(&NEWCOMER.0) }
            },
        )
        .await;
        took.push(imported.elapsed());
    }
    eprintln!("both servers matched the imported trade after {took:?}");
}
