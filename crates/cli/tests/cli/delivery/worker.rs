//! `intake worker` delivering for a server that does not dispatch, and the
//! operator's `intake leads list | retry | webhook-secret`.

use super::{
    assert_signed, import_trades, job, leads, state_of, wait_for_leads, webhook_secret, Trade,
    Worker, FAST_DELIVERY,
};
use crate::helpers::{client, create_key, data_dir, intake, run_ok, Server};
use intake_test_support::webhooks::{Receiver, Reply};
use std::time::Duration;

const ACCEPTS: u64 = 111;
const FAILS: u64 = 112;
const GONE: u64 = 113;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn intake_worker_alone_delivers_and_leads_retry_revives_dead_and_gone_deliveries() {
    let (tmp, dir) = data_dir();
    let receiver = Receiver::start();
    receiver.always(FAILS, Reply::Status(500));
    receiver.always(GONE, Reply::Status(410));
    let trades = [
        Trade(ACCEPTS, "SW1A 2AA", 1335),
        Trade(FAILS, "SW1P 3BU", 1335),
        Trade(GONE, "SE1 7PB", 1335),
    ];
    import_trades(tmp.path(), &dir, &receiver, &trades);
    let key = create_key(&dir, "production");
    // A retry window of a moment, so the failing trade's lead dies quickly;
    // and a server that leaves the leads to the worker.
    let envs: Vec<(&str, &str)> = FAST_DELIVERY
        .iter()
        .copied()
        .chain([
            ("INTAKE_DELIVERY_RETRY_WINDOW_SECONDS", "2"),
            ("INTAKE_DELIVERY_RETRY_BASE_MILLIS", "100"),
            ("INTAKE_DISPATCHER", "false"),
        ])
        .collect();
    let server = Server::start(&dir, &["--environment", "production"], &envs);
    let body = serde_json::to_vec(&job(0)).unwrap();
    let created = client(&server, &key)
        .create_job_from_json(body, "worker-1")
        .await
        .unwrap();
    assert_eq!(created.created.trades.len(), 3);
    let rows = leads(&dir);
    assert_eq!(rows.len(), 3);
    assert!(rows
        .iter()
        .all(|row| row["state"] == "pending" && row["attempts"] == 0));

    // The same settings as the server: INTAKE_DISPATCHER=false is for `serve` only.
    let mut worker = Worker::start(&dir, &envs);
    let rows = wait_for_leads(
        &dir,
        "delivered, dead and gone",
        Duration::from_secs(60),
        |rows| {
            state_of(rows, ACCEPTS) == "delivered"
                && state_of(rows, FAILS) == "dead"
                && state_of(rows, GONE) == "gone"
        },
    );
    let dead = rows.iter().find(|row| row["companyId"] == FAILS).unwrap();
    assert!(
        dead["lastError"].as_str().unwrap().contains("500"),
        "{dead}"
    );
    let gone_id = rows.iter().find(|row| row["companyId"] == GONE).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // The receivers are fixed; the operator sends the leads again.
    receiver.always(FAILS, Reply::Status(204));
    receiver.always(GONE, Reply::Status(204));
    let retried = run_ok(&dir, &["leads", "retry", "--dead"]);
    assert_eq!(
        String::from_utf8_lossy(&retried.stdout),
        "1 delivery made pending again\n"
    );
    wait_for_leads(
        &dir,
        "the dead lead delivered",
        Duration::from_secs(30),
        |rows| state_of(rows, FAILS) == "delivered" && state_of(rows, GONE) == "gone",
    );
    let retried = run_ok(&dir, &["leads", "retry", &gone_id]);
    assert_eq!(
        String::from_utf8_lossy(&retried.stdout),
        "1 delivery made pending again\n"
    );
    wait_for_leads(
        &dir,
        "the gone lead delivered",
        Duration::from_secs(30),
        |rows| rows.iter().all(|row| row["state"] == "delivered"),
    );
    for request in receiver.received() {
        assert_signed(&request, &webhook_secret(&dir, request.company_id));
    }

    let table = String::from_utf8(run_ok(&dir, &["leads", "list"]).stdout).unwrap();
    let header = table.lines().next().unwrap();
    for column in [
        "ID",
        "JOB",
        "TRADE",
        "CHANNEL",
        "TARGET",
        "STATE",
        "ATTEMPTS",
        "NEXT ATTEMPT",
        "LAST ERROR",
    ] {
        assert!(header.contains(column), "{header}");
    }
    assert_eq!(table.lines().count(), 4, "{table}");
    assert!(
        table.contains(&gone_id) && table.contains(&receiver.hook_url(GONE)),
        "{table}"
    );

    assert_eq!(worker.terminate(), Some(0), "{}", worker.log());
    assert!(worker.log().contains("stopped"), "{}", worker.log());
    assert!(
        !server.log().contains("lead dispatcher started"),
        "INTAKE_DISPATCHER=false keeps serve from dispatching"
    );
}

#[test]
fn leads_commands_name_what_does_not_exist_and_change_nothing() {
    let (_tmp, dir) = data_dir();
    run_ok(&dir, &["keys", "list"]);
    let run = |args: &[&str]| {
        intake()
            .args(args)
            .arg("--data-dir")
            .arg(&dir)
            .output()
            .unwrap()
    };

    let unknown = run(&["leads", "retry", "no-such-delivery"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr)
        .contains("there is no delivery `no-such-delivery`"));
    let unknown = run(&["leads", "retry", "--job", "no-such-job"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("there is no job `no-such-job`"));
    let unknown = run(&["leads", "webhook-secret", "424242"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("there is no trade 424242"));
    assert_eq!(
        run(&["leads", "retry"]).status.code(),
        Some(2),
        "retry needs a choice"
    );
    assert_eq!(
        run(&["leads", "list", "--state", "lost"]).status.code(),
        Some(2),
        "an unknown state is a usage error"
    );
    let empty = run(&["leads", "list", "--json"]);
    assert!(empty.status.success());
    assert!(empty.stdout.is_empty());
}

#[test]
fn a_webhook_secret_is_stable_per_trade_and_different_between_trades() {
    let (tmp, dir) = data_dir();
    let receiver = Receiver::start();
    import_trades(
        tmp.path(),
        &dir,
        &receiver,
        &[Trade(7, "SW1A 2AA", 1335), Trade(8, "SW1A 2AA", 1335)],
    );
    let first = webhook_secret(&dir, 7);
    assert_eq!(webhook_secret(&dir, 7), first);
    assert_ne!(webhook_secret(&dir, 8), first);
    assert!(standardwebhooks::Webhook::new(&first).is_ok());
}
