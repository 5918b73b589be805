//! Serving HTTP/1.1 connections: the accept loop and each connection's task,
//! under the timeouts and the cap of [`ConnectionLimits`] (issue 13).
//!
//! This replaces `axum::serve`, which has none of them: a client that sends
//! its head a byte at a time, or nothing at all, kept its connection (and a
//! descriptor) for as long as it liked, and once descriptors ran out
//! `accept` failed and was retried every second, logging each time.

mod backoff;
mod descriptors;
mod first_head;
mod watchdog;

use crate::config::ConnectionLimits;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::Router;
use backoff::Backoff;
use first_head::{take_verdict, FirstHead, VerdictSlot};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tower::ServiceExt;
use watchdog::{AnswerBody, Clock, Watched};

pub use first_head::MalformedHead;

/// hyper's buffer for a connection's reads, which a request head must fit
/// in: far below hyper's default of about 400 KiB, which bounds what a slow
/// or idle client makes the server hold.
pub const READ_BUFFER_BYTES: usize = 64 * 1024;

/// How often reaching the cap on connections is logged while it goes on.
const CAP_LOG_INTERVAL: Duration = Duration::from_secs(60);

/// Accepts and serves connections until `stopping` turns true; then stops
/// accepting (closing the listener) and returns once every connection has
/// finished its request in flight. Dropping the future drops them all.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    mut stopping: watch::Receiver<bool>,
) {
    let cap = descriptors::connection_cap(limits.max_connections);
    let slots = Arc::new(Semaphore::new(cap));
    let limits = Arc::new(limits);
    let mut connections = JoinSet::new();
    let mut backoff = Backoff::default();
    let mut cap_logged: Option<Instant> = None;
    loop {
        while connections.try_join_next().is_some() {}
        // A slot before accepting: at the cap, further connections wait in
        // the listen backlog rather than each holding a descriptor here.
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                let now = Instant::now();
                if cap_logged.is_none_or(|last| now.duration_since(last) >= CAP_LOG_INTERVAL) {
                    tracing::warn!(
                        max_connections = cap,
                        "at the cap on open connections: new ones wait until one closes (logged once a minute while it lasts)"
                    );
                    cap_logged = Some(now);
                }
                tokio::select! {
                    slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
                    _ = stopping.wait_for(|stopping| *stopping) => break,
                }
            }
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopping.wait_for(|stopping| *stopping) => break,
        };
        match accepted {
            Ok((stream, _peer)) => {
                backoff.accepted();
                let task = connection(
                    stream,
                    router.clone(),
                    limits.clone(),
                    stopping.clone(),
                    slot,
                );
                connections.spawn(task);
            }
            Err(error) => {
                drop(slot);
                if let Some(pause) = backoff.failed(&error, Instant::now()) {
                    if pause.log_failures > 0 {
                        tracing::error!(
                            %error,
                            failures = pause.log_failures,
                            out_of_descriptors = backoff::out_of_resources(&error),
                            open_connections = cap - slots.available_permits(),
                            "cannot accept connections: pausing between accepts (logged once a minute while it lasts)"
                        );
                    }
                    tokio::select! {
                        () = tokio::time::sleep(pause.wait) => {}
                        _ = stopping.wait_for(|stopping| *stopping) => break,
                    }
                }
            }
        }
    }
    // New connections are refused from here on.
    drop(listener);
    while connections.join_next().await.is_some() {}
}

/// Serves one connection until it ends, its client takes too long at a
/// stage, or the server stops (then after its request in flight).
async fn connection(
    stream: TcpStream,
    router: Router,
    limits: Arc<ConnectionLimits>,
    mut stopping: watch::Receiver<bool>,
    _slot: OwnedSemaphorePermit,
) {
    let clock = Clock::new(&limits, Instant::now());
    let verdict = VerdictSlot::default();
    let io = TokioIo::new(FirstHead::new(
        Watched::new(stream, clock.clone()),
        READ_BUFFER_BYTES,
        verdict.clone(),
    ));
    let started = clock.clone();
    let finished = clock.clone();
    let service = router
        .map_request(move |request: Request<Incoming>| {
            started.exchange_started(Instant::now());
            let mut request = request.map(Body::new);
            if let Some(malformed) = take_verdict(&verdict) {
                request.extensions_mut().insert(malformed);
            }
            request
        })
        .map_response(move |response: Response| {
            let clock = finished.clone();
            response.map(|body| Body::new(AnswerBody::new(body, clock)))
        });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .max_buf_size(READ_BUFFER_BYTES)
        // The clock keeps the time of heads instead (see `watchdog`).
        .header_read_timeout(None);
    let mut conn = pin!(builder.serve_connection(io, TowerToHyperService::new(service)));
    let mut stopping_seen = false;
    loop {
        let deadline = clock.deadline();
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, "connection ended with an error");
                }
                return;
            }
            () = clock.changed() => {}
            () = sleep_until(deadline) => {
                if let Some(reason) = clock.expired(Instant::now()) {
                    tracing::debug!(reason, "connection closed");
                    return;
                }
            }
            _ = stopping.wait_for(|stopping| *stopping), if !stopping_seen => {
                stopping_seen = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
