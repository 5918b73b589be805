//! A real webhook receiver for delivery tests: an HTTP server on port 0, on
//! a thread and runtime of its own (so that blocking test code never stalls
//! it), that records every request to `POST /hooks/{companyId}` and
//! answers what each trade is scripted to get (200 by default), tracking
//! how many requests it is answering at once.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// What the receiver answers to one request.
#[derive(Debug, Clone, Copy)]
pub enum Reply {
    /// This status at once.
    Status(u16),
    /// This status after a pause.
    After(Duration, u16),
}

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Received {
    /// From the path: the trade whose hook was called.
    pub company_id: u64,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Received {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a lead body is JSON")
    }

    /// A header as text.
    pub fn header(&self, name: &str) -> &str {
        self.headers[name].to_str().unwrap()
    }

    /// The `webhook-id` header, or nothing.
    pub fn webhook_id(&self) -> &str {
        self.headers
            .get("webhook-id")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
    }
}

#[derive(Default)]
struct Inner {
    received: Vec<Received>,
    scripts: HashMap<u64, VecDeque<Reply>>,
    always: HashMap<u64, Reply>,
    in_flight: HashMap<u64, usize>,
    max_in_flight: HashMap<u64, usize>,
}

#[derive(Default)]
struct Shared {
    inner: Mutex<Inner>,
    arrived: Notify,
    /// How long every answer waits before its reply.
    delay: Duration,
}

/// The running receiver; stopped when dropped.
pub struct Receiver {
    address: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    /// Starts a receiver on a free port.
    pub fn start() -> Receiver {
        Receiver::with_delay(Duration::ZERO)
    }

    /// Starts a receiver that answers each request after `delay`.
    pub fn with_delay(delay: Duration) -> Receiver {
        let shared = Arc::new(Shared {
            delay,
            ..Shared::default()
        });
        let (address_tx, address_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let state = shared.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                address_tx.send(listener.local_addr().unwrap()).unwrap();
                let app = Router::new()
                    .route("/hooks/{company_id}", post(receive))
                    .with_state(state);
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Receiver {
            address: address_rx.recv_timeout(Duration::from_secs(10)).unwrap(),
            shared,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The webhook URL of trade `company_id`.
    pub fn hook_url(&self, company_id: u64) -> String {
        format!("http://{}/hooks/{company_id}", self.address)
    }

    /// The next replies to `company_id`, in order; then [`Receiver::always`] or 200.
    pub fn script(&self, company_id: u64, replies: &[Reply]) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner
            .scripts
            .entry(company_id)
            .or_default()
            .extend(replies.iter().copied());
    }

    /// What `company_id` gets once its script is used up.
    pub fn always(&self, company_id: u64, reply: Reply) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.always.insert(company_id, reply);
    }

    /// Every request so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        self.shared.inner.lock().unwrap().received.clone()
    }

    /// The requests to `company_id`.
    pub fn received_by(&self, company_id: u64) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.company_id == company_id)
            .collect()
    }

    /// Requests received and not yet answered.
    pub fn in_flight(&self) -> usize {
        self.shared.inner.lock().unwrap().in_flight.values().sum()
    }

    /// The most requests to `company_id` that were being answered at once.
    pub fn max_in_flight(&self, company_id: u64) -> usize {
        let inner = self.shared.inner.lock().unwrap();
        inner.max_in_flight.get(&company_id).copied().unwrap_or(0)
    }

    /// Waits (up to 20 s) until `done` holds for the requests received.
    pub async fn wait_until(&self, what: &str, done: impl Fn(&[Received]) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let arrived = self.shared.arrived.notified();
            if done(&self.received()) {
                return;
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                panic!("the receiver never saw {what}: {:#?}", self.summary());
            }
        }
    }

    /// Waits until `company_id` received `count` requests.
    pub async fn wait_for(&self, company_id: u64, count: usize) -> Vec<Received> {
        self.wait_until(&format!("{count} requests for {company_id}"), |all| {
            all.iter().filter(|r| r.company_id == company_id).count() >= count
        })
        .await;
        self.received_by(company_id)
    }

    /// Blocks until `condition` holds of the receiver, or panics after
    /// `timeout`: for tests that run no runtime of their own.
    pub fn wait_blocking(
        &self,
        what: &str,
        timeout: Duration,
        condition: impl Fn(&Receiver) -> bool,
    ) {
        let deadline = Instant::now() + timeout;
        while !condition(self) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; received {} request(s)",
                self.received().len()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn summary(&self) -> Vec<(u64, String)> {
        self.received()
            .iter()
            .map(|r| (r.company_id, r.webhook_id().to_owned()))
            .collect()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn receive(
    State(shared): State<Arc<Shared>>,
    Path(company_id): Path<u64>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let reply = {
        let mut inner = shared.inner.lock().unwrap();
        inner.received.push(Received {
            company_id,
            headers,
            body,
        });
        let now = {
            let count = inner.in_flight.entry(company_id).or_default();
            *count += 1;
            *count
        };
        let max = inner.max_in_flight.entry(company_id).or_default();
        *max = (*max).max(now);
        let scripted = inner
            .scripts
            .get_mut(&company_id)
            .and_then(VecDeque::pop_front);
        scripted
            .or_else(|| inner.always.get(&company_id).copied())
            .unwrap_or(Reply::Status(200))
    };
    shared.arrived.notify_waiters();
    // Counted out on drop: a sender that gives up cancels this handler.
    let _answering = Answering {
        shared: shared.clone(),
        company_id,
    };
    tokio::time::sleep(shared.delay).await;
    let status = match reply {
        Reply::Status(status) => status,
        Reply::After(pause, status) => {
            tokio::time::sleep(pause).await;
            status
        }
    };
    StatusCode::from_u16(status).unwrap()
}

struct Answering {
    shared: Arc<Shared>,
    company_id: u64,
}

impl Drop for Answering {
    fn drop(&mut self) {
        let mut inner = self.shared.inner.lock().unwrap();
        *inner.in_flight.entry(self.company_id).or_default() -= 1;
    }
}
