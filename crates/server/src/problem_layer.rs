//! Turns every error answer into the problem body, and logs it once.
//!
//! Handlers attach a [`ProblemDetail`]; answers made elsewhere (the router's
//! 404 and 405, body-limit 413, extractor rejections, a caught panic) carry
//! plain text, which becomes the detail for 4xx. A 5xx never shows internal text.

use crate::error::{InternalCause, ProblemDetail};
use crate::log_text::Escaped;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use intake_api::problem::{Problem, PROBLEM_CONTENT_TYPE};

/// Longest plain-text body read back as a detail.
const MAX_TEXT_DETAIL: usize = 4 * 1024;

/// Middleware: see the module documentation.
pub async fn problem_layer(request: Request, next: Next) -> Response {
    let instance = request.uri().path().to_owned();
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let cause = parts
        .extensions
        .remove::<InternalCause>()
        .map(|cause| cause.0);
    let detail = match parts.extensions.remove::<ProblemDetail>() {
        Some(ProblemDetail(detail)) => detail,
        None => plain_text_detail(status, body).await,
    };
    let detail = if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
        "The service failed to handle this request. Quote the x-request-id header of this answer when reporting it.".to_owned()
    } else {
        detail
    };
    // The detail may quote what the client sent (a search parameter with a
    // line break in it): escaped, it stays on its log line.
    if status.is_server_error() {
        tracing::error!(status = status.as_u16(), cause = %Escaped(cause.as_deref().unwrap_or("-")), detail = %Escaped(&detail), "request failed");
    } else {
        tracing::info!(status = status.as_u16(), detail = %Escaped(&detail), "request refused");
    }
    let problem = Problem::new(status.as_u16(), detail, instance);
    let bytes = serde_json::to_vec(&problem).expect("a problem always serialises");
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(PROBLEM_CONTENT_TYPE),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

async fn plain_text_detail(status: StatusCode, body: Body) -> String {
    let text = match axum::body::to_bytes(body, MAX_TEXT_DETAIL).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_owned(),
        Err(_) => String::new(),
    };
    if !text.is_empty() {
        return text;
    }
    match status {
        StatusCode::NOT_FOUND => "No such resource. The affiliate API lives under /v1/affiliate-job; see /v1/affiliate-job/openapi.json.".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "This resource does not accept this method; the Allow header lists the ones it does.".to_owned(),
        StatusCode::PAYLOAD_TOO_LARGE => "The request body is over the size limit.".to_owned(),
        StatusCode::REQUEST_TIMEOUT => "The request took too long to arrive.".to_owned(),
        StatusCode::SERVICE_UNAVAILABLE => "The service is busy or shutting down; retry shortly.".to_owned(),
        other => other.canonical_reason().unwrap_or("Error").to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_server_failure_is_a_500_problem_that_shows_no_internal_text() {
        let app = Router::new()
            .route(
                "/v1/affiliate-job/trades/search",
                get(|| async {
                    ApiError::Internal("connection to postgres://user:hunter2@db refused".into())
                }),
            )
            .layer(axum::middleware::from_fn(problem_layer));
        let request = Request::get("/v1/affiliate-job/trades/search?postcode=SW1A1AA&category=10")
            .body(Body::empty())
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            PROBLEM_CONTENT_TYPE
        );
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let problem: Problem = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            (
                problem.status,
                problem.title.as_str(),
                problem.instance.as_str()
            ),
            (
                500,
                "Internal Server Error",
                "/v1/affiliate-job/trades/search"
            )
        );
        assert_eq!(
            problem.type_uri,
            "https://www.rfc-editor.org/rfc/rfc9110#status.500"
        );
        assert!(!problem.detail.contains("hunter2") && !problem.detail.contains("postgres"));
    }
}
