//! Lead delivery in production, against a real webhook receiver and a real
//! SMTP sink: signatures, retries, 410, timeouts, per-trade limits, staging,
//! image links and e-mail.

use crate::helpers::{spawn_app_with, trade, TestApp, TestKey};
use intake_core::delivery::{DeliveryFilter, RetrySchedule};
use intake_core::jobs::{CreationSource, NewJob, NewRecipient};
use intake_core::{Environment, MasterKey};
use intake_delivery::{DeliveryConfig, Dispatcher};
use intake_server::ServerConfig;
use intake_test_support::webhooks::{Received, Receiver, Reply};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

mod email;
mod images;

/// Quick polling and retries, so the tests take milliseconds, not minutes.
fn quick_delivery() -> DeliveryConfig {
    DeliveryConfig {
        poll_interval: Duration::from_millis(50),
        timeout: Duration::from_millis(500),
        retry: RetrySchedule {
            base: Duration::from_millis(100),
            max_delay: Duration::from_millis(200),
            window: Duration::from_secs(3600),
        },
        shutdown_grace: Duration::from_secs(2),
        ..DeliveryConfig::default()
    }
}

async fn production_app(delivery: DeliveryConfig) -> (TestApp, TestKey) {
    let app = spawn_app_with(ServerConfig {
        environment: Environment::Production,
        delivery,
        ..ServerConfig::default()
    })
    .await;
    let key = app.key(Environment::Production, "").await;
    (app, key)
}

/// Imports while the dispatcher polls: the import must not fail because a
/// claim is being written at the same moment.
async fn import(app: &TestApp, records: Vec<intake_core::directory::TradeRecord>) {
    let tree = intake_core::categories::CategoryTree::embedded();
    let geography = intake_core::geography::Geography::embedded();
    let valid: Vec<_> = records
        .into_iter()
        .map(|r| r.validate(tree, geography).unwrap())
        .collect();
    app.store.import_trades(&valid).await.unwrap();
    app.state.refresh_directory().await.unwrap();
}

/// A boiler-repair trade near Westminster whose only channel is the receiver.
fn webhook_trade(company_id: u64, receiver: &Receiver) -> intake_core::directory::TradeRecord {
    let mut record = trade(company_id, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0);
    record.delivery = intake_core::directory::Delivery {
        webhook_url: Some(receiver.hook_url(company_id)),
        email: None,
    };
    record
}

/// Job number `n`: a different homeowner each time, so no spam signal fires.
fn job(n: usize) -> Value {
    const DAYS: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    const NAMES: [&str; 7] = ["Sam", "Alex", "Priya", "Tom", "Aisha", "Megan", "Owen"];
    json!({
        "description": format!("Boiler not working, no hot water since {}.", DAYS[n % 7]),
        "categoryId": 1335,
        "email": format!("{}.jones{n}@example.com", NAMES[n % 7].to_lowercase()),
        "phone": format!("0790000{n:04}"),
        "firstName": NAMES[n % 7],
        "lastName": "Jones",
        "postcode": "SW1A 1AA",
        "preferredStart": {"id": "URGENT", "date": "2026-12-01"},
        "address": {"line1": "1 Parliament Street", "city": "London", "postcode": "SW1A 1AA"}
    })
}

async fn create(app: &TestApp, key: &TestKey, body: &Value) -> String {
    let response = app.post_json(key, "/jobs", body, &[]).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    created["id"].as_str().unwrap().to_owned()
}

/// The recipients' delivery states of a job, by company id.
async fn states(app: &TestApp, key: &TestKey, job_id: &str) -> Vec<(u64, String)> {
    let view: Value = app
        .signed_get(key, &format!("/jobs/{job_id}"))
        .await
        .json()
        .await
        .unwrap();
    let mut states: Vec<(u64, String)> = view["recipients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["deliveryState"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    states.sort();
    states
}

/// Polls `GET /jobs/{id}` until the states are `expected` (up to 20 s).
async fn wait_for_states(app: &TestApp, key: &TestKey, job_id: &str, expected: &[(u64, &str)]) {
    let expected: Vec<(u64, String)> = expected
        .iter()
        .map(|(id, state)| (*id, (*state).to_owned()))
        .collect();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let now = states(app, key, job_id).await;
        if now == expected {
            return;
        }
        if tokio::time::Instant::now() >= deadline {
            let outbox = app.store.deliveries(&DeliveryFilter::default()).await;
            panic!("states stayed {now:?}, expected {expected:?}; outbox: {outbox:#?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn verify_signature(master: &MasterKey, received: &Received) {
    let secret = master.webhook_secret(received.company_id);
    standardwebhooks::Webhook::new(secret.expose())
        .unwrap()
        .verify(&received.body, &received.headers)
        .expect("a valid Standard Webhooks signature");
}

#[tokio::test]
async fn a_production_job_reaches_every_recipient_with_a_valid_standard_webhooks_signature() {
    let receiver = Receiver::start();
    let (app, key) = production_app(quick_delivery()).await;
    import(
        &app,
        (1..=3).map(|id| webhook_trade(id, &receiver)).collect(),
    )
    .await;
    let job_id = create(&app, &key, &job(1)).await;

    for company_id in 1..=3 {
        let received = receiver.wait_for(company_id, 1).await;
        let request = &received[0];
        verify_signature(&app.master, request);
        assert_eq!(request.header("content-type"), "application/json");
        let id = request.header("webhook-id");
        assert_eq!(id, format!("{job_id}.{company_id}.webhook"));
        let lead = request.json();
        assert_eq!(lead["id"], id);
        assert_eq!(
            lead,
            json!({
                "type": "lead.created",
                "id": id,
                "createdAt": lead["createdAt"],
                "trade": {"id": company_id, "name": format!("Trade {company_id}")},
                "job": {
                    "id": job_id,
                    "category": {"id": 1335, "name": lead["job"]["category"]["name"]},
                    "description": "Boiler not working, no hot water since Tuesday.",
                    "preferredStart": {"id": "URGENT", "label": "It's urgent (within 48 hours)", "date": "2026-12-01"},
                    "postcode": "SW1A 1AA",
                    "address": {"line1": "1 Parliament Street", "city": "London", "postcode": "SW1A 1AA"},
                    "consumer": {"firstName": "Alex", "lastName": "Jones", "email": "alex.jones1@example.com", "phone": "07900000001"},
                    "images": []
                }
            })
        );
        assert!(!lead["job"]["category"]["name"].as_str().unwrap().is_empty());
    }
    wait_for_states(
        &app,
        &key,
        &job_id,
        &[(1, "delivered"), (2, "delivered"), (3, "delivered")],
    )
    .await;
    assert_eq!(receiver.received().len(), 3, "each lead exactly once");
}

#[tokio::test]
async fn a_failed_attempt_is_retried_with_the_same_webhook_id() {
    let receiver = Receiver::start();
    receiver.script(7, &[Reply::Status(500)]);
    let (app, key) = production_app(quick_delivery()).await;
    import(&app, vec![webhook_trade(7, &receiver)]).await;
    let job_id = create(&app, &key, &job(2)).await;

    let received = receiver.wait_for(7, 2).await;
    assert_eq!(
        received[0].header("webhook-id"),
        received[1].header("webhook-id")
    );
    assert_eq!(received[0].json()["id"], received[1].json()["id"]);
    for request in &received {
        verify_signature(&app.master, request);
    }
    wait_for_states(&app, &key, &job_id, &[(7, "delivered")]).await;
    let deliveries = app
        .store
        .deliveries(&DeliveryFilter {
            job_id: Some(job_id),
            ..DeliveryFilter::default()
        })
        .await
        .unwrap();
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].attempts, 2);
}

#[tokio::test]
async fn a_receiver_that_does_not_answer_in_time_gets_the_lead_again() {
    let receiver = Receiver::start();
    receiver.script(8, &[Reply::After(Duration::from_secs(3), 200)]);
    let (app, key) = production_app(quick_delivery()).await;
    import(&app, vec![webhook_trade(8, &receiver)]).await;
    let job_id = create(&app, &key, &job(3)).await;

    let received = receiver.wait_for(8, 2).await;
    assert_eq!(
        received[0].header("webhook-id"),
        received[1].header("webhook-id")
    );
    wait_for_states(&app, &key, &job_id, &[(8, "delivered")]).await;
    let deliveries = app
        .store
        .deliveries(&DeliveryFilter::default())
        .await
        .unwrap();
    assert_eq!(deliveries[0].attempts, 2);
}

#[tokio::test]
async fn a_410_marks_the_trade_gone_and_later_jobs_skip_it() {
    let receiver = Receiver::start();
    receiver.always(11, Reply::Status(410));
    let (app, key) = production_app(quick_delivery()).await;
    import(
        &app,
        vec![webhook_trade(11, &receiver), webhook_trade(12, &receiver)],
    )
    .await;
    let first = create(&app, &key, &job(4)).await;
    wait_for_states(&app, &key, &first, &[(11, "gone"), (12, "delivered")]).await;

    let second = create(&app, &key, &job(5)).await;
    wait_for_states(&app, &key, &second, &[(11, "gone"), (12, "delivered")]).await;
    assert_eq!(receiver.received_by(11).len(), 1, "no lead after the 410");
    assert_eq!(receiver.received_by(12).len(), 2);
}

#[tokio::test]
async fn deliveries_to_one_trade_respect_its_concurrency_limit() {
    let receiver = Receiver::start();
    receiver.always(21, Reply::After(Duration::from_millis(500), 200));
    let (app, key) = production_app(DeliveryConfig {
        per_trade_concurrency: 2,
        // Well over the receiver's 500 ms, so every send succeeds first time.
        timeout: Duration::from_secs(10),
        ..quick_delivery()
    })
    .await;
    import(&app, vec![webhook_trade(21, &receiver)]).await;
    let mut jobs = Vec::new();
    for n in 0..6 {
        jobs.push(create(&app, &key, &job(10 + n)).await);
    }
    receiver.wait_for(21, 6).await;
    assert_eq!(receiver.max_in_flight(21), 2);
    for job_id in &jobs {
        wait_for_states(&app, &key, job_id, &[(21, "delivered")]).await;
    }
}

#[tokio::test]
async fn staging_sends_nothing_even_with_a_dispatcher_running_over_its_store() {
    let receiver = Receiver::start();
    let app = spawn_app_with(ServerConfig::default()).await;
    let key = app.staging_key().await;
    import(&app, vec![webhook_trade(31, &receiver)]).await;
    let staging_job = create(&app, &key, &job(20)).await;

    // A dispatcher over the same store, as `intake worker` would run, and a
    // production job behind the staging one: once the production lead
    // arrives, the dispatcher has had its chance at the staging job.
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let dispatcher = Dispatcher::new(
        app.store.clone(),
        Arc::new(app.master.clone()),
        quick_delivery(),
    );
    let running = tokio::spawn(dispatcher.run_until(async move {
        let _ = stopped.await;
    }));
    let control = production_job(&app, 31).await;
    let received = receiver.wait_for(31, 1).await;
    assert_eq!(received[0].json()["job"]["id"], control);

    stop.send(()).unwrap();
    running.await.unwrap();
    assert_eq!(receiver.received().len(), 1, "only the production lead");
    assert_eq!(
        states(&app, &key, &staging_job).await,
        [(31, "not_sent".to_owned())]
    );
    let outbox = app
        .store
        .deliveries(&DeliveryFilter {
            job_id: Some(staging_job),
            ..DeliveryFilter::default()
        })
        .await
        .unwrap();
    assert!(outbox.is_empty());
}

/// A production job written straight to the store, for `company_id`.
async fn production_job(app: &TestApp, company_id: u64) -> String {
    let tree = intake_core::categories::CategoryTree::embedded();
    let id = uuid::Uuid::now_v7().to_string();
    let job = intake_core::jobs::validate(&job(21), tree).unwrap();
    let new = NewJob {
        id: id.clone(),
        environment: Environment::Production,
        key_id: "prd_control".into(),
        application: "Control".into(),
        creation_source: CreationSource::Api,
        request_id: String::new(),
        received_at: time::OffsetDateTime::now_utc(),
        fingerprint: intake_core::history::fingerprint(&job.description),
        job,
        recipients: vec![NewRecipient {
            company_id,
            name: format!("Trade {company_id}"),
            rank: 1,
        }],
        images: Vec::new(),
        idempotency: Vec::new(),
    };
    app.store.create_job(&new).await.unwrap();
    id
}

#[tokio::test]
async fn a_send_in_flight_when_the_server_stops_finishes_and_is_recorded() {
    let receiver = Receiver::start();
    receiver.always(71, Reply::After(Duration::from_millis(400), 200));
    let (mut app, key) = production_app(quick_delivery()).await;
    import(&app, vec![webhook_trade(71, &receiver)]).await;
    let job_id = create(&app, &key, &job(60)).await;
    receiver.wait_for(71, 1).await;

    app.begin_shutdown();
    app.finished.take().unwrap().await.unwrap().unwrap();
    let outbox = app
        .store
        .deliveries(&DeliveryFilter {
            job_id: Some(job_id),
            ..DeliveryFilter::default()
        })
        .await
        .unwrap();
    assert_eq!(
        outbox[0].state,
        intake_core::delivery::DeliveryState::Delivered
    );
    assert_eq!(receiver.received().len(), 1);
}
