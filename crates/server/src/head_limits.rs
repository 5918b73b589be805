//! Limits on a request's head (its target and headers), checked before
//! anything else reads them.
//!
//! hyper refuses a head it cannot hold (over its read buffer, more than 100
//! headers, a target over 64 KiB) with a 431 or 414 of its own, without a
//! body. These limits are lower, so that every head a client could
//! reasonably send over a limit is answered here, with the problem body.
//! A connection's first head beyond hyper's bounds, or one hyper cannot
//! parse at all, arrives here as a stand-in request carrying the verdict
//! (see `serve::first_head`), and is answered here too.

use crate::error::ApiError;
use crate::serve::{MalformedHead, READ_BUFFER_BYTES};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Longest request target (path and query) accepted, in bytes: 414 above it.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// Largest header section accepted, in bytes, counting each header as
/// `name: value` and its line end: 431 above it.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// Most header lines accepted: 431 above it (hyper's own cap is 100).
pub const MAX_HEADERS: usize = 64;

// hyper's own caps: 100 header lines, a target of 65,534 bytes, and a head
// must fit in its read buffer.
const _: () = assert!(MAX_HEADERS < 100 && MAX_URI_BYTES < 65_534);
const _: () = assert!(MAX_URI_BYTES + MAX_HEADER_BYTES + 64 < READ_BUFFER_BYTES);

/// Middleware: see the module documentation.
pub async fn limit_head(request: Request, next: Next) -> Response {
    if let Some(malformed) = request.extensions().get::<MalformedHead>() {
        let mut response = malformed_head(malformed.clone()).into_response();
        // The connection ends after this answer, as after hyper's own.
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    match check(request.uri(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

fn malformed_head(malformed: MalformedHead) -> ApiError {
    match malformed.status {
        StatusCode::URI_TOO_LONG => ApiError::UriTooLong(malformed.detail),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => ApiError::HeadersTooLarge(malformed.detail),
        _ => ApiError::BadRequest(malformed.detail),
    }
}

fn check(uri: &Uri, headers: &HeaderMap) -> Result<(), ApiError> {
    let target = uri
        .path_and_query()
        .map_or(0, |target| target.as_str().len())
        + uri
            .authority()
            .map_or(0, |authority| authority.as_str().len())
        + uri.scheme_str().map_or(0, str::len);
    if target > MAX_URI_BYTES {
        return Err(ApiError::UriTooLong(format!(
            "The request target is {target} bytes long, over the limit of {MAX_URI_BYTES}. Search parameters are short; check the query string."
        )));
    }
    if headers.len() > MAX_HEADERS {
        return Err(ApiError::HeadersTooLarge(format!(
            "The request has {} header lines, over the limit of {MAX_HEADERS}.",
            headers.len()
        )));
    }
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + ": \r\n".len())
        .sum();
    if bytes > MAX_HEADER_BYTES {
        return Err(ApiError::HeadersTooLarge(format!(
            "The request's headers are {bytes} bytes, over the limit of {MAX_HEADER_BYTES}."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderName, HeaderValue, StatusCode};

    fn status(uri: &str, headers: &HeaderMap) -> StatusCode {
        match check(&uri.parse().unwrap(), headers) {
            Ok(()) => StatusCode::OK,
            Err(error) => error.into_response().status(),
        }
    }

    #[test]
    fn a_target_at_the_limit_passes_and_one_byte_more_is_414() {
        let at = format!("/{}", "a".repeat(MAX_URI_BYTES - 1));
        let over = format!("/{}", "a".repeat(MAX_URI_BYTES));
        assert_eq!(status(&at, &HeaderMap::new()), StatusCode::OK);
        assert_eq!(status(&over, &HeaderMap::new()), StatusCode::URI_TOO_LONG);
    }

    #[test]
    fn a_header_section_over_its_size_or_its_line_count_is_431() {
        let mut big = HeaderMap::new();
        // "x-big: " + value + "\r\n"
        let value = "v".repeat(MAX_HEADER_BYTES - "x-big: \r\n".len());
        big.insert("x-big", HeaderValue::from_str(&value).unwrap());
        assert_eq!(status("/healthz", &big), StatusCode::OK);
        big.insert("x", HeaderValue::from_static("1"));
        assert_eq!(
            status("/healthz", &big),
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE
        );

        let mut many = HeaderMap::new();
        for n in 0..MAX_HEADERS {
            let name = HeaderName::from_bytes(format!("x-{n}").as_bytes()).unwrap();
            many.insert(name, HeaderValue::from_static("1"));
        }
        assert_eq!(status("/healthz", &many), StatusCode::OK);
        many.append("x-0", HeaderValue::from_static("2"));
        assert_eq!(
            status("/healthz", &many),
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE
        );
    }
}
