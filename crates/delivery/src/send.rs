//! One claimed delivery: wait for the trade's turn, attempt it over its
//! channel, record the outcome.

use super::attempt::Attempt;
use super::dispatcher::Shared;
use super::{lead, webhook};
use intake_core::delivery::{Channel, Delivery, Outcome};
use intake_core::telemetry::{store_error_kind, DELIVERIES, STORE_ERRORS};
use std::sync::Arc;
use std::time::{Duration, Instant};
use time::OffsetDateTime;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Least time left on a lease for an attempt to start: enough for a send.
const LEASE_MARGIN: Duration = Duration::from_secs(2);

/// Waits for the trade's turn (while the lease allows), attempts, records.
pub(super) async fn run_one(
    shared: &Shared,
    delivery: Delivery,
    trade: Arc<Semaphore>,
    claimed_at: Instant,
) {
    let budget = shared
        .config
        .lease
        .saturating_sub(shared.config.timeout + LEASE_MARGIN)
        .saturating_sub(claimed_at.elapsed());
    let permit: Option<OwnedSemaphorePermit> =
        match tokio::time::timeout(budget, trade.acquire_owned()).await {
            Ok(Ok(permit)) => Some(permit),
            _ => None,
        };
    let now = OffsetDateTime::now_utc();
    let outcome = match permit {
        // The trade stayed busy for the whole lease: hand the row back, due at once.
        None => Outcome::Retry {
            at: now,
            error: "waited for the trade's limit on concurrent deliveries".into(),
        },
        Some(_permit) => {
            let attempt = attempt(shared, &delivery).await;
            attempt.outcome(&delivery, &shared.config.retry, OffsetDateTime::now_utc())
        }
    };
    record(shared, &delivery, &outcome).await;
}

/// One attempt over the delivery's channel, bounded by the timeout.
async fn attempt(shared: &Shared, delivery: &Delivery) -> Attempt {
    let stored = match shared.store.job(&delivery.job_id).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return Attempt::Failed("the job no longer exists".into()),
        Err(error) => return Attempt::Failed(format!("the job could not be read: {error}")),
    };
    let tree = match shared.categories.current(shared.store.as_ref()).await {
        Ok(tree) => tree,
        Err(error) => return Attempt::Failed(format!("the categories could not be read: {error}")),
    };
    let now = OffsetDateTime::now_utc();
    let lead = lead::build(delivery, &stored, &tree, &shared.links, now);
    let body = serde_json::to_vec(&lead).expect("a lead always serialises");
    let send = async {
        match delivery.channel {
            Channel::Webhook => {
                let key = zeroize::Zeroizing::new(shared.master.webhook_key(delivery.company_id));
                webhook::send(
                    &shared.http,
                    &delivery.target,
                    &delivery.id,
                    key.as_slice(),
                    body,
                    now.unix_timestamp(),
                )
                .await
            }
            Channel::Email => match &shared.mailer {
                Some(mailer) => mailer.send(&delivery.target, &lead, body).await,
                None => Attempt::Failed("no SMTP relay is configured (INTAKE_SMTP_URL)".into()),
            },
        }
    };
    // The HTTP client and the relay have their own timeouts; this bounds the whole.
    let limit = shared.config.timeout + Duration::from_secs(1);
    tokio::time::timeout(limit, send)
        .await
        .unwrap_or_else(|_| Attempt::Failed("the attempt did not finish in time".into()))
}

async fn record(shared: &Shared, delivery: &Delivery, outcome: &Outcome) {
    let now = OffsetDateTime::now_utc();
    let (id, channel, trade) = (&delivery.id, delivery.channel.as_str(), delivery.company_id);
    let outcome_label = match outcome {
        Outcome::Delivered => "delivered",
        Outcome::Retry { .. } => "retry",
        Outcome::Dead { .. } => "dead",
        Outcome::Gone { .. } => "gone",
    };
    metrics::counter!(DELIVERIES, "channel" => channel, "outcome" => outcome_label).increment(1);
    match outcome {
        Outcome::Delivered => {
            tracing::info!(delivery_id = %id, channel, trade, attempt = delivery.attempts, "lead delivered")
        }
        Outcome::Retry { at, error } => {
            tracing::info!(delivery_id = %id, channel, trade, attempt = delivery.attempts, %error, retry_at = %at, "lead attempt failed; will retry")
        }
        Outcome::Dead { error } => {
            tracing::warn!(delivery_id = %id, channel, trade, attempt = delivery.attempts, %error, "lead dead: the retry window is over")
        }
        Outcome::Gone { error } => {
            tracing::warn!(delivery_id = %id, channel, trade, %error, "lead channel gone")
        }
    }
    match shared
        .store
        .finish_delivery(id, delivery.attempts, outcome, now)
        .await
    {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!(delivery_id = %id, "outcome not recorded: another dispatcher took the delivery over")
        }
        Err(error) => {
            count_store_error(&error);
            tracing::error!(delivery_id = %id, %error, "outcome not recorded; the delivery will be claimed again when its lease ends")
        }
    }
}

/// Counts a store error the dispatcher met (`intake_core::telemetry`).
pub(crate) fn count_store_error(error: &intake_core::StoreError) {
    if let Some(kind) = store_error_kind(error) {
        metrics::counter!(STORE_ERRORS, "kind" => kind, "component" => "dispatcher").increment(1);
    }
}
