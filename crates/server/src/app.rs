//! Building and running the application: the same path for tests and `intake serve`.

use crate::access_log::access_log;
use crate::error::ApiError;
use crate::head_limits::limit_head;
use crate::limits::retry_after_seconds;
use crate::log_text::Escaped;
use crate::problem_layer::problem_layer;
use crate::request_id::{mark_if_missing, REQUEST_ID};
use crate::routes::router;
use crate::state::AppState;
use axum::extract::State;
use axum::http::{Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{
    MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::TraceLayer;

/// A server bound to its listener, ready to run.
pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
}

impl Application {
    /// Builds the router around `state` for an already bound `listener`
    /// (port 0 in tests).
    pub fn build(listener: TcpListener, state: AppState) -> Self {
        let (routes, _document) = router(state.clone());
        let router = routes.fallback(not_found).layer(
            ServiceBuilder::new()
                .map_request(mark_if_missing)
                .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
                .layer(axum::middleware::from_fn(access_log))
                .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                    let request_id = request
                        .extensions()
                        .get::<RequestId>()
                        .and_then(|id| id.header_value().to_str().ok())
                        .unwrap_or("-");
                    // The request id (maybe the client's own) and the path are the client's text.
                    tracing::info_span!("request", request_id = %Escaped(request_id), method = %request.method(), path = %Escaped(request.uri().path()))
                }))
                .layer(PropagateRequestIdLayer::new(REQUEST_ID))
                .layer(axum::middleware::from_fn(problem_layer))
                .layer(axum::middleware::from_fn(limit_head))
                .layer(CatchPanicLayer::new())
                .layer(axum::middleware::from_fn_with_state(state.config.request_timeout, time_limit)),
        );
        Application {
            listener,
            router,
            state,
        }
    }

    /// Wraps the whole router, outside every layer of the service: an
    /// embedder's own middleware (the HTTP suite checks every answer against
    /// the specification's schemas this way).
    pub fn map_router(mut self, wrap: impl FnOnce(Router) -> Router) -> Self {
        self.router = wrap(self.router);
        self
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` resolves, then stops accepting and lets
    /// in-flight requests finish within the configured grace period.
    /// Serving itself has no error to return: a failed accept is logged and
    /// retried after a pause.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let grace = self.state.config.shutdown_grace;
        let (stopping_tx, stopping_rx) = tokio::sync::watch::channel(false);
        let signal = async move {
            shutdown.await;
            let _ = stopping_tx.send(true);
        };
        let refresher = tokio::spawn(crate::workers::directory_refresh::run(
            self.state.clone(),
            stopping_rx.clone(),
        ));
        let retention = tokio::spawn(crate::workers::retention::run(
            self.state.store.clone(),
            self.state.images.clone(),
            self.state.config.retention.clone(),
            stopping_rx.clone(),
        ));
        let dispatcher = crate::dispatcher::spawn_in_server(
            &self.state,
            self.listener.local_addr().ok(),
            stopping_rx.clone(),
        );
        let server = crate::serve::serve(
            self.listener,
            self.router,
            self.state.config.connections.clone(),
            stopping_rx,
        );
        let signal_then_grace = async move {
            signal.await;
            tokio::time::sleep(grace).await;
        };
        tokio::select! {
            () = server => {}
            () = signal_then_grace => {
                tracing::warn!(grace_seconds = grace.as_secs(), "in-flight requests did not finish within the grace period");
            }
        }
        refresher.abort();
        retention.abort();
        if let Some(dispatcher) = dispatcher {
            // Bounded by the dispatcher's own grace period.
            let _ = dispatcher.await;
        }
        Ok(())
    }
}

async fn not_found() -> StatusCode {
    StatusCode::NOT_FOUND
}

/// How long a client that timed out is asked to wait before trying again.
const RETRY_AFTER_TIMEOUT: Duration = Duration::from_secs(5);

/// Middleware: answers 503 with `Retry-After` when a request is not finished
/// within the request timeout, and drops its handler, which stops its work
/// (image work included: see `photos::check_all`). Writing a job with its
/// photos runs on by itself (see `with_attachments`), hence the detail.
async fn time_limit(
    State(limit): State<Duration>,
    request: Request<axum::body::Body>,
    next: Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_elapsed) => ApiError::Busy {
            detail: format!(
                "The request took longer than the server's limit of {} seconds, so the server stopped working on it. A job that was being written when the time ran out may have been created all the same: send the same request again (the same signed request, or the same Idempotency-Key) and it gets that job's answer rather than making a second job. Retry after the number of seconds in Retry-After.",
                limit.as_secs_f64()
            ),
            retry_after_seconds: retry_after_seconds(RETRY_AFTER_TIMEOUT),
        }
        .into_response(),
    }
}
