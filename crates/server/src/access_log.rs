//! The access log: one `info` line per request, written when its answer's
//! head is made, in the text or JSON format of the rest of the log.
//!
//! Its fields: `method`; `route`, the template that matched
//! (`/v1/affiliate-job/jobs/{id}`, so that lines group by endpoint), or
//! `path`, the path as sent and escaped, when no route matched; `status`;
//! `latency_ms`; `key_id` when the request was authenticated; and
//! `request_id`. Nothing else of the request is logged here: no query, no
//! header but the request id, no signature, no body.
//!
//! The line is written outside the request's span, so the span's fields are
//! not repeated on it.
//!
//! The same middleware counts the request and its latency for the metrics
//! (`crate::telemetry`), by route template, method and status.

use crate::log_text::Escaped;
use crate::telemetry;
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use tower_http::request_id::RequestId;

/// Where the signature layer leaves the id of the key that signed a request
/// (a request extension), for this request's access line: it is read after
/// the answer is made, however it was made (a handler, the problem layer, a
/// timeout, a caught panic).
#[derive(Debug, Clone, Default)]
pub struct SignedBy(Arc<OnceLock<String>>);

impl SignedBy {
    /// Records the key that signed the request.
    pub fn set(&self, key_id: &str) {
        let _ = self.0.set(key_id.to_owned());
    }

    fn get(&self) -> Option<&str> {
        self.0.get().map(String::as_str)
    }
}

/// Middleware: see the module documentation. Runs after routing (it is a
/// layer of the router, where `MatchedPath` is known) and after the request
/// id is set.
pub async fn access_log(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request.extensions().get::<MatchedPath>().cloned();
    let path = route.is_none().then(|| request.uri().path().to_owned());
    let request_id = request.extensions().get::<RequestId>().cloned();
    let signed_by = SignedBy::default();
    request.extensions_mut().insert(signed_by.clone());

    let response = next.run(request).await;

    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    let route_label = route.as_ref().map_or("unmatched", MatchedPath::as_str);
    let method_label = telemetry::method_label(&method);
    metrics::counter!(telemetry::HTTP_REQUESTS, "route" => route_label.to_owned(), "method" => method_label, "status" => status_label(status))
        .increment(1);
    metrics::histogram!(telemetry::HTTP_DURATION, "route" => route_label.to_owned(), "method" => method_label)
        .record(elapsed.as_secs_f64());

    let latency_ms = (elapsed.as_secs_f64() * 1e6).round() / 1e3;
    let request_id = request_id
        .as_ref()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or("-");
    // The path and the request id are the client's text.
    tracing::info!(
        method = %method,
        route = route.as_ref().map(|route| display(route.as_str())),
        path = path.as_deref().map(|path| display(Escaped(path))),
        status,
        latency_ms,
        key_id = signed_by.get().map(display),
        request_id = %Escaped(request_id),
        "answered"
    );
    response
}

/// The `status` label: the code as text, without allocating for the common ones.
fn status_label(status: u16) -> metrics::SharedString {
    const COMMON: [(u16, &str); 16] = [
        (200, "200"),
        (201, "201"),
        (204, "204"),
        (304, "304"),
        (400, "400"),
        (401, "401"),
        (404, "404"),
        (405, "405"),
        (408, "408"),
        (409, "409"),
        (413, "413"),
        (415, "415"),
        (422, "422"),
        (429, "429"),
        (500, "500"),
        (503, "503"),
    ];
    match COMMON.iter().find(|(code, _)| *code == status) {
        Some((_, text)) => metrics::SharedString::const_str(text),
        None => metrics::SharedString::from(status.to_string()),
    }
}
