//! The backend contract of `Store::contact_history` (and of
//! `Store::earlier_answer_or_history`, which asks it together with the
//! idempotency records): what a consumer's earlier jobs tell the spam screen.
//! Every backend counts the same rows:
//!
//! - only jobs of the query's environment, received at or after `since`
//!   (the boundary itself counts);
//! - `by_email`: jobs whose e-mail equals the query's, ignoring ASCII case;
//! - `by_phone`: jobs whose phone equals the query's (both normalised by `Phone`);
//! - `same_text_other_keys`: jobs matching by e-mail or phone whose
//!   description fingerprint (`history::fingerprint`, stored when the job is
//!   written) equals the query's and whose key differs from the query's.

use intake_core::environment::Environment;
use intake_core::history::fingerprint;
use intake_core::history::{ContactHistory, HistoryQuery};
use intake_core::jobs::{CreationSource, IdempotencyRecord, NewJob, NewRecipient};
use intake_core::store::{EarlierOrHistory, LeadsQuery, Store};
use std::collections::HashMap;
use time::{Duration, OffsetDateTime};

const BOILER: &str = "Boiler not working, no hot water since Monday.";

/// A whole second, so that every backend stores the times exactly.
fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc().replace_nanosecond(0).unwrap()
}

/// One earlier job of a consumer, as the contract tests write them.
struct Earlier<'a> {
    id: &'a str,
    key_id: &'a str,
    environment: Environment,
    email: &'a str,
    phone: &'a str,
    description: &'a str,
    received_at: OffsetDateTime,
}

impl Earlier<'_> {
    fn new_job(&self) -> NewJob {
        let value = serde_json::json!({"categoryId": 1335, "description": self.description,
            "email": self.email, "phone": self.phone, "firstName": "Sam", "lastName": "Jones",
            "postcode": "SW1A 1AA"});
        let job =
            intake_core::jobs::validate(&value, intake_core::categories::CategoryTree::embedded())
                .expect("a valid job");
        NewJob {
            id: self.id.to_owned(),
            environment: self.environment,
            key_id: self.key_id.to_owned(),
            application: "Acme".to_owned(),
            creation_source: CreationSource::Api,
            request_id: format!("req-{}", self.id),
            received_at: self.received_at,
            fingerprint: intake_core::history::fingerprint(&job.description),
            job,
            recipients: vec![NewRecipient {
                company_id: 7,
                name: "Seven".to_owned(),
                rank: 1,
            }],
            images: Vec::new(),
            idempotency: Vec::new(),
        }
    }
}

/// Writes each job, as the server does, one at a time.
async fn write(store: &dyn Store, jobs: &[Earlier<'_>]) {
    for earlier in jobs {
        store.create_job(&earlier.new_job()).await.unwrap();
    }
}

/// Sam's boiler job in staging, as `key_id` sent it at `received_at`.
fn sam<'a>(id: &'a str, key_id: &'a str, received_at: OffsetDateTime) -> Earlier<'a> {
    Earlier {
        id,
        key_id,
        environment: Environment::Staging,
        email: "sam.jones@example.com",
        phone: "07900000000",
        description: BOILER,
        received_at,
    }
}

fn query(key_id: &str, environment: Environment, since: OffsetDateTime) -> HistoryQuery {
    HistoryQuery {
        email: "sam.jones@example.com".to_owned(),
        phone: "07900000000".to_owned(),
        fingerprint: fingerprint(BOILER),
        key_id: key_id.to_owned(),
        environment,
        since,
    }
}

/// A consumer the store has never seen has an empty history.
pub async fn a_new_consumer_has_no_contact_history(store: &dyn Store) {
    let history = store
        .contact_history(&query(
            "stg_a",
            Environment::Staging,
            now() - Duration::hours(1),
        ))
        .await
        .unwrap();
    assert_eq!(history, ContactHistory::default());
}

/// Jobs are counted by e-mail (any ASCII case) and by phone separately, from
/// `since` on: a job received exactly at `since` counts, one a millisecond
/// earlier does not.
pub async fn contact_history_counts_by_email_and_by_phone_from_the_window_start(store: &dyn Store) {
    let now = now();
    let since = now - Duration::hours(1);
    write(
        store,
        &[
            // Same e-mail and phone: counts in both.
            sam("h-both", "stg_a", now - Duration::minutes(10)),
            // Same e-mail in another case, another phone: e-mail only.
            Earlier {
                email: "Sam.Jones@EXAMPLE.com",
                phone: "07911111111",
                description: "Garden fence blown down in the storm, three panels.",
                ..sam("h-email", "stg_a", now - Duration::minutes(5))
            },
            // Another e-mail, same phone: phone only.
            Earlier {
                email: "partner@example.com",
                ..sam("h-phone", "stg_b", now - Duration::minutes(1))
            },
            // Exactly at the window start: counts.
            sam("h-boundary", "stg_a", since),
            // A millisecond before the window: does not count.
            sam("h-before", "stg_a", since - Duration::milliseconds(1)),
            // Someone else entirely.
            Earlier {
                email: "alex@example.org",
                phone: "07922222222",
                ..sam("h-other", "stg_b", now - Duration::minutes(2))
            },
        ],
    )
    .await;
    let history = store
        .contact_history(&query("stg_a", Environment::Staging, since))
        .await
        .unwrap();
    assert_eq!((history.by_email, history.by_phone), (3, 3), "{history:?}");
}

/// The same description (fingerprint: case and punctuation ignored) from the
/// same consumer (by e-mail or by phone) counts as a repeat only when it came
/// through another key, within the window.
pub async fn contact_history_counts_the_same_text_only_through_other_keys(store: &dyn Store) {
    let now = now();
    let since = now - Duration::hours(1);
    write(
        store,
        &[
            // The same key again: a retry, not counted as a repeat.
            sam("r-same-key", "stg_a", now - Duration::minutes(30)),
            // Another key, same e-mail and phone: counted.
            sam("r-other-key", "stg_b", now - Duration::minutes(20)),
            // Another key, retyped: same fingerprint, counted.
            Earlier {
                description: "BOILER not working -- no hot water since monday!!",
                ..sam("r-retyped", "stg_c", now - Duration::minutes(15))
            },
            // Another key, matching by phone only: counted.
            Earlier {
                email: "s.jones@example.net",
                ..sam("r-by-phone", "stg_b", now - Duration::minutes(10))
            },
            // Another key, another description: not a repeat.
            Earlier {
                description: "Kitchen tap dripping constantly, washer worn.",
                ..sam("r-other-text", "stg_b", now - Duration::minutes(5))
            },
            // Another key, same text, another consumer: not this consumer's.
            Earlier {
                email: "alex@example.org",
                phone: "07922222222",
                ..sam("r-other-consumer", "stg_b", now - Duration::minutes(4))
            },
            // Another key, same text, before the window: not counted.
            sam("r-old", "stg_b", since - Duration::minutes(1)),
        ],
    )
    .await;
    let history = store
        .contact_history(&query("stg_a", Environment::Staging, since))
        .await
        .unwrap();
    assert_eq!(
        history,
        ContactHistory {
            by_email: 4,
            by_phone: 5,
            same_text_other_keys: 3,
        }
    );
    let from_b = store
        .contact_history(&query("stg_b", Environment::Staging, since))
        .await
        .unwrap();
    assert_eq!(
        from_b.same_text_other_keys, 2,
        "from stg_b, the jobs of stg_a and stg_c are the repeats"
    );
}

/// Jobs of the other environment never count: a staging test does not weigh
/// on a live submission of the same consumer.
pub async fn contact_history_ignores_the_other_environment(store: &dyn Store) {
    let now = now();
    let since = now - Duration::hours(1);
    write(store, &[sam("e-test", "stg_a", now - Duration::minutes(5))]).await;
    let live = store
        .contact_history(&query("prd_a", Environment::Production, since))
        .await
        .unwrap();
    assert_eq!(live, ContactHistory::default());
    let staging = store
        .contact_history(&query("stg_b", Environment::Staging, since))
        .await
        .unwrap();
    assert_eq!(
        staging,
        ContactHistory {
            by_email: 1,
            by_phone: 1,
            same_text_other_keys: 1,
        }
    );
}

/// `Store::earlier_answer_or_history` over `scopes`, for Sam in staging,
/// with the leads of trades 7 and 3 over the last day.
async fn earlier_or_history(store: &dyn Store, scopes: &[&str]) -> EarlierOrHistory {
    let scopes: Vec<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
    let now = OffsetDateTime::now_utc();
    store
        .earlier_answer_or_history(
            &scopes,
            now,
            &query("stg_a", Environment::Staging, now - Duration::hours(1)),
            &LeadsQuery {
                company_ids: vec![7, 3],
                since: now - Duration::days(1),
            },
        )
        .await
        .unwrap()
}

/// A submission written before gets its record instead of the history: that
/// of the first of its scopes (in the order given) holding an unexpired one.
/// An expired record does not count, and a new submission gets its history.
pub async fn an_earlier_answer_comes_instead_of_the_history(store: &dyn Store) {
    let now = now();
    let record = |scope: &str, expires_at| IdempotencyRecord {
        scope: scope.to_owned(),
        request_hash: "hash".to_owned(),
        status: 201,
        body: format!("{{\"scope\":\"{scope}\"}}"),
        expires_at,
    };
    let mut first = sam("e-first", "stg_a", now - Duration::minutes(3)).new_job();
    first.idempotency = vec![
        record("k:stg_a:one", now + Duration::hours(24)),
        record("s:stg_a:one", now + Duration::minutes(10)),
    ];
    let mut expired = sam("e-expired", "stg_a", now - Duration::minutes(2)).new_job();
    expired.idempotency = vec![record("k:stg_a:old", now - Duration::seconds(1))];
    store.create_job(&first).await.unwrap();
    store.create_job(&expired).await.unwrap();

    let key = EarlierOrHistory::Earlier(first.idempotency[0].clone());
    let signature = EarlierOrHistory::Earlier(first.idempotency[1].clone());
    assert_eq!(
        earlier_or_history(store, &["k:stg_a:one", "s:stg_a:one"]).await,
        key
    );
    assert_eq!(
        earlier_or_history(store, &["s:stg_a:one", "k:stg_a:one"]).await,
        signature
    );
    assert_eq!(
        earlier_or_history(store, &["k:stg_a:none", "s:stg_a:one"]).await,
        signature
    );
    assert_eq!(
        earlier_or_history(store, &["k:stg_a:old", "s:stg_a:new"]).await,
        EarlierOrHistory::History {
            history: ContactHistory {
                by_email: 2,
                by_phone: 2,
                same_text_other_keys: 0,
            },
            recent_leads: HashMap::from([(7, 2)]),
        }
    );
}

/// A new submission's history comes with the recent leads of the trades it
/// asks about, counted as `Store::recent_leads` counts them: each trade's
/// recipient rows from `since` on (the boundary itself counts), whatever the
/// environment; a trade with none is absent; no trades asked, none answered.
pub async fn the_history_comes_with_the_asked_trades_recent_leads(store: &dyn Store) {
    let now = now();
    let job = |id: &str, company_ids: &[u64], received_at| {
        let mut job = sam(id, "stg_a", received_at).new_job();
        job.recipients = company_ids
            .iter()
            .zip(1..)
            .map(|(&company_id, rank)| NewRecipient {
                company_id,
                name: format!("Trade {company_id}"),
                rank,
            })
            .collect();
        job
    };
    let mut production = job("l-prod", &[7], now - Duration::hours(1));
    production.environment = Environment::Production;
    for written in [
        job("l-old", &[7, 3], now - Duration::days(9)),
        job("l-edge", &[7, 3], now - Duration::days(7)),
        job("l-new", &[7, 11], now - Duration::minutes(5)),
        production,
    ] {
        store.create_job(&written).await.unwrap();
    }
    let asked: [(&[u64], Duration); 5] = [
        (&[7, 3, 11, 99], Duration::days(7)),
        (&[7, 3, 11, 99], Duration::days(10)),
        (&[3], Duration::days(1)),
        (&[99], Duration::days(30)),
        (&[], Duration::days(30)),
    ];
    let mut answers = Vec::new();
    for (company_ids, back) in asked {
        let leads = LeadsQuery {
            company_ids: company_ids.to_vec(),
            since: now - back,
        };
        let answer = store
            .earlier_answer_or_history(
                &["k:stg_a:never".to_owned()],
                now,
                &query("stg_a", Environment::Staging, now - Duration::hours(1)),
                &leads,
            )
            .await
            .unwrap();
        let EarlierOrHistory::History { recent_leads, .. } = answer else {
            panic!("a new submission got an earlier answer: {answer:?}");
        };
        let alone = store
            .recent_leads(&leads.company_ids, leads.since)
            .await
            .unwrap();
        assert_eq!(recent_leads, alone, "{company_ids:?} since {back}");
        answers.push(recent_leads);
    }
    assert_eq!(
        answers,
        [
            HashMap::from([(7, 3), (3, 1), (11, 1)]),
            HashMap::from([(7, 4), (3, 2), (11, 1)]),
            HashMap::new(),
            HashMap::new(),
            HashMap::new(),
        ]
    );
}
