//! The signature-auth layer (DESIGN.md §4): finds the key, checks the
//! signature on the request's head under the key's policy, then the key's
//! environment, and only then reads the body, checking it against the
//! covered digest as it arrives.
//!
//! The signing string holds a digest header's value, not the body, so an
//! unauthenticated request is refused before a byte of its body is read (or
//! a share of the body budget taken): a client without a key cannot make
//! the server hold what it sends. hyper then reads at most what it already
//! has of the body and closes the connection after the 401, rather than
//! draining the rest; a client that sent `Expect: 100-continue` gets its
//! 401 without being asked for the body.
//!
//! Unknown, revoked and wrong-secret keys all give the same 401 after the
//! same work: an unknown or revoked key's place is taken by a decoy key made
//! at start, whose sealed secret is opened like a real one, and the MAC is
//! computed all the same and made to fail.
//!
//! A signature that does not pin its request (no `(request-target)`, or a body
//! without a covered digest) is then bound to the first request it came with
//! (`bindings`), so it cannot be moved to another method, path or body.

pub mod bindings;
mod body;

use crate::access_log::SignedBy;
use crate::body_budget::Share;
use crate::error::ApiError;
use crate::limits::retry_after_seconds;
use crate::log_text::Escaped;
use crate::state::AppState;
use crate::telemetry;
use axum::body::Body;
use axum::extract::{OriginalUri, Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use intake_core::intake::Caller;
use intake_core::{ApiKey, Environment, KeyPolicy, MasterKey, NewKey, SecretString};
use intake_signature::{Message, SignatureHeader, VerifyOptions};
use std::time::Instant;
use time::OffsetDateTime;

/// The affiliate a verified request came from; handlers take it as an extension.
#[derive(Debug, Clone)]
pub struct AuthenticatedKey {
    /// The `keyId` that signed the request.
    pub key_id: String,
    /// The affiliate application's name.
    pub name: String,
    /// The key's environment (always the server's).
    pub environment: Environment,
    /// The request's signature bytes: a repeat of the very same signed request
    /// carries the same ones (see the job handler's replay protection).
    pub signature: Vec<u8>,
}

impl AuthenticatedKey {
    /// The key as the intake pipeline knows it.
    pub fn caller(&self) -> Caller {
        Caller {
            key_id: self.key_id.clone(),
            application: self.name.clone(),
            environment: self.environment,
        }
    }
}

/// A key that is never stored, standing in for an unknown or revoked key
/// so that such a key costs what a known one with a wrong secret costs: a
/// key id of the same shape and a secret sealed under the same master key.
pub(crate) fn decoy_key(master_key: &MasterKey, environment: Environment) -> ApiKey {
    NewKey::generate("decoy", environment, KeyPolicy::default(), master_key).key
}

/// Middleware for every signed route with a JSON (or no) body.
pub async fn require_signature(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let limit = state.config.body_limit;
    signed(&state, request, next, limit).await
}

/// Middleware for the signed multipart routes: the same check, under the
/// larger multipart body limit (a job with its images).
pub async fn require_signature_multipart(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let limit = state.config.multipart_body_limit;
    signed(&state, request, next, limit).await
}

async fn signed(state: &AppState, request: Request, next: Next, body_limit: usize) -> Response {
    match authenticate(state, request, body_limit).await {
        Ok((request, share)) => {
            let response = next.run(request).await;
            // The body's share of the budget is held until the answer is
            // made: the handler works on the body (and what it builds from
            // it) until then, though its extractors let go of the request.
            drop(share);
            response
        }
        Err(error) => error.into_response(),
    }
}

async fn authenticate(
    state: &AppState,
    request: Request,
    body_limit: usize,
) -> Result<(Request, Share), ApiError> {
    let (mut parts, body) = request.into_parts();
    // First, before the key is looked up: the parser refuses an oversized or
    // overlong header without reading it, so an unauthenticated client cannot make this costly.
    let signature = signature_header(&parts.headers)?;
    // Nesting strips the base path from `uri`; the signature covers the path as sent.
    let uri = parts
        .extensions
        .get::<OriginalUri>()
        .map_or(&parts.uri, |original| &original.0);
    let message = message_of(&parts.method, uri, &parts.headers);

    let found = state
        .store
        .find_key(&signature.key_id)
        .await?
        .filter(ApiKey::is_active);
    // Whether the key exists or not, a sealed secret is opened and a MAC computed.
    let subject = found.as_ref().unwrap_or(state.decoy_key.as_ref());
    let secret = open_secret(state, subject)?;
    let options = VerifyOptions {
        now: OffsetDateTime::now_utc(),
        max_skew: state.config.max_skew,
        required: subject.policy.required_headers.clone(),
        base_path: Some(intake_api::BASE_PATH.to_owned()),
    };
    // The decoy's secret is never the one to check against: `None` makes the MAC fail.
    let known_secret = found.as_ref().map(|_| secret.expose().as_bytes());
    let mut head = intake_signature::verify_head(&message, &signature, known_secret, &options)
        .map_err(|error| refused(&signature, &error))?;
    let Some(key) = found else {
        return Err(ApiError::Internal(
            "a signature verified without a key".to_owned(),
        ));
    };
    if key.environment != state.config.environment {
        telemetry::signature_refused("wrong_environment");
        return Err(ApiError::Unauthorized(format!(
            "The key `{}` belongs to the {} environment, but this is the {} server. Use a {} key here, or send this request to the {} server.",
            key.key_id, key.environment, state.config.environment, state.config.environment, key.environment
        )));
    }

    let body = body::read_body(
        body,
        body_limit,
        state.config.connections.body_read_timeout,
        &state.body_budget,
        &mut head,
    )
    .await?;
    head.finish().map_err(|error| refused(&signature, &error))?;
    let target = uri.path_and_query().map_or("/", |pq| pq.as_str());
    bind_unpinned(
        state,
        &key.key_id,
        &signature,
        parts.method.as_str(),
        target,
        &body.bytes,
    )?;
    tracing::debug!(key_id = %key.key_id, "signature verified");
    if let Some(signed_by) = parts.extensions.get::<SignedBy>() {
        signed_by.set(&key.key_id);
    }
    parts.extensions.insert(AuthenticatedKey {
        key_id: key.key_id,
        name: key.name,
        environment: key.environment,
        signature: signature.signature,
    });
    Ok((
        Request::from_parts(parts, Body::from(body.bytes)),
        body.share,
    ))
}

/// The 401 of a signature that did not verify, logged once.
fn refused(signature: &SignatureHeader, error: &intake_signature::VerifyError) -> ApiError {
    // The key id is the client's text until it is found.
    tracing::info!(key_id = %Escaped(&signature.key_id), reason = error.summary(), "signature refused");
    telemetry::signature_refused(error.code());
    ApiError::Unauthorized(error.to_string())
}

/// Binds a signature that does not pin its request to this request, or
/// refuses it: 401 when it came with another request before, 429 when its key
/// holds its whole share of bound signatures, 503 when the map is full.
fn bind_unpinned(
    state: &AppState,
    key_id: &str,
    signature: &SignatureHeader,
    method: &str,
    target: &str,
    body: &[u8],
) -> Result<(), ApiError> {
    if bindings::pins_its_request(&signature.headers, !body.is_empty()) {
        return Ok(());
    }
    let bound = state.bindings.bind(
        key_id,
        bindings::signature_hash(key_id, &signature.signature),
        bindings::request_hash(method, target, body),
        Instant::now(),
    );
    const SIGN_MORE: &str = "Sign `(request-target)` and, for a request with a body, a digest of it (`headers=\"(request-target) host date digest\"`) so that each request has its own signature.";
    match bound {
        Ok(_) => Ok(()),
        Err(bindings::Refused::OtherRequest) => {
            tracing::info!(key_id, "signature refused: already used for another request");
            telemetry::signature_refused("reused");
            Err(ApiError::Unauthorized(format!(
                "This signature was already used for another request (another method, path or body) in the last {} seconds. A signature that does not cover `(request-target)`, or a body that it does not cover with `digest` or `content-digest`, holds only for the first request it was sent with; with only `date` signed, two requests sent with the same Date have the same signature. {SIGN_MORE}",
                state.bindings.lifetime().as_secs()
            )))
        }
        Err(bindings::Refused::KeyShareFull { share, retry_after }) => {
            telemetry::rate_limited("unpinned_signatures");
            Err(ApiError::TooManyRequests {
                detail: format!(
                    "The key `{key_id}` already has {share} signatures in use that do not cover `(request-target)` and a digest, the most one key may have at once (each is kept for {} seconds to hold it to its first request). Retry after the number of seconds in the Retry-After header. {SIGN_MORE} Such requests need no room.",
                    state.bindings.lifetime().as_secs()
                ),
                retry_after_seconds: retry_after_seconds(retry_after),
            })
        }
        Err(bindings::Refused::Full { cap, retry_after }) => Err(ApiError::Busy {
            detail: format!(
                "This server already holds {cap} signatures that do not cover `(request-target)` and a digest, the most it keeps; new ones are refused until the oldest expires. Retry after the number of seconds in the Retry-After header. {SIGN_MORE} Such requests are never refused for this."
            ),
            retry_after_seconds: retry_after_seconds(retry_after),
        }),
    }
}

/// The `Authorization: Signature ...` header, else a `Signature` header.
fn signature_header(headers: &HeaderMap) -> Result<SignatureHeader, ApiError> {
    let authorization = single_text(headers, header::AUTHORIZATION.as_str())?;
    let signature = single_text(headers, "signature")?;
    let value = match (authorization, signature) {
        (Some(value), _) if has_signature_scheme(value) => value,
        (Some(_), Some(value)) | (None, Some(value)) => value,
        (Some(_), None) => {
            telemetry::signature_refused("other_scheme");
            return Err(ApiError::Unauthorized(
                "The Authorization header must use the Signature scheme: `Authorization: Signature keyId=\"...\",algorithm=\"hmac-sha256\",headers=\"(request-target) host date digest\",signature=\"...\"`.".to_owned(),
            ));
        }
        (None, None) => {
            telemetry::signature_refused("missing");
            return Err(ApiError::Unauthorized(
                "This endpoint needs a signed request: send `Authorization: Signature keyId=\"...\",algorithm=\"hmac-sha256\",headers=\"(request-target) host date digest\",signature=\"...\"` with a Date header.".to_owned(),
            ));
        }
    };
    SignatureHeader::parse(value).map_err(|error| {
        telemetry::signature_refused("malformed");
        ApiError::Unauthorized(format!("The Signature header is malformed: {error}"))
    })
}

/// Whether an `Authorization` value starts with the `Signature` scheme. Only that word is
/// looked at: the value may be any size until the parser refuses it for its length.
fn has_signature_scheme(value: &str) -> bool {
    value
        .trim_start()
        .get(.."signature".len())
        .is_some_and(|word| word.eq_ignore_ascii_case("signature"))
}

fn single_text<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>, ApiError> {
    let mut values = headers.get_all(name).iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        telemetry::signature_refused("malformed");
        return Err(ApiError::Unauthorized(format!(
            "Send one `{name}` header, not several."
        )));
    }
    first.to_str().map(Some).map_err(|_| {
        telemetry::signature_refused("malformed");
        ApiError::Unauthorized(format!(
            "The `{name}` header holds characters outside visible ASCII."
        ))
    })
}

/// The request as the signature crate sees it: method, target byte-exact, headers in arrival order.
/// Header bytes outside UTF-8 are replaced, so such a header can never verify if covered.
fn message_of(method: &axum::http::Method, uri: &axum::http::Uri, headers: &HeaderMap) -> Message {
    let target = uri.path_and_query().map(|pq| pq.as_str()).unwrap_or("/");
    let mut message = Message::new(method.as_str(), target);
    for (name, value) in headers {
        message.push_header(name.as_str(), &String::from_utf8_lossy(value.as_bytes()));
    }
    message
}

fn open_secret(state: &AppState, key: &ApiKey) -> Result<SecretString, ApiError> {
    state
        .master_key
        .open(&key.key_id, &key.secret)
        .map_err(|error| ApiError::Internal(format!("key {}: {error}", key.key_id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decoy_is_shaped_like_a_real_key_and_its_secret_opens_under_the_master_key() {
        let master = MasterKey::generate();
        let decoy = decoy_key(&master, Environment::Staging);
        let real = NewKey::generate("Acme", Environment::Staging, KeyPolicy::default(), &master);
        assert_eq!(decoy.key_id.len(), real.key.key_id.len());
        assert_eq!(
            decoy.secret.ciphertext.len(),
            real.key.secret.ciphertext.len()
        );
        assert!(master.open(&decoy.key_id, &decoy.secret).is_ok());
        assert!(decoy.policy.required_headers.is_empty());
    }
}
