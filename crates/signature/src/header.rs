//! The signature header: `Authorization: Signature keyId="..",...` or a bare `Signature` header.

mod error;
#[cfg(test)]
mod limit_tests;
mod params;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

pub use error::HeaderError;
use params::{parse_params, Param};

use crate::Algorithm;

/// The longest signature header value [`SignatureHeader::parse`] reads, in bytes. A real header
/// is a few hundred bytes (a key id, an algorithm, a handful of covered names and a base64 MAC
/// of at most 88 characters); a longer one is refused before any of it is read, so what a
/// client sends cannot make parsing cost more than this much text does.
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

/// The most parameters a signature header may carry. The scheme defines six (`keyId`,
/// `algorithm`, `headers`, `signature`, `created`, `expires`); the rest leaves room for the
/// unknown parameters some clients add, which are ignored. Parsing stops at the first one over.
pub const MAX_PARAMETERS: usize = 16;

/// The most names the `headers` parameter may list. The documented list names five and every
/// header a request carries fits well within it; reading stops at the first name over.
pub const MAX_COVERED_HEADERS: usize = 32;

/// A parsed signature header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHeader {
    /// The `keyId` parameter: which secret signed the request.
    pub key_id: String,
    /// The `algorithm` parameter.
    pub algorithm: Algorithm,
    /// The covered names, lowercased, in signing order; `["date"]` when `headers` is absent.
    pub headers: Vec<String>,
    /// The `headers` parameter was absent, so `headers` is the default `["date"]`. Errors then
    /// say that `date` was signed by default, since the client's header names nothing; the
    /// `Display` form leaves the parameter out, as received.
    pub default_headers: bool,
    /// The decoded MAC, exactly as long as the algorithm's output.
    pub signature: Vec<u8>,
    /// The `created` parameter (Unix seconds), used by the `(created)` pseudo-header.
    pub created: Option<i64>,
    /// The `expires` parameter (Unix seconds), used by the `(expires)` pseudo-header.
    pub expires: Option<i64>,
}

/// The raw parameters, each at most once, before validation.
#[derive(Default)]
struct RawParams {
    key_id: Option<String>,
    algorithm: Option<String>,
    headers: Option<String>,
    signature: Option<String>,
    created: Option<String>,
    expires: Option<String>,
}

impl SignatureHeader {
    /// Parses the raw value of an `Authorization` header (`Signature keyId=...`, scheme matched
    /// ignoring case) or of a `Signature` header (the parameters alone).
    ///
    /// Unknown parameters are ignored. `created` and `expires` may be quoted or bare integers
    /// (draft-cavage-12 writes them bare); every other value must be quoted.
    ///
    /// A value over [`MAX_HEADER_BYTES`] is refused before it is read, more than
    /// [`MAX_PARAMETERS`] parameters or more than [`MAX_COVERED_HEADERS`] covered names as soon
    /// as the first one over is reached; everything else is one pass over the value.
    pub fn parse(value: &str) -> Result<Self, HeaderError> {
        if value.len() > MAX_HEADER_BYTES {
            return Err(HeaderError::TooLong {
                length: value.len(),
            });
        }
        let params = parse_params(strip_scheme(value)?)?;
        let raw = collect(params)?;

        let key_id = raw
            .key_id
            .ok_or(HeaderError::MissingParameter { name: "keyId" })?;
        if key_id.is_empty() {
            return Err(HeaderError::EmptyKeyId);
        }
        let signature = raw
            .signature
            .ok_or(HeaderError::MissingParameter { name: "signature" })?;
        let algorithm: Algorithm = raw
            .algorithm
            .ok_or(HeaderError::MissingParameter { name: "algorithm" })?
            .parse()?;
        let default_headers = raw.headers.is_none();
        let headers = match raw.headers {
            Some(list) => covered_names(&list)?,
            None => vec!["date".to_owned()],
        };
        Ok(SignatureHeader {
            key_id,
            algorithm,
            headers,
            default_headers,
            signature: decode_signature(&signature, algorithm)?,
            created: raw.created.map(|v| timestamp("created", v)).transpose()?,
            expires: raw.expires.map(|v| timestamp("expires", v)).transpose()?,
        })
    }

    /// The value for an `Authorization` header: `Signature ` followed by the `Display` form.
    pub fn to_authorization(&self) -> String {
        format!("Signature {self}")
    }
}

/// Removes a leading `Signature` scheme; rejects any other scheme.
fn strip_scheme(value: &str) -> Result<&str, HeaderError> {
    let value = value.trim_matches([' ', '\t']);
    if value.is_empty() {
        return Err(HeaderError::Empty);
    }
    let word_end = value.find([' ', '\t', '=', ',']).unwrap_or(value.len());
    let (word, rest) = value.split_at(word_end);
    // `keyId ="x"` is a parameter with space before `=`, not a scheme called keyId.
    let rest_start = rest.trim_start_matches([' ', '\t']);
    if rest_start.starts_with(['=', ',']) || (rest_start.is_empty() && is_parameter_name(word)) {
        return Ok(value);
    }
    if word.eq_ignore_ascii_case("signature") {
        Ok(rest)
    } else {
        Err(HeaderError::WrongScheme {
            scheme: word.to_owned(),
        })
    }
}

/// A parameter name that is not also the scheme's name, so a lone `keyId` is a broken parameter.
fn is_parameter_name(word: &str) -> bool {
    ["keyid", "algorithm", "headers", "created", "expires"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(word))
}

fn collect(params: Vec<Param>) -> Result<RawParams, HeaderError> {
    let mut raw = RawParams::default();
    let mut seen = HashSet::with_capacity(params.len());
    for param in params {
        let lower = param.name.to_ascii_lowercase();
        if !seen.insert(lower.clone()) {
            return Err(HeaderError::DuplicateParameter { name: param.name });
        }
        let (slot, bare_allowed) = match lower.as_str() {
            "keyid" => (&mut raw.key_id, false),
            "algorithm" => (&mut raw.algorithm, false),
            "headers" => (&mut raw.headers, false),
            "signature" => (&mut raw.signature, false),
            "created" => (&mut raw.created, true),
            "expires" => (&mut raw.expires, true),
            _ => {
                if !param.quoted {
                    return Err(HeaderError::UnquotedValue { name: param.name });
                }
                continue;
            }
        };
        let bare_ok = bare_allowed && !param.value.is_empty();
        if !param.quoted && !bare_ok {
            return Err(HeaderError::UnquotedValue { name: param.name });
        }
        *slot = Some(param.value);
    }
    Ok(raw)
}

/// The names of a `headers` parameter, lowercased; stops at the first name over
/// [`MAX_COVERED_HEADERS`] without looking at the rest.
fn covered_names(list: &str) -> Result<Vec<String>, HeaderError> {
    let mut names: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for name in list.split([' ', '\t']).filter(|n| !n.is_empty()) {
        if names.len() == MAX_COVERED_HEADERS {
            return Err(HeaderError::TooManyCoveredHeaders);
        }
        let name = name.to_ascii_lowercase();
        if !seen.insert(name.clone()) {
            return Err(HeaderError::DuplicateCoveredHeader { name });
        }
        names.push(name);
    }
    if names.is_empty() {
        return Err(HeaderError::EmptyHeaders);
    }
    Ok(names)
}

fn decode_signature(value: &str, algorithm: Algorithm) -> Result<Vec<u8>, HeaderError> {
    if value.is_empty() {
        return Err(HeaderError::EmptySignature);
    }
    let bytes = STANDARD
        .decode(value)
        .map_err(|e| HeaderError::InvalidBase64 {
            reason: e.to_string(),
        })?;
    if bytes.len() != algorithm.mac_len() {
        return Err(HeaderError::SignatureLength {
            algorithm,
            expected: algorithm.mac_len(),
            actual: bytes.len(),
        });
    }
    Ok(bytes)
}

fn timestamp(name: &'static str, value: String) -> Result<i64, HeaderError> {
    let digits = value.strip_prefix('-').unwrap_or(&value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HeaderError::InvalidTimestamp { name, value });
    }
    value
        .parse()
        .map_err(|_| HeaderError::InvalidTimestamp { name, value })
}

impl fmt::Display for SignatureHeader {
    /// `keyId="..",algorithm="..",headers="..",signature=".."` (no `headers` when
    /// `default_headers`), then `created`/`expires` when set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "keyId=\"{}\",algorithm=\"{}\",",
            escape(&self.key_id),
            self.algorithm
        )?;
        if !self.default_headers {
            write!(f, "headers=\"{}\",", escape(&self.headers.join(" ")))?;
        }
        write!(f, "signature=\"{}\"", STANDARD.encode(&self.signature))?;
        if let Some(created) = self.created {
            write!(f, ",created={created}")?;
        }
        if let Some(expires) = self.expires {
            write!(f, ",expires={expires}")?;
        }
        Ok(())
    }
}

/// Escapes `"` and `\` so the value survives as a quoted string.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
