//! The one error type at the HTTP edge.
//!
//! A handler returns `ApiError`; its response carries the status, any headers
//! and a [`ProblemDetail`] extension. The problem layer turns that into the
//! problem body (it knows the request path for `instance`) and logs it once.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use intake_core::StoreError;

/// The `detail` of a problem, attached to a response for the problem layer.
#[derive(Debug, Clone)]
pub struct ProblemDetail(pub String);

/// Internal text to log with the answer, never sent to the client.
#[derive(Debug, Clone)]
pub struct InternalCause(pub String);

/// Every way a request can fail, by HTTP status.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the request is malformed or invalid; the text names what to fix.
    BadRequest(String),
    /// 401: the signature is missing or does not check out.
    Unauthorized(String),
    /// 404: the thing asked for does not exist.
    NotFound(String),
    /// 409: a conflicting repeat (an idempotency key reused with another body).
    Conflict(String),
    /// 409 with `Retry-After`: the same submission is still being handled.
    InFlight(String),
    /// 422: the job was classified as spam.
    Spam,
    /// 408: the body did not arrive in time; the connection is closed after it.
    RequestTimeout(String),
    /// 413: the body is over the limit.
    PayloadTooLarge(String),
    /// 414: the request target is over the limit.
    UriTooLong(String),
    /// 415: the body is not of an accepted media type.
    UnsupportedMediaType(String),
    /// 431: the header section is over the limit.
    HeadersTooLarge(String),
    /// 429: the key is over its rate limit or its cap on requests in flight.
    TooManyRequests {
        /// What was exceeded and what to do.
        detail: String,
        /// Whole seconds to wait, sent as `Retry-After` (at least 1).
        retry_after_seconds: u64,
    },
    /// 503: the store cannot be reached; try again later.
    Unavailable(String),
    /// 503 with a `Retry-After` of its own: this process is at a limit of its
    /// own (not the store's); the detail says which.
    Busy {
        /// What is full and what to do.
        detail: String,
        /// Whole seconds to wait, sent as `Retry-After` (at least 1).
        retry_after_seconds: u64,
    },
    /// 500: a fault of ours; the cause is logged, not shown.
    Internal(String),
}

/// The exact `detail` of a spam answer: the reasons stay with us, since
/// telling them would teach spammers what to change.
pub const SPAM_DETAIL: &str = "Job classified as spam";

/// Seconds a client should wait before retrying after a 503 or an in-flight 409.
const RETRY_AFTER_SECONDS: &str = "2";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let in_flight = matches!(self, ApiError::InFlight(_));
        // RFC 9110 §15.5.9: a server that gives up waiting for a request
        // closes the connection; what is left of the body is not read.
        let close = matches!(self, ApiError::RequestTimeout(_));
        let retry_after = match &self {
            ApiError::TooManyRequests {
                retry_after_seconds,
                ..
            }
            | ApiError::Busy {
                retry_after_seconds,
                ..
            } => Some(HeaderValue::from((*retry_after_seconds).max(1))),
            _ => None,
        };
        let (status, detail, cause) = match self {
            ApiError::BadRequest(detail) => (StatusCode::BAD_REQUEST, detail, None),
            ApiError::Unauthorized(detail) => (StatusCode::UNAUTHORIZED, detail, None),
            ApiError::NotFound(detail) => (StatusCode::NOT_FOUND, detail, None),
            ApiError::Conflict(detail) => (StatusCode::CONFLICT, detail, None),
            ApiError::InFlight(detail) => (StatusCode::CONFLICT, detail, None),
            ApiError::Spam => (StatusCode::UNPROCESSABLE_ENTITY, SPAM_DETAIL.to_owned(), None),
            ApiError::RequestTimeout(detail) => (StatusCode::REQUEST_TIMEOUT, detail, None),
            ApiError::PayloadTooLarge(detail) => (StatusCode::PAYLOAD_TOO_LARGE, detail, None),
            ApiError::UriTooLong(detail) => (StatusCode::URI_TOO_LONG, detail, None),
            ApiError::UnsupportedMediaType(detail) => (StatusCode::UNSUPPORTED_MEDIA_TYPE, detail, None),
            ApiError::HeadersTooLarge(detail) => (StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, detail, None),
            ApiError::TooManyRequests { detail, .. } => (StatusCode::TOO_MANY_REQUESTS, detail, None),
            ApiError::Unavailable(cause) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The service cannot reach its store just now; retry after the number of seconds in Retry-After.".to_owned(),
                Some(cause),
            ),
            ApiError::Busy { detail, .. } => (StatusCode::SERVICE_UNAVAILABLE, detail, None),
            ApiError::Internal(cause) => (StatusCode::INTERNAL_SERVER_ERROR, String::new(), Some(cause)),
        };
        let mut response = status.into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Signature"),
            );
        }
        if status == StatusCode::SERVICE_UNAVAILABLE || in_flight {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from_static(RETRY_AFTER_SECONDS),
            );
        }
        if close {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds);
        }
        if !detail.is_empty() {
            response.extensions_mut().insert(ProblemDetail(detail));
        }
        if let Some(cause) = cause {
            response.extensions_mut().insert(InternalCause(cause));
        }
        response
    }
}

/// A store error met while answering a request: counted (`crate::telemetry`), then answered.
impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        crate::telemetry::store_error("http", &error);
        match error {
            StoreError::Unavailable(cause) => ApiError::Unavailable(cause),
            StoreError::NotFound => ApiError::NotFound("Not found.".to_owned()),
            other => ApiError::Internal(other.to_string()),
        }
    }
}
