//! Liveness and readiness.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// The body of `/healthz` and `/readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok` on a 200.
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "The process is up", body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// The process is up and its store answers.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "Ready to serve", body = Health),
        (status = 503, description = "The store does not answer", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    state.store.ping().await.map_err(|error| {
        crate::telemetry::store_error("http", &error);
        ApiError::Unavailable(error.to_string())
    })?;
    Ok(Json(Health { status: "ok" }))
}
