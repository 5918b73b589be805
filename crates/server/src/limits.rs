//! Per-key limits (issue 7): a token bucket of requests a second with a
//! burst, and a cap on the requests of one key in flight at once.
//!
//! Both apply to the signed routes only, after the signature layer has named
//! the key, so a flood of unsigned or badly signed requests cannot spend a
//! real key's budget. They live in this process's memory: with N processes
//! behind a load balancer a key gets up to N times the configured rate and
//! cap. Each limit is disabled by setting it to 0 (benchmarks do).

mod bucket;
mod slots;

use crate::auth::AuthenticatedKey;
use crate::config::ServerConfig;
use crate::error::ApiError;
use crate::state::AppState;
use crate::telemetry;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bucket::Bucket;
use slots::Slots;
use utoipa::openapi::path::{Operation, Paths};

/// The limits of every key, shared by the requests of this process.
#[derive(Debug, Default)]
pub struct KeyLimits {
    bucket: Option<Bucket>,
    slots: Option<Slots>,
}

impl KeyLimits {
    /// The limits `config` asks for; a zero rate or cap leaves that limit out.
    pub fn new(config: &ServerConfig) -> Self {
        KeyLimits {
            bucket: Bucket::new(config.rate_limit_per_second, config.rate_limit_burst),
            slots: Slots::new(config.max_in_flight_per_key),
        }
    }
}

/// Middleware for the signed routes, inside the signature layer: refuses a
/// request over its key's limits with 429 and `Retry-After`, and otherwise
/// holds one of the key's in-flight slots until the response is sent.
pub async fn limit_per_key(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let Some(key) = request.extensions().get::<AuthenticatedKey>() else {
        // Only reachable if a route were mounted without the signature layer.
        return ApiError::Internal("a signed route ran without its signature layer".to_owned())
            .into_response();
    };
    let limits = &state.limits;
    // The slot first: a request refused for being one too many at once has
    // not spent a token of the bucket.
    let slot = match &limits.slots {
        Some(slots) => match slots.try_take(&key.key_id) {
            Some(slot) => Some(slot),
            None => {
                telemetry::rate_limited("in_flight");
                return too_many_at_once(&key.key_id, slots.cap()).into_response();
            }
        },
        None => None,
    };
    if let Some(bucket) = &limits.bucket {
        if let Err(retry_after_seconds) = bucket.check(&key.key_id) {
            telemetry::rate_limited("rate");
            return over_rate(&key.key_id, bucket, retry_after_seconds).into_response();
        }
    }
    let response = next.run(request).await;
    match slot {
        Some(slot) => slots::hold_until_sent(response, slot),
        None => response,
    }
}

fn over_rate(key_id: &str, bucket: &Bucket, retry_after_seconds: u64) -> ApiError {
    ApiError::TooManyRequests {
        detail: format!(
            "The key `{key_id}` is over its rate limit of {} requests a second (bursts of up to {}). Retry after the number of seconds in the Retry-After header, and spread requests out.",
            bucket.per_second(),
            bucket.burst()
        ),
        retry_after_seconds,
    }
}

fn too_many_at_once(key_id: &str, cap: u32) -> ApiError {
    ApiError::TooManyRequests {
        detail: format!(
            "The key `{key_id}` already has {cap} requests in flight, the most it may have at once. Wait for one of them to be answered, then retry."
        ),
        retry_after_seconds: 1,
    }
}

/// Whole seconds to wait before retrying: `wait` rounded up, at least 1
/// (`Retry-After: 0` would invite an immediate retry that fails again).
pub fn retry_after_seconds(wait: std::time::Duration) -> u64 {
    let whole = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    whole.max(1)
}

/// Adds the 429 answer to every operation of a signed route's document.
pub fn document_429(paths: &mut Paths) {
    for item in paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            add_429(operation);
        }
    }
}

fn add_429(operation: &mut Operation) {
    use utoipa::openapi::header::HeaderBuilder;
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let retry_after = HeaderBuilder::new()
        .schema(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(1)),
        )
        .description(Some("Whole seconds to wait before retrying"))
        .build();
    let response = ResponseBuilder::new()
        .description(
            "Over the key's rate limit, its cap on requests in flight or its share of signatures that do not cover (request-target) and a digest; retry after Retry-After",
        )
        .header("Retry-After", retry_after)
        .content(
            intake_api::problem::PROBLEM_CONTENT_TYPE,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build();
    operation
        .responses
        .responses
        .insert("429".to_owned(), response.into());
}

#[cfg(test)]
mod tests {
    use super::retry_after_seconds;
    use std::time::Duration;

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(retry_after_seconds(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_seconds(Duration::from_millis(999)), 1);
        assert_eq!(retry_after_seconds(Duration::from_secs(1)), 1);
        assert_eq!(retry_after_seconds(Duration::from_millis(1001)), 2);
        assert_eq!(retry_after_seconds(Duration::new(9, 1)), 10);
    }

    #[test]
    fn retry_after_is_never_zero() {
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
    }
}
