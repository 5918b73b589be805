//! The developer portal (issue 19): pages for integrators, every file built
//! into the binary, so they work offline and behind a firewall.
//!
//! - `/v1/affiliate-job/docs/`: the API reference, Swagger UI (vendored by
//!   `utoipa-swagger-ui`) rendering the service's own `openapi.json`;
//! - `/v1/affiliate-job/portal/`: the portal's front page;
//! - `/v1/affiliate-job/portal/playground`: the signature playground, which
//!   signs in the browser (Web Crypto) and never sends the secret;
//! - `/v1/affiliate-job/portal/samples/{file}`: the samples of `docs/samples/`.
//!
//! The pages are not part of the API and not in its OpenAPI document. The
//! portal's own pages load only their own files (`Content-Security-Policy`).

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use intake_api::BASE_PATH;
use utoipa_swagger_ui::{Config, SwaggerUi};

const INDEX: &str = include_str!("portal/index.html");
const PLAYGROUND: &str = include_str!("portal/playground.html");
const PLAYGROUND_JS: &str = include_str!("portal/playground.js");
const CSS: &str = include_str!("portal/portal.css");

/// The samples of `docs/samples/`, by file name: each creates a job and a
/// job with a photo, and each runs in CI (`crates/cli/tests/cli/samples.rs`).
const SAMPLES: [(&str, &str); 5] = [
    (
        "create_job.sh",
        include_str!("../../../docs/samples/create_job.sh"),
    ),
    (
        "create_job.py",
        include_str!("../../../docs/samples/create_job.py"),
    ),
    (
        "create_job.mjs",
        include_str!("../../../docs/samples/create_job.mjs"),
    ),
    (
        "create_job.php",
        include_str!("../../../docs/samples/create_job.php"),
    ),
    (
        "CreateJob.java",
        include_str!("../../../docs/samples/CreateJob.java"),
    ),
];

/// The portal's pages load nothing from elsewhere and run no inline script;
/// the playground's requests go to this service only.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The portal's routes, under the base path.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let docs = SwaggerUi::new(format!("{BASE_PATH}/docs")).config(
        Config::new([format!("{BASE_PATH}/openapi.json")])
            .try_it_out_enabled(false)
            .display_operation_id(true)
            // No call to swagger.io's online validator: nothing leaves the page.
            .validator_url("none"),
    );
    let portal = format!("{BASE_PATH}/portal");
    Router::from(docs)
        .route(
            &portal,
            get(|| async { Redirect::permanent(&format!("{BASE_PATH}/portal/")) }),
        )
        .route(
            &format!("{portal}/"),
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            &format!("{portal}/playground"),
            get(|| async { page(PLAYGROUND, "text/html; charset=utf-8") }),
        )
        .route(
            &format!("{portal}/playground.js"),
            get(|| async { page(PLAYGROUND_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            &format!("{portal}/portal.css"),
            get(|| async { page(CSS, "text/css; charset=utf-8") }),
        )
        .route(&format!("{portal}/samples/{{file}}"), get(sample))
}

/// `GET /portal/samples/{file}`: a sample as text.
async fn sample(Path(file): Path<String>) -> Response {
    match SAMPLES.iter().find(|(name, _)| *name == file) {
        Some((_, text)) => page(text, "text/plain; charset=utf-8"),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// One of the portal's files, with its type and the portal's policy.
fn page(body: &'static str, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
