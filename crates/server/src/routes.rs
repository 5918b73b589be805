//! Every route of the service, in one place.

use crate::auth::{require_signature, require_signature_multipart};
use crate::handlers::{categories, health, images, jobs, openapi, options, trades, verify};
use crate::limits::{document_429, limit_per_key};
use crate::openapi::ApiDoc;
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::{Extension, Router};
use intake_api::BASE_PATH;
use std::sync::Arc;
use utoipa::OpenApi;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouter};
use utoipa_axum::routes;

/// The affiliate routes that need a signature, relative to the base path.
fn signed(state: &AppState) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(signed_route(state, routes!(options::list)))
        .routes(signed_route(state, routes!(trades::search::search)))
        .routes(signed_route(state, routes!(jobs::create::create)))
        .routes(signed_route(state, routes!(jobs::get::get)))
        .routes(multipart_route(
            state,
            routes!(jobs::with_attachments::create_with_attachments),
        ))
        .routes(multipart_route(
            state,
            routes!(verify::verify_with_attachments),
        ))
        .routes(signed_route(state, routes!(verify::verify_job)))
}

/// Puts the signature check in front of a route's handlers only, so a wrong
/// method still answers 405 rather than 401; then the key's limits, which
/// need the key the signature check found.
fn signed_route(
    state: &AppState,
    (schemas, mut paths, method_router): UtoipaMethodRouter<AppState>,
) -> UtoipaMethodRouter<AppState> {
    let auth = axum::middleware::from_fn_with_state(state.clone(), require_signature);
    let limits = axum::middleware::from_fn_with_state(state.clone(), limit_per_key);
    document_429(&mut paths);
    (
        schemas,
        paths,
        method_router.route_layer(limits).route_layer(auth),
    )
}

/// Like [`signed_route`] for a multipart route: the signature layer reads the
/// body under the multipart limit, and the handler's extractor takes what it
/// read without a second, smaller limit.
fn multipart_route(
    state: &AppState,
    (schemas, mut paths, method_router): UtoipaMethodRouter<AppState>,
) -> UtoipaMethodRouter<AppState> {
    let auth = axum::middleware::from_fn_with_state(state.clone(), require_signature_multipart);
    let limits = axum::middleware::from_fn_with_state(state.clone(), limit_per_key);
    document_429(&mut paths);
    let method_router = method_router
        .layer(DefaultBodyLimit::disable())
        .route_layer(limits)
        .route_layer(auth);
    (schemas, paths, method_router)
}

/// The public routes: the category tree, the operational ones and the photo
/// links of leads (the link carries its own signature).
fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(categories::list))
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .routes(routes!(images::get))
}

/// The router and the OpenAPI document describing exactly its routes.
pub fn router(state: AppState) -> (Router, utoipa::openapi::OpenApi) {
    let (router, mut document) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest(BASE_PATH, signed(&state))
        .merge(public())
        .split_for_parts();
    let openapi_path = format!("{BASE_PATH}/openapi.json");
    document.paths.add_path_operation(
        &openapi_path,
        vec![utoipa::openapi::HttpMethod::Get],
        utoipa::openapi::path::OperationBuilder::new()
            .summary(Some("This OpenAPI 3.1 document"))
            .tag("operations")
            .response(
                "200",
                utoipa::openapi::ResponseBuilder::new()
                    .description("The document")
                    .build(),
            )
            .build(),
    );
    let router = router
        .route(&openapi_path, get(openapi::document))
        .merge(crate::portal::router())
        .layer(Extension(Arc::new(document.clone())))
        .with_state(state);
    (router, document)
}
