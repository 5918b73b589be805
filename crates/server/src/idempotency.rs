//! Repeated submissions: an `Idempotency-Key` (or the very same signed
//! request) gets the first answer again instead of a second job.
//!
//! A record is written with the job, in its transaction, so only jobs that
//! were created leave one. Concurrent repeats within one process are told the
//! first is still in flight (409, retry); across processes the store's unique
//! scope makes the later writer replay the first's answer.

use crate::auth::AuthenticatedKey;
use crate::error::ApiError;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use intake_api::jobs::{IDEMPOTENCY_KEY, IDEMPOTENCY_REPLAYED};
use intake_core::intake::{Repeat, Submission};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The submission a request makes: its `Idempotency-Key` (1 to 255 visible
/// ASCII characters), its signature and the hash of its method, path and body.
pub fn submission_of(
    key: &AuthenticatedKey,
    headers: &HeaderMap,
    method: &str,
    path: &str,
    body: &[u8],
) -> Result<Submission, ApiError> {
    let mut values = headers.get_all(IDEMPOTENCY_KEY).iter();
    let key_scope = match (values.next(), values.next()) {
        (None, _) => None,
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest(
                "Send one Idempotency-Key header, not several.".into(),
            ))
        }
        (Some(value), None) => {
            let bytes = value.as_bytes();
            if bytes.is_empty()
                || bytes.len() > 255
                || !bytes.iter().all(|b| (0x21..=0x7e).contains(b))
            {
                return Err(ApiError::BadRequest(
                    "The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID.".into(),
                ));
            }
            Some(format!(
                "k:{}:{}",
                key.key_id,
                String::from_utf8_lossy(bytes)
            ))
        }
    };
    let signature = base64::engine::general_purpose::STANDARD.encode(&key.signature);
    let mut hasher = Sha256::new();
    hasher.update(method.as_bytes());
    hasher.update(b" ");
    hasher.update(path.as_bytes());
    hasher.update(b"\n");
    hasher.update(body);
    Ok(Submission {
        key_scope,
        signature_scope: format!("s:{}:{signature}", key.key_id),
        request_hash: hex::encode(hasher.finalize()),
    })
}

/// The answer to a repeat: the stored one (marked `Idempotency-Replayed:
/// true`), or 409 when the scope was used by another request.
pub fn answer_to(repeat: Repeat) -> Result<Response, ApiError> {
    let record = match repeat {
        Repeat::Replay(record) => record,
        Repeat::Conflict { by_idempotency_key } => {
            let what = if by_idempotency_key {
                "This Idempotency-Key was already used"
            } else {
                "This signed request was already received"
            };
            return Err(ApiError::Conflict(format!(
                "{what} with a different body. Use a new Idempotency-Key for a different job."
            )));
        }
    };
    let status = StatusCode::from_u16(record.status).unwrap_or(StatusCode::OK);
    let mut response = (status, record.body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
        .headers_mut()
        .insert(IDEMPOTENCY_REPLAYED, HeaderValue::from_static("true"));
    Ok(response)
}

/// Submissions being handled by this process right now.
#[derive(Debug, Default, Clone)]
pub struct InFlight {
    scopes: Arc<Mutex<HashSet<String>>>,
}

/// Holds scopes as in flight until dropped.
#[derive(Debug)]
pub struct InFlightGuard {
    set: InFlight,
    scopes: Vec<String>,
}

impl InFlight {
    /// Marks `scopes` in flight, or says 409 if any already is.
    pub fn enter(&self, scopes: Vec<String>) -> Result<InFlightGuard, ApiError> {
        let mut set = self
            .scopes
            .lock()
            .expect("the in-flight set is never poisoned");
        if scopes.iter().any(|scope| set.contains(scope)) {
            return Err(ApiError::InFlight(
                "A request with this Idempotency-Key (or this very signed request) is still being processed; retry after the seconds in Retry-After to get its answer.".into(),
            ));
        }
        set.extend(scopes.iter().cloned());
        Ok(InFlightGuard {
            set: self.clone(),
            scopes,
        })
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if let Ok(mut set) = self.set.scopes.lock() {
            for scope in &self.scopes {
                set.remove(scope);
            }
        }
    }
}
