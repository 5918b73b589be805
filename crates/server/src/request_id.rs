//! Request ids: the client's `x-request-id` when it sends one, else a new UUID (tower-http's
//! `SetRequestIdLayer`), in every log line of the request and on its answer.

use axum::extract::Request;
use axum::http::HeaderName;

/// The header that carries the id, both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// On a request that arrived without an `x-request-id`: the one it carries now was made by
/// the server, so an echo of what the client sent leaves it out.
#[derive(Clone, Copy, Debug)]
pub struct RequestIdMadeHere;

/// Marks a request that has no id yet; runs before `SetRequestIdLayer` gives it one.
pub fn mark_if_missing(mut request: Request) -> Request {
    if !request.headers().contains_key(REQUEST_ID) {
        request.extensions_mut().insert(RequestIdMadeHere);
    }
    request
}
