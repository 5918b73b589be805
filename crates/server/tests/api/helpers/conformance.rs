//! Every answer the suite receives, checked against the JSON Schemas written
//! by hand from the specification's tables (`tests/conformance/schemas/`).
//!
//! A layer outside every layer of the service looks at each answer on its way
//! out; a violation is recorded, not raised there (a panic in the server
//! would become a 500), and [`Checked`] fails the test that received it when
//! its `TestApp` is dropped.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::Router;
use serde_json::Value;
use std::sync::{Arc, LazyLock, Mutex};

macro_rules! schema {
    ($file:literal) => {
        include_str!(concat!("../../../../../tests/conformance/schemas/", $file))
    };
}

/// The specification's schemas, compiled once.
pub struct Schemas {
    pub job_created: jsonschema::Validator,
    pub verify_result: jsonschema::Validator,
    pub trade_search: jsonschema::Validator,
    pub categories: jsonschema::Validator,
    pub error: jsonschema::Validator,
}

/// The compiled schemas.
pub static SCHEMAS: LazyLock<Schemas> = LazyLock::new(|| Schemas {
    job_created: compile(schema!("job-created.json")),
    verify_result: compile(schema!("verify-result.json")),
    trade_search: compile(schema!("trade-search.json")),
    categories: compile(schema!("categories.json")),
    error: compile(schema!("error.json")),
});

fn compile(text: &str) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(text).expect("a schema is JSON");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("a schema compiles")
}

/// Every violation of `validator` by `body`, each with where it is.
pub fn violations(validator: &jsonschema::Validator, body: &Value) -> Vec<String> {
    validator
        .iter_errors(body)
        .map(|error| format!("at `{}`: {error}", error.instance_path()))
        .collect()
}

/// The schema an answer must satisfy, if the specification describes it.
fn schema_for(
    method: &Method,
    path: &str,
    status: StatusCode,
) -> Option<(&'static str, &'static jsonschema::Validator)> {
    let schemas = &*SCHEMAS;
    if status.is_client_error() || status.is_server_error() {
        return Some(("error", &schemas.error));
    }
    let affiliate = path.strip_prefix(intake_api::BASE_PATH);
    match (method, affiliate, status.as_u16()) {
        (&Method::POST, Some("/jobs" | "/jobs/with-attachments"), 201) => {
            Some(("job-created", &schemas.job_created))
        }
        (&Method::POST, Some("/verify/jobs/with-attachments"), 200) => {
            Some(("verify-result", &schemas.verify_result))
        }
        (&Method::GET, Some("/trades/search"), 200) => {
            Some(("trade-search", &schemas.trade_search))
        }
        (&Method::GET, None, 200) if path == "/api/v1/category" => {
            Some(("categories", &schemas.categories))
        }
        _ => None,
    }
}

/// The violations the answers of one test's server showed.
#[derive(Clone, Default)]
pub struct Checked(Arc<Mutex<Vec<String>>>);

impl Checked {
    /// Wraps `router` so that every answer is checked.
    pub fn wrap(&self, router: Router) -> Router {
        let checked = self.clone();
        router.layer(axum::middleware::from_fn(
            move |request: Request, next: Next| {
                let checked = checked.clone();
                async move { checked.check(request, next).await }
            },
        ))
    }

    async fn check(&self, request: Request, next: Next) -> Response {
        let method = request.method().clone();
        let path = request.uri().path().to_owned();
        let response = next.run(request).await;
        let status = response.status();
        let Some((name, validator)) = schema_for(&method, &path, status) else {
            return response;
        };
        let (parts, body) = response.into_parts();
        let bytes = match axum::body::to_bytes(body, usize::MAX).await {
            Ok(bytes) => bytes,
            // A body that failed on its way out is the client's to see.
            Err(_) => return Response::from_parts(parts, Body::empty()),
        };
        let content_type = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default();
        let expected_type = if name == "error" {
            "application/problem+json"
        } else {
            "application/json"
        };
        let encoding = parts
            .headers
            .get(header::CONTENT_ENCODING)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("identity");
        let plain = match encoding {
            "identity" => bytes.to_vec(),
            "gzip" => {
                let mut plain = Vec::new();
                std::io::Read::read_to_end(
                    &mut flate2::read::GzDecoder::new(&bytes[..]),
                    &mut plain,
                )
                .expect("a gzip body decodes");
                plain
            }
            // Other encodings are left to the tests that ask for them.
            _ => return Response::from_parts(parts, Body::from(bytes)),
        };
        let mut found = Vec::new();
        if !content_type.starts_with(expected_type) {
            found.push(format!(
                "Content-Type `{content_type}`, not {expected_type}"
            ));
        }
        match serde_json::from_slice::<Value>(&plain) {
            Ok(body) => found.extend(violations(validator, &body)),
            Err(error) => found.push(format!("the body is not JSON: {error}")),
        }
        if !found.is_empty() {
            let mut all = self.0.lock().unwrap();
            all.extend(
                found
                    .into_iter()
                    .map(|problem| format!("{method} {path} -> {status} ({name}.json): {problem}")),
            );
        }
        Response::from_parts(parts, Body::from(bytes))
    }

    /// Fails the test if any answer broke a schema (unless it is failing already).
    pub fn assert_none(&self) {
        let found = std::mem::take(&mut *self.0.lock().unwrap());
        if !found.is_empty() && !std::thread::panicking() {
            panic!(
                "answers that break the specification's schemas:\n{}",
                found.join("\n")
            );
        }
    }
}
