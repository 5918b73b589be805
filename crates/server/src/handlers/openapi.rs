//! `GET /openapi.json`: the document generated from the wire types.

use axum::extract::Extension;
use axum::Json;
use std::sync::Arc;
use utoipa::openapi::OpenApi;

/// The OpenAPI 3.1 document of the service, built once at start.
pub async fn document(Extension(document): Extension<Arc<OpenApi>>) -> Json<OpenApi> {
    Json((*document).clone())
}
