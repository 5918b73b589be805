//! Signing a request, for clients and tests.

#[cfg(test)]
mod tests;

use crate::{Algorithm, Message, SignatureHeader, SigningStringError};

/// Signs `message` (its own `target`) over the `covered` names, in order; an empty list signs
/// only `date`, as a header without a `headers` parameter would.
pub fn sign(
    message: &Message,
    key_id: &str,
    algorithm: Algorithm,
    secret: &[u8],
    covered: &[&str],
) -> Result<SignatureHeader, SigningStringError> {
    sign_with_times(message, key_id, algorithm, secret, covered, None, None)
}

/// Like [`sign`], also setting the `created` and `expires` parameters (Unix seconds) that the
/// `(created)` and `(expires)` pseudo-headers sign.
pub fn sign_with_times(
    message: &Message,
    key_id: &str,
    algorithm: Algorithm,
    secret: &[u8],
    covered: &[&str],
    created: Option<i64>,
    expires: Option<i64>,
) -> Result<SignatureHeader, SigningStringError> {
    let headers: Vec<String> = if covered.is_empty() {
        vec!["date".to_owned()]
    } else {
        covered.iter().map(|n| n.to_ascii_lowercase()).collect()
    };
    let signing_string = message.signing_string(&headers, &message.target, created, expires)?;
    Ok(SignatureHeader {
        key_id: key_id.to_owned(),
        algorithm,
        headers,
        default_headers: false,
        signature: algorithm.mac(secret, signing_string.as_bytes()),
        created,
        expires,
    })
}
