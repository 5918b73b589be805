//! Body digests: RFC 3230 `Digest` and RFC 9530 `Content-Digest`.

#[cfg(test)]
mod tests;

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use sha2::{Digest as _, Sha256, Sha512};
use subtle::ConstantTimeEq;

/// Decodes with or without `=` padding: RFC 8941 asks byte-sequence parsers not to insist on
/// it, and padding carries no meaning once the bytes are compared.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A body digest header that is malformed, unsupported or does not match the body.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DigestError {
    /// The header has no members at all.
    #[error("the {header} header is empty; send {example}")]
    Empty {
        /// `Digest` or `Content-Digest`.
        header: &'static str,
        /// A well-formed value for a one-line fix.
        example: &'static str,
    },
    /// A supported algorithm whose value cannot be decoded.
    #[error("the {header} header's {algorithm} value is not valid base64{shape}; send {example}")]
    Malformed {
        /// `Digest` or `Content-Digest`.
        header: &'static str,
        /// The algorithm as sent.
        algorithm: String,
        /// Extra words on the expected shape, or empty.
        shape: &'static str,
        /// A well-formed value.
        example: &'static str,
    },
    /// Only algorithms this server does not compute.
    #[error(
        "the {header} header uses only unsupported algorithms ({}); use {accepted}",
        found.join(", ")
    )]
    Unsupported {
        /// `Digest` or `Content-Digest`.
        header: &'static str,
        /// The algorithm names that were sent.
        found: Vec<String>,
        /// The accepted algorithm names.
        accepted: &'static str,
    },
    /// A supported digest that differs from the body received.
    #[error(
        "the {header} header's {algorithm} value does not match the request body: over the \
         {body_len} body bytes it received the server computed {computed}; compute the digest \
         over the exact bytes you send"
    )]
    Mismatch {
        /// `Digest` or `Content-Digest`.
        header: &'static str,
        /// The algorithm as sent.
        algorithm: String,
        /// How many body bytes the server hashed.
        body_len: usize,
        /// The member the server computed, e.g. `SHA-256=...`.
        computed: String,
    },
}

/// Which of the two headers is being checked; holds the spelling differences.
#[derive(Clone, Copy)]
enum Kind {
    Digest,
    ContentDigest,
}

impl Kind {
    fn header(self) -> &'static str {
        match self {
            Kind::Digest => "Digest",
            Kind::ContentDigest => "Content-Digest",
        }
    }

    fn accepted(self) -> &'static str {
        match self {
            Kind::Digest => "SHA-256 or SHA-512",
            Kind::ContentDigest => "sha-256 or sha-512",
        }
    }

    fn example(self) -> &'static str {
        match self {
            Kind::Digest => "SHA-256=<base64 of the SHA-256 of the body>",
            Kind::ContentDigest => "sha-256=:<base64 of the SHA-256 of the body>:",
        }
    }

    fn member(self, name: &str, hash: &[u8]) -> String {
        match self {
            Kind::Digest => format!("{}={}", name.to_ascii_uppercase(), STANDARD.encode(hash)),
            Kind::ContentDigest => {
                format!("{}=:{}:", name.to_ascii_lowercase(), STANDARD.encode(hash))
            }
        }
    }

    /// The base64 text inside a member's value, or `None` when it has the wrong shape.
    fn payload(self, value: &str) -> Option<&str> {
        match self {
            Kind::Digest => Some(value),
            // Drop structured-field parameters (`;foo=bar`) after the byte sequence.
            Kind::ContentDigest => value
                .split(';')
                .next()?
                .trim()
                .strip_prefix(':')?
                .strip_suffix(':'),
        }
    }
}

/// The RFC 3230 `Digest` value for `body`: `SHA-256=<base64>`.
pub fn digest_header(body: &[u8]) -> String {
    Kind::Digest.member("sha-256", &Sha256::digest(body))
}

/// The RFC 9530 `Content-Digest` value for `body`: `sha-256=:<base64>:`.
pub fn content_digest_header(body: &[u8]) -> String {
    Kind::ContentDigest.member("sha-256", &Sha256::digest(body))
}

/// Checks an RFC 3230 `Digest` value (`SHA-256=..`, `SHA-512=..`, possibly a comma-separated
/// list, names in any case) against `body`. At least one supported algorithm must be present and
/// every supported one present must match; the comparison is constant-time.
pub fn check_digest(value: &str, body: &[u8]) -> Result<(), DigestError> {
    check(Kind::Digest, value, body)
}

/// Checks an RFC 9530 `Content-Digest` dictionary (`sha-256=:..:`, `sha-512=:..:`, possibly
/// several members) against `body`, with the same rules as [`check_digest`].
pub fn check_content_digest(value: &str, body: &[u8]) -> Result<(), DigestError> {
    check(Kind::ContentDigest, value, body)
}

fn check(kind: Kind, value: &str, body: &[u8]) -> Result<(), DigestError> {
    let mut unsupported = Vec::new();
    let mut checked = 0;
    for member in value.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        let (name, member_value) = member.split_once('=').unwrap_or((member, ""));
        let name = name.trim();
        let hash: Vec<u8> = match name.to_ascii_lowercase().as_str() {
            "sha-256" => Sha256::digest(body).to_vec(),
            "sha-512" => Sha512::digest(body).to_vec(),
            _ => {
                unsupported.push(name.to_owned());
                continue;
            }
        };
        let sent = kind
            .payload(member_value.trim())
            .filter(|b64| !b64.is_empty())
            .and_then(|b64| LENIENT.decode(b64).ok())
            .ok_or_else(|| DigestError::Malformed {
                header: kind.header(),
                algorithm: name.to_owned(),
                shape: match kind {
                    Kind::Digest => "",
                    Kind::ContentDigest => " between colons",
                },
                example: kind.example(),
            })?;
        if !bool::from(sent.ct_eq(&hash)) {
            return Err(DigestError::Mismatch {
                header: kind.header(),
                algorithm: name.to_owned(),
                body_len: body.len(),
                computed: kind.member(name, &hash),
            });
        }
        checked += 1;
    }
    match (checked, unsupported.is_empty()) {
        (0, true) => Err(DigestError::Empty {
            header: kind.header(),
            example: kind.example(),
        }),
        (0, false) => Err(DigestError::Unsupported {
            header: kind.header(),
            found: unsupported,
            accepted: kind.accepted(),
        }),
        _ => Ok(()),
    }
}
