//! `GET /preferred-start-options`.

use axum::Json;
use intake_api::options::{preferred_start_options, PreferredStartOption};

/// The five preferred-start options, in their published order.
#[utoipa::path(
    get,
    operation_id = "listPreferredStartOptions",
    path = "/preferred-start-options",
    tag = "lookups",
    security(("signature" = [])),
    responses(
        (status = 200, description = "The options", body = [PreferredStartOption]),
        (status = 401, description = "Missing or invalid signature", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn list() -> Json<Vec<PreferredStartOption>> {
    Json(preferred_start_options())
}
