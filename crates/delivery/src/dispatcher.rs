//! The dispatcher: claims due deliveries from the outbox, sends them with a
//! limit per trade, and records what came of each attempt.

use super::config::DeliveryConfig;
use super::email::Mailer;
use super::image_links::ImageLinks;
use super::lead::{Categories, LinkSettings};
use super::webhook;
use intake_core::{MasterKey, Store};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use time::OffsetDateTime;
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinSet;

/// Where a lead's image links point when nothing else was configured.
const FALLBACK_PUBLIC_API_URL: &str = "http://127.0.0.1:8080";

/// Sends the leads of production jobs. Run one in `intake serve` (production)
/// or in `intake worker`; any number may share a store.
pub struct Dispatcher {
    shared: Arc<Shared>,
    wake: Arc<Notify>,
}

pub(super) struct Shared {
    pub(super) store: Arc<dyn Store>,
    pub(super) master: Arc<MasterKey>,
    pub(super) config: DeliveryConfig,
    pub(super) http: reqwest::Client,
    pub(super) mailer: Option<Mailer>,
    pub(super) links: LinkSettings,
    pub(super) categories: Categories,
    /// One semaphore per trade with deliveries in flight or waiting.
    pub(super) trades: Mutex<HashMap<u64, Arc<Semaphore>>>,
    /// Bounds the deliveries in flight in this process.
    pub(super) in_flight: Arc<Semaphore>,
}

impl Dispatcher {
    /// A dispatcher over `store`, signing with keys derived from `master`.
    pub fn new(store: Arc<dyn Store>, master: Arc<MasterKey>, config: DeliveryConfig) -> Self {
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
                Some(done) = tasks.join_next(), if !tasks.is_empty() => {
                    if let Err(error) = done {
                        tracing::error!(%error, "a delivery task failed");
                    }
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
            super::send::run_one(&shared, delivery, trade, claimed_at).await;
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

/// Logs a failing claim once, then at most every 30 s while it keeps failing.
#[derive(Default)]
struct ErrorLog {
    last: Option<Instant>,
}

impl ErrorLog {
    fn log(&mut self, error: &intake_core::StoreError) {
        crate::send::count_store_error(error);
        if self
            .last
            .is_none_or(|last| last.elapsed() >= Duration::from_secs(30))
        {
            tracing::warn!(%error, "could not claim deliveries; will keep trying");
            self.last = Some(Instant::now());
        }
    }
}
