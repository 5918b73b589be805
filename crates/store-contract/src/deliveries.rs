//! The delivery outbox: written with the job, claimed under a lease, finished
//! once, retried by operators.

use crate::fixtures::{directory, new_job};
use intake_core::delivery::{Backlog, Channel, Delivery, DeliveryFilter, DeliveryState, Outcome};
use intake_core::environment::Environment;
use intake_core::jobs::NewJob;
use intake_core::store::Store;
use std::time::Duration;
use time::OffsetDateTime;

const LEASE: Duration = Duration::from_secs(60);

fn job(id: &str, environment: Environment) -> NewJob {
    let mut job = new_job(id, &format!("k:key:{id}"), time::Duration::hours(1));
    job.environment = environment;
    job
}

fn all() -> DeliveryFilter {
    DeliveryFilter::default()
}

fn ids(deliveries: &[Delivery]) -> Vec<&str> {
    deliveries.iter().map(|d| d.id.as_str()).collect()
}

async fn states(store: &dyn Store, job_id: &str) -> Vec<(u64, String)> {
    let stored = store.job(job_id).await.unwrap().expect("the job is stored");
    stored
        .recipients
        .into_iter()
        .map(|r| (r.company_id, r.delivery_state))
        .collect()
}

/// A production job leaves one pending delivery per recipient and channel,
/// due at once; a staging job leaves none.
pub async fn a_production_job_leaves_one_delivery_per_recipient_and_channel(store: &dyn Store) {
    directory(store).await;
    let production = job("job-p", Environment::Production);
    store.create_job(&production).await.unwrap();
    store
        .create_job(&job("job-s", Environment::Staging))
        .await
        .unwrap();

    let found = store.deliveries(&all()).await.unwrap();
    let mut rows: Vec<_> = found
        .iter()
        .map(|d| {
            (
                d.id.as_str(),
                d.job_id.as_str(),
                d.company_id,
                d.channel,
                d.target.as_str(),
                d.state,
                d.attempts,
            )
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            (
                "job-p.3.webhook",
                "job-p",
                3,
                Channel::Webhook,
                "https://three.example/hook",
                DeliveryState::Pending,
                0
            ),
            (
                "job-p.7.email",
                "job-p",
                7,
                Channel::Email,
                "leads@seven.example",
                DeliveryState::Pending,
                0
            ),
            (
                "job-p.7.webhook",
                "job-p",
                7,
                Channel::Webhook,
                "https://example.com/hook",
                DeliveryState::Pending,
                0
            ),
        ]
    );
    for delivery in &found {
        assert_eq!(delivery.created_at, production.received_at);
        assert!(delivery.next_attempt_at <= OffsetDateTime::now_utc());
        assert_eq!(
            (delivery.last_error.as_deref(), delivery.delivered_at),
            (None, None)
        );
    }
    assert_eq!(
        states(store, "job-p").await,
        [(7, "pending".to_owned()), (3, "pending".to_owned())]
    );
    assert_eq!(
        states(store, "job-s").await,
        [(7, "not_sent".to_owned()), (3, "not_sent".to_owned())]
    );
    assert_eq!(store.counts().await.unwrap().deliveries, 3);
    let by_job = DeliveryFilter {
        job_id: Some("job-s".to_owned()),
        ..all()
    };
    assert!(store.deliveries(&by_job).await.unwrap().is_empty());
}

/// The backlog counts pending deliveries (claimed or not) and dates the
/// oldest; delivered, dead and gone ones leave it, and staging adds nothing.
pub async fn the_backlog_counts_pending_deliveries_and_dates_the_oldest(store: &dyn Store) {
    directory(store).await;
    assert_eq!(store.outbox_backlog().await.unwrap(), Backlog::default());
    let mut older = job("job-old", Environment::Production);
    older.received_at -= time::Duration::minutes(10);
    store.create_job(&older).await.unwrap();
    store
        .create_job(&job("job-new", Environment::Production))
        .await
        .unwrap();
    store
        .create_job(&job("job-s", Environment::Staging))
        .await
        .unwrap();
    let backlog = store.outbox_backlog().await.unwrap();
    assert_eq!(
        backlog.pending, 6,
        "three deliveries for each production job"
    );
    let oldest = backlog
        .oldest_created_at
        .expect("a pending delivery is dated");
    // Stored to the millisecond.
    assert!(
        (oldest - older.received_at).abs() < time::Duration::milliseconds(1),
        "{oldest} vs {}",
        older.received_at
    );

    // A claimed delivery is still pending; finished ones leave the backlog.
    let now = OffsetDateTime::now_utc();
    let claimed = store.claim_deliveries(now, LEASE, 10).await.unwrap();
    assert_eq!(store.outbox_backlog().await.unwrap().pending, 6);
    for delivery in claimed.iter().filter(|d| d.job_id == "job-old") {
        assert!(store
            .finish_delivery(&delivery.id, delivery.attempts, &Outcome::Delivered, now)
            .await
            .unwrap());
    }
    let backlog = store.outbox_backlog().await.unwrap();
    assert_eq!(backlog.pending, 3);
    let oldest = backlog.oldest_created_at.unwrap();
    assert!(
        oldest > older.received_at,
        "the older job's leads are delivered"
    );
}

/// A claimed delivery is not due for anyone until its lease ends; then it is
/// claimed again, with its attempts counted. The limit is respected.
pub async fn a_claim_holds_a_delivery_until_its_lease_ends(store: &dyn Store) {
    directory(store).await;
    store
        .create_job(&job("job-1", Environment::Production))
        .await
        .unwrap();
    let now = OffsetDateTime::now_utc();
    let first = store.claim_deliveries(now, LEASE, 2).await.unwrap();
    assert_eq!(first.len(), 2);
    assert!(first.iter().all(|d| d.attempts == 1));
    let second = store.claim_deliveries(now, LEASE, 10).await.unwrap();
    assert_eq!(second.len(), 1, "only the unclaimed one is due");
    assert!(!ids(&first).contains(&second[0].id.as_str()));
    assert!(store
        .claim_deliveries(now + Duration::from_secs(59), LEASE, 10)
        .await
        .unwrap()
        .is_empty());

    let again = store
        .claim_deliveries(now + Duration::from_secs(61), LEASE, 10)
        .await
        .unwrap();
    assert_eq!(again.len(), 3, "every lease ran out");
    assert!(again.iter().all(|d| d.attempts == 2));
}

/// Claims made at the same moment never share a delivery.
pub async fn concurrent_claims_never_share_a_delivery(store: &dyn Store) {
    directory(store).await;
    for n in 0..10 {
        store
            .create_job(&job(&format!("job-{n}"), Environment::Production))
            .await
            .unwrap();
    }
    let now = OffsetDateTime::now_utc();
    let claim = || store.claim_deliveries(now, LEASE, 4);
    let (a, b, c, d) = tokio::join!(claim(), claim(), claim(), claim());
    let mut claimed: Vec<String> = [a, b, c, d]
        .into_iter()
        .flat_map(|batch| batch.unwrap())
        .map(|d| d.id)
        .collect();
    let rest = store.claim_deliveries(now, LEASE, 100).await.unwrap();
    claimed.extend(rest.into_iter().map(|d| d.id));
    let count = claimed.len();
    claimed.sort();
    claimed.dedup();
    assert_eq!((count, claimed.len()), (30, 30));
}

/// Outcomes are recorded once: a retry moves the next attempt, delivery marks
/// the recipient delivered, and a dispatcher overtaken by a later claim
/// changes nothing.
pub async fn outcomes_apply_only_to_the_current_attempt(store: &dyn Store) {
    directory(store).await;
    store
        .create_job(&job("job-1", Environment::Production))
        .await
        .unwrap();
    let now = OffsetDateTime::now_utc();
    let claimed = store.claim_deliveries(now, LEASE, 10).await.unwrap();
    let by_id = |id: &str| claimed.iter().find(|d| d.id == id).unwrap().clone();
    let webhook = by_id("job-1.7.webhook");
    let email = by_id("job-1.7.email");
    let three = by_id("job-1.3.webhook");

    let later = now + Duration::from_secs(5);
    let retry = Outcome::Retry {
        at: later,
        error: "HTTP 500".to_owned(),
    };
    assert!(!store
        .finish_delivery(&webhook.id, 7, &retry, now)
        .await
        .unwrap());
    assert!(store
        .finish_delivery(&webhook.id, 1, &retry, now)
        .await
        .unwrap());
    let dead = Outcome::Dead {
        error: "HTTP 503".to_owned(),
    };
    assert!(store
        .finish_delivery(&three.id, 1, &dead, now)
        .await
        .unwrap());
    assert!(store
        .finish_delivery(&email.id, 1, &Outcome::Delivered, now)
        .await
        .unwrap());
    assert!(
        !store
            .finish_delivery(&email.id, 1, &Outcome::Delivered, now)
            .await
            .unwrap(),
        "a delivered delivery stays as it is"
    );

    let listed = store.deliveries(&all()).await.unwrap();
    let find = |id: &str| listed.iter().find(|d| d.id == id).unwrap();
    assert_eq!(find(&webhook.id).state, DeliveryState::Pending);
    assert_eq!(find(&webhook.id).last_error.as_deref(), Some("HTTP 500"));
    assert_eq!(
        (find(&webhook.id).next_attempt_at - later).whole_milliseconds(),
        0
    );
    assert_eq!(find(&three.id).state, DeliveryState::Dead);
    assert_eq!(find(&email.id).state, DeliveryState::Delivered);
    assert!(find(&email.id).delivered_at.is_some());
    assert_eq!(
        states(store, "job-1").await,
        [(7, "delivered".to_owned()), (3, "dead".to_owned())]
    );
    assert!(store
        .claim_deliveries(now + Duration::from_secs(4), LEASE, 10)
        .await
        .unwrap()
        .is_empty());
    let due = store.claim_deliveries(later, LEASE, 10).await.unwrap();
    assert_eq!(ids(&due), [webhook.id.as_str()]);
    assert_eq!(due[0].attempts, 2);
    let dead_only = DeliveryFilter {
        state: Some(DeliveryState::Dead),
        ..all()
    };
    assert_eq!(
        ids(&store.deliveries(&dead_only).await.unwrap()),
        [three.id.as_str()]
    );
}

/// A 410 marks the target gone: its other pending deliveries and those of
/// later jobs are gone at once, until an operator retries one.
pub async fn a_gone_target_takes_no_more_leads_until_retried(store: &dyn Store) {
    directory(store).await;
    for id in ["job-1", "job-2"] {
        store
            .create_job(&job(id, Environment::Production))
            .await
            .unwrap();
    }
    let now = OffsetDateTime::now_utc();
    let claimed = store.claim_deliveries(now, LEASE, 1).await.unwrap();
    let first = claimed.into_iter().next().unwrap();
    let gone = Outcome::Gone {
        error: "HTTP 410".to_owned(),
    };
    assert!(store
        .finish_delivery(&first.id, 1, &gone, now)
        .await
        .unwrap());
    let same_target = |d: &&Delivery| d.channel == first.channel && d.target == first.target;
    let listed = store.deliveries(&all()).await.unwrap();
    assert_eq!(listed.iter().filter(same_target).count(), 2);
    assert!(listed
        .iter()
        .filter(same_target)
        .all(|d| d.state == DeliveryState::Gone));

    store
        .create_job(&job("job-3", Environment::Production))
        .await
        .unwrap();
    let due = store.claim_deliveries(now, LEASE, 100).await.unwrap();
    assert!(due.iter().all(|d| !same_target(&d)));
    let third = store
        .deliveries(&DeliveryFilter {
            job_id: Some("job-3".to_owned()),
            ..all()
        })
        .await
        .unwrap();
    assert_eq!(
        third
            .iter()
            .filter(same_target)
            .map(|d| d.state)
            .collect::<Vec<_>>(),
        [DeliveryState::Gone]
    );

    let revived = store
        .retry_deliveries(
            &DeliveryFilter {
                ids: vec![first.id.clone()],
                ..all()
            },
            now,
        )
        .await
        .unwrap();
    assert_eq!(revived, 1);
    let again = store.claim_deliveries(now, LEASE, 100).await.unwrap();
    assert_eq!(ids(&again), [first.id.as_str()]);
    store
        .create_job(&job("job-4", Environment::Production))
        .await
        .unwrap();
    let fourth = store
        .deliveries(&DeliveryFilter {
            job_id: Some("job-4".to_owned()),
            ..all()
        })
        .await
        .unwrap();
    assert!(fourth.iter().all(|d| d.state == DeliveryState::Pending));
    assert_eq!(
        store
            .retry_deliveries(
                &DeliveryFilter {
                    state: Some(DeliveryState::Pending),
                    ..all()
                },
                now
            )
            .await
            .unwrap(),
        0,
        "only dead and gone deliveries are retried"
    );
}

/// A delivery's retry window runs from its creation; an operator's retry of
/// a dead lead starts it again from the retry, and only for that lead.
pub async fn a_retried_lead_gets_a_new_retry_window(store: &dyn Store) {
    directory(store).await;
    let created = job("job-1", Environment::Production);
    store.create_job(&created).await.unwrap();
    let now = OffsetDateTime::now_utc();
    let claimed = store.claim_deliveries(now, LEASE, 100).await.unwrap();
    assert!(claimed.len() >= 2);
    assert!(claimed.iter().all(|d| d.window_from == created.received_at));
    let dead = &claimed[0];
    let other = &claimed[1];
    let outcome = Outcome::Dead {
        error: "HTTP 500 for a day".to_owned(),
    };
    assert!(store
        .finish_delivery(&dead.id, dead.attempts, &outcome, now)
        .await
        .unwrap());

    // Whole milliseconds: both backends keep times to the millisecond or finer.
    let retried_at = (now + Duration::from_secs(3600))
        .replace_nanosecond(0)
        .unwrap();
    let revived = store
        .retry_deliveries(
            &DeliveryFilter {
                ids: vec![dead.id.clone()],
                ..all()
            },
            retried_at,
        )
        .await
        .unwrap();
    assert_eq!(revived, 1);
    let listed = store.deliveries(&all()).await.unwrap();
    let find = |id: &str| listed.iter().find(|d| d.id == id).unwrap();
    assert_eq!(find(&dead.id).window_from, retried_at);
    assert_eq!(find(&dead.id).created_at, created.received_at);
    assert_eq!(find(&other.id).window_from, created.received_at);
    let again = store
        .claim_deliveries(retried_at, LEASE, 100)
        .await
        .unwrap();
    let revived = again
        .iter()
        .find(|d| d.id == dead.id)
        .expect("claimed again");
    assert_eq!(revived.window_from, retried_at);
}
