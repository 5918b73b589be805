//! What can go wrong calling the service.

use intake_api::Problem;
use std::time::Duration;

/// A failed call.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The service answered with a problem body.
    #[error("{} {}: {}{}", .problem.status, .problem.title, .problem.detail, RequestIdNote(.request_id))]
    Problem {
        /// The problem body (boxed: it is the largest error by far).
        problem: Box<Problem>,
        /// The `Retry-After` the service sent, if any.
        retry_after: Option<Duration>,
        /// The answer's `x-request-id`: quote it to the operator, who finds
        /// the request's log lines by it.
        request_id: Option<String>,
    },
    /// An error status whose body is not a problem, as a proxy or load
    /// balancer in front of the service may send (502, 504, an HTML 503).
    #[error("status {status} without a problem body: {body}{}", RequestIdNote(.request_id))]
    Status {
        /// The HTTP status.
        status: u16,
        /// The body as text, for the log.
        body: String,
        /// The `Retry-After` sent, if any.
        retry_after: Option<Duration>,
        /// The answer's `x-request-id`, if it had one (a proxy's answer may not).
        request_id: Option<String>,
    },
    /// The service could not be reached or the connection failed.
    #[error("network error: {0}")]
    Network(#[from] reqwest::Error),
    /// The answer was not what the API documents.
    #[error("unexpected answer: {0}")]
    Unexpected(String),
    /// The client was set up wrongly (bad base URL, bad header list).
    #[error("client configuration: {0}")]
    Config(String),
}

impl ClientError {
    /// The HTTP status of an error answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Problem { problem, .. } => Some(problem.status),
            ClientError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The `x-request-id` of an error answer.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            ClientError::Problem { request_id, .. } | ClientError::Status { request_id, .. } => {
                request_id.as_deref()
            }
            _ => None,
        }
    }

    /// The `Retry-After` of an error answer.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ClientError::Problem { retry_after, .. } | ClientError::Status { retry_after, .. } => {
                *retry_after
            }
            _ => None,
        }
    }
}

/// ` (request id …)` after an error's text, when the answer had one.
struct RequestIdNote<'a>(&'a Option<String>);

impl std::fmt::Display for RequestIdNote<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(id) => write!(f, " (request id {id})"),
            None => Ok(()),
        }
    }
}
