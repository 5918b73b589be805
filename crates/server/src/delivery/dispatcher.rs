//! The dispatcher: claims due deliveries from the outbox, sends them with a
//! limit per trade, and records what came of each attempt.

use super::attempt::Attempt;
use super::config::DeliveryConfig;
use super::email::Mailer;
use super::image_links::ImageLinks;
use super::lead::{self, Categories, LinkSettings};
use super::webhook;
use crate::storage::ImageStore;
use intake_core::delivery::{Channel, Delivery, Outcome};
use intake_core::{MasterKey, Store};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use time::OffsetDateTime;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

/// Where a lead's image links point when nothing else was configured.
const FALLBACK_PUBLIC_API_URL: &str = "http://127.0.0.1:8080";
/// Least time left on a lease for an attempt to start: enough for a send.
const LEASE_MARGIN: Duration = Duration::from_secs(2);

/// Sends the leads of production jobs. Run one in `intake serve` (production)
/// or in `intake worker`; any number may share a store.
pub struct Dispatcher {
    shared: Arc<Shared>,
    wake: Arc<Notify>,
}

struct Shared {
    store: Arc<dyn Store>,
    master: Arc<MasterKey>,
    config: DeliveryConfig,
    http: reqwest::Client,
    mailer: Option<Mailer>,
    links: LinkSettings,
    categories: Categories,
    /// One semaphore per trade with deliveries in flight or waiting.
    trades: Mutex<HashMap<u64, Arc<Semaphore>>>,
    /// Bounds the deliveries in flight in this process.
    in_flight: Arc<Semaphore>,
    /// Photos are served by the API, not read here; kept so the dispatcher
    /// and the server are built from the same parts.
    _images: ImageStore,
}

impl Dispatcher {
    /// A dispatcher over `store`, signing with keys derived from `master`.
    pub fn new(
        store: Arc<dyn Store>,
        master: Arc<MasterKey>,
        config: DeliveryConfig,
        images: ImageStore,
    ) -> Self {
        let mailer = match &config.smtp {
            Some(settings) => match Mailer::new(settings, config.timeout) {
                Ok(mailer) => Some(mailer),
                Err(error) => {
                    tracing::error!(%error, "e-mail leads will wait until the relay is configured");
                    None
                }
            },
            None => None,
        };
        let base_url = config.public_api_url.clone().unwrap_or_else(|| {
            tracing::warn!("no public API URL configured (INTAKE_PUBLIC_API_URL); image links in leads point at {FALLBACK_PUBLIC_API_URL}");
            FALLBACK_PUBLIC_API_URL.to_owned()
        });
        let links = LinkSettings {
            links: ImageLinks::new(&master),
            base_url,
            ttl: config.image_url_ttl,
        };
        Dispatcher {
            shared: Arc::new(Shared {
                store,
                master,
                http: webhook::client(config.timeout),
                mailer,
                links,
                categories: Categories::default(),
                trades: Mutex::new(HashMap::new()),
                in_flight: Arc::new(Semaphore::new(config.max_in_flight.max(1))),
                config,
                _images: images,
            }),
            wake: Arc::new(Notify::new()),
        }
    }

    /// Makes `wake` start a claim at once (job creation pokes it), on top of
    /// the regular polling.
    pub fn with_wake(mut self, wake: Arc<Notify>) -> Self {
        self.wake = wake;
        self
    }

    /// Claims and sends until `shutdown` resolves; then claims nothing more and
    /// lets the sends in flight finish within the grace period. A send cut off
    /// then is claimed again when its lease ends (by this or another process).
    pub async fn run_until(self, shutdown: impl Future<Output = ()>) {
        let shared = self.shared;
        if shared.mailer.is_none() {
            tracing::warn!("no SMTP relay configured (INTAKE_SMTP_URL): e-mail leads wait and are retried until one is");
        }
        tracing::info!(
            per_trade = shared.config.per_trade_concurrency,
            "lead dispatcher started"
        );
        tokio::pin!(shutdown);
        let mut tasks = JoinSet::new();
        let mut ticker = tokio::time::interval(shared.config.poll_interval);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut errors = ErrorLog::default();
        let mut more_due = false;
        loop {
            tokio::select! {
                () = &mut shutdown => break,
                _ = ticker.tick() => {}
                () = self.wake.notified() => {}
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {
                    // A slot came free: claim again only if the last claim left rows behind.
                    if !more_due {
                        continue;
                    }
                }
            }
            while let Some(done) = tasks.try_join_next() {
                if let Err(error) = done {
                    tracing::error!(%error, "a delivery task failed");
                }
            }
            more_due = match claim(&shared, &mut tasks).await {
                Ok(more) => more,
                Err(error) => {
                    errors.log(&error);
                    false
                }
            };
        }
        let pending = tasks.len();
        tracing::info!(in_flight = pending, "lead dispatcher stopping");
        let drained = tokio::time::timeout(shared.config.shutdown_grace, async {
            while tasks.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            tracing::warn!(
                unfinished = tasks.len(),
                "lead sends did not finish within the grace period; they will be claimed again"
            );
            tasks.abort_all();
        }
    }
}

/// Claims as many due deliveries as there are free slots and starts them;
/// returns whether more may be due (the claim was full).
async fn claim(
    shared: &Arc<Shared>,
    tasks: &mut JoinSet<()>,
) -> Result<bool, intake_core::StoreError> {
    let free = shared.in_flight.available_permits();
    if free == 0 {
        return Ok(true);
    }
    let limit = shared.config.batch.min(free as u32).max(1);
    let claimed_at = Instant::now();
    let batch = shared
        .store
        .claim_deliveries(OffsetDateTime::now_utc(), shared.config.lease, limit)
        .await?;
    let full = batch.len() as u32 == limit;
    prune_trades(shared);
    for delivery in batch {
        let slot = shared
            .in_flight
            .clone()
            .try_acquire_owned()
            .expect("no more were claimed than there were free slots");
        let trade = trade_semaphore(shared, delivery.company_id);
        let shared = shared.clone();
        tasks.spawn(async move {
            run_one(&shared, delivery, trade, claimed_at).await;
            drop(slot);
        });
    }
    Ok(full)
}

fn trade_semaphore(shared: &Shared, company_id: u64) -> Arc<Semaphore> {
    let mut trades = shared.trades.lock().expect("trade semaphores lock");
    trades
        .entry(company_id)
        .or_insert_with(|| Arc::new(Semaphore::new(shared.config.per_trade_concurrency.max(1))))
        .clone()
}

/// Forgets the semaphores of trades with nothing in flight or waiting.
fn prune_trades(shared: &Shared) {
    let mut trades = shared.trades.lock().expect("trade semaphores lock");
    trades.retain(|_, semaphore| Arc::strong_count(semaphore) > 1);
}

/// Waits for the trade's turn (while the lease allows), attempts, records.
async fn run_one(shared: &Shared, delivery: Delivery, trade: Arc<Semaphore>, claimed_at: Instant) {
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
            tracing::error!(delivery_id = %id, %error, "outcome not recorded; the delivery will be claimed again when its lease ends")
        }
    }
}

/// Logs a failing claim once, then at most every 30 s while it keeps failing.
#[derive(Default)]
struct ErrorLog {
    last: Option<Instant>,
}

impl ErrorLog {
    fn log(&mut self, error: &intake_core::StoreError) {
        if self
            .last
            .is_none_or(|last| last.elapsed() >= Duration::from_secs(30))
        {
            tracing::warn!(%error, "could not claim deliveries; will keep trying");
            self.last = Some(Instant::now());
        }
    }
}
