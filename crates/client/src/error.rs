//! What can go wrong calling the service.

use intake_api::Problem;
use std::time::Duration;

/// A failed call.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The service answered with a problem body.
    #[error("{} {}: {}", .problem.status, .problem.title, .problem.detail)]
    Problem {
        /// The problem body.
        problem: Problem,
        /// The `Retry-After` the service sent, if any.
        retry_after: Option<Duration>,
    },
    /// An error status whose body is not a problem, as a proxy or load
    /// balancer in front of the service may send (502, 504, an HTML 503).
    #[error("status {status} without a problem body: {body}")]
    Status {
        /// The HTTP status.
        status: u16,
        /// The body as text, for the log.
        body: String,
        /// The `Retry-After` sent, if any.
        retry_after: Option<Duration>,
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
