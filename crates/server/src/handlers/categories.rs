//! `GET /api/v1/category`: the category tree, cacheable.

use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// Clients may reuse the answer for an hour, then revalidate with the ETag.
const CACHE_CONTROL: &str = "public, max-age=3600";

/// The parent categories, each with its sub categories.
#[utoipa::path(
    get,
    operation_id = "listCategories",
    path = "/api/v1/category",
    tag = "lookups",
    responses(
        (status = 200, description = "The category tree: parents, each with its sub categories", body = [intake_api::categories::CategoryNode],
         headers(("ETag" = String, description = "Strong validator of this tree"), ("Cache-Control" = String))),
        (status = 304, description = "The tree has not changed since the ETag given in If-None-Match")
    )
)]
pub async fn list(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let snapshot = state.directory.current();
    let etag = snapshot.categories_etag.clone();
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .any(|value| matches(value, &etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else if accepts_gzip(&headers) {
        let mut response = snapshot.categories_gzip.clone().into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        response
    } else {
        snapshot.categories_body.clone().into_response()
    };
    let headers = response.headers_mut();
    if !fresh {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::ETAG, etag);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL),
    );
    response
}

/// Whether `Accept-Encoding` lists gzip (or `*`) with a non-zero weight.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    let items = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok());
    items.flat_map(|text| text.split(',')).any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let coding = parts.next().unwrap_or_default();
        let weight = parts
            .find_map(|param| param.strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok());
        (coding.eq_ignore_ascii_case("gzip") || coding == "*") && weight != Some(0.0)
    })
}

/// `If-None-Match` compares weakly (RFC 9110 §13.1.2): `W/` prefixes are ignored and `*` matches.
fn matches(value: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(text) = value.to_str() else {
        return false;
    };
    let ours = etag.to_str().unwrap_or_default();
    text.split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == ours)
}
