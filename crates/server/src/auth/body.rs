//! Reading a request's body, once its signature is known to be good: under
//! the body limit, the body read timeout and the process's body budget,
//! hashing it for the covered digests as it arrives.

use crate::body_budget::{BodyBudget, Exhausted, Share};
use crate::error::ApiError;
use axum::body::{Body, Bytes};
use http_body::Body as _;
use http_body_util::BodyExt;
use intake_signature::VerifiedHead;
use std::time::Duration;

/// What a chunked body's buffer starts at; it doubles from there, up to the limit.
const FIRST_CHUNKED_BYTES: usize = 64 * 1024;

/// A body read whole, with the share of the budget that holds it.
pub struct ReadBody {
    pub bytes: Bytes,
    pub share: Share,
}

/// Reads the whole body, feeding it to `head` as it arrives: 413 over
/// `limit` (at once when the Content-Length says so, before a byte is
/// read), 503 when the body budget has no room for it, 408 when it has not
/// all arrived within `timeout` of the headers (a client that stalls or
/// trickles it), 400 when it is malformed (a bad chunk size) or cut short.
pub async fn read_body(
    body: Body,
    limit: usize,
    timeout: Duration,
    budget: &BodyBudget,
    head: &mut VerifiedHead,
) -> Result<ReadBody, ApiError> {
    // hyper knows a Content-Length body's exact size before reading it.
    let exact = body.size_hint().exact();
    if let Some(length) = exact.filter(|length| *length > limit as u64) {
        return Err(over_limit(limit, Some(length)));
    }
    let mut share = Share::default();
    let read = collect(body, exact, limit, budget, &mut share, head);
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(bytes)) => Ok(ReadBody { bytes, share }),
        Ok(Err(error)) => Err(error),
        Err(_elapsed) => Err(ApiError::RequestTimeout(format!(
            "The request body did not arrive within {} seconds of the headers. Send the whole body at once, as soon as the headers.",
            timeout.as_secs_f64()
        ))),
    }
}

/// Collects the body into one buffer whose every byte of capacity is
/// covered by `share`: the Content-Length at once, a chunked body's buffer
/// as it doubles.
async fn collect(
    mut body: Body,
    exact: Option<u64>,
    limit: usize,
    budget: &BodyBudget,
    share: &mut Share,
    head: &mut VerifiedHead,
) -> Result<Bytes, ApiError> {
    let mut buffer: Vec<u8> = Vec::new();
    // Checked against the limit above, so it fits in a usize.
    if let Some(length) = exact.and_then(|length| usize::try_from(length).ok()) {
        if length > 0 {
            budget.cover(share, length).await.map_err(busy)?;
            buffer.reserve_exact(length);
        }
    }
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| unreadable(&error))?;
        // Trailers carry no body bytes.
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let length = buffer.len() + data.len();
        if length > limit {
            return Err(over_limit(limit, None));
        }
        if length > buffer.capacity() {
            let capacity = (buffer.capacity() * 2)
                .max(FIRST_CHUNKED_BYTES)
                .max(length)
                .min(limit);
            budget.cover(share, capacity).await.map_err(busy)?;
            buffer.reserve_exact(capacity - buffer.len());
        }
        head.update(&data);
        buffer.extend_from_slice(&data);
    }
    Ok(Bytes::from(buffer))
}

fn over_limit(limit: usize, length: Option<u64>) -> ApiError {
    let told = length.map_or(String::new(), |length| {
        format!(" (its Content-Length is {length})")
    });
    ApiError::PayloadTooLarge(format!(
        "The request body is over the limit of {limit} bytes{told}."
    ))
}

fn busy(exhausted: Exhausted) -> ApiError {
    ApiError::Busy {
        detail: format!(
            "This server is holding as many request bodies as it may at once ({} bytes in all), so this request was not read and nothing was created. Send it again after the number of seconds in the Retry-After header.",
            exhausted.budget_bytes
        ),
        retry_after_seconds: 1,
    }
}

/// A body the connection could not deliver. hyper's framing errors (chunk
/// sizes, an early end) are I/O errors whose text names what was wrong with
/// the bytes sent.
fn unreadable(error: &axum::Error) -> ApiError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    let mut cause = None;
    while let Some(current) = source {
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            cause = Some(io.to_string());
        }
        source = current.source();
    }
    match cause {
        Some(cause) => ApiError::BadRequest(format!(
            "The request body could not be read: {cause}. Send it with a correct Content-Length, or as well-formed chunks."
        )),
        None => ApiError::BadRequest(
            "The request body could not be read: its framing is malformed or it ended early. Send it with a correct Content-Length, or as well-formed chunks.".to_owned(),
        ),
    }
}
