//! A real local webhook receiver for delivery tests: an HTTP server on port 0,
//! on its own runtime thread (so blocking test code never stalls it), that
//! records every request to `POST /hooks/{companyId}` before answering.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Received {
    /// From the path: the trade the URL belongs to.
    pub company_id: u64,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Received {
    /// The `webhook-id` header.
    pub fn webhook_id(&self) -> &str {
        self.headers
            .get("webhook-id")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a lead body is JSON")
    }
}

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Received>>,
    in_flight: AtomicUsize,
    delay: Duration,
    /// Status to answer per trade; 204 when not set.
    answers: Mutex<HashMap<u64, u16>>,
}

/// The running receiver; stopped when dropped.
pub struct Receiver {
    pub address: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    /// Starts a receiver that answers each request after `delay`.
    pub fn start(delay: Duration) -> Receiver {
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
                    .route("/hooks/{company}", post(record))
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
    pub fn url(&self, company_id: u64) -> String {
        format!("http://{}/hooks/{company_id}", self.address)
    }

    /// Answers `status` to trade `company_id` from now on.
    pub fn answer(&self, company_id: u64, status: u16) {
        self.shared
            .answers
            .lock()
            .unwrap()
            .insert(company_id, status);
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Received> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Requests received and not yet answered.
    pub fn in_flight(&self) -> usize {
        self.shared.in_flight.load(Ordering::SeqCst)
    }

    /// Waits until `condition` holds of the receiver, or panics after `timeout`.
    pub fn wait_for(&self, what: &str, timeout: Duration, condition: impl Fn(&Receiver) -> bool) {
        let deadline = Instant::now() + timeout;
        while !condition(self) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; received {} request(s)",
                self.requests().len()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
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

async fn record(
    State(shared): State<Arc<Shared>>,
    Path(company_id): Path<u64>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    shared.in_flight.fetch_add(1, Ordering::SeqCst);
    shared.requests.lock().unwrap().push(Received {
        company_id,
        headers,
        body,
    });
    tokio::time::sleep(shared.delay).await;
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    let status = shared
        .answers
        .lock()
        .unwrap()
        .get(&company_id)
        .copied()
        .unwrap_or(204);
    StatusCode::from_u16(status).unwrap()
}
