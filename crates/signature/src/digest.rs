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
#[derive(Clone, Copy, Debug)]
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
///
/// The same as [`DigestCheck::digest`], [`DigestCheck::update`] with the whole body, then
/// [`DigestCheck::finish`].
pub fn check_digest(value: &str, body: &[u8]) -> Result<(), DigestError> {
    let mut check = DigestCheck::digest(value)?;
    check.update(body);
    check.finish()
}

/// Checks an RFC 9530 `Content-Digest` dictionary (`sha-256=:..:`, `sha-512=:..:`, possibly
/// several members) against `body`, with the same rules as [`check_digest`].
pub fn check_content_digest(value: &str, body: &[u8]) -> Result<(), DigestError> {
    let mut check = DigestCheck::content_digest(value)?;
    check.update(body);
    check.finish()
}

/// A body digest header checked in two steps, so that a server can refuse a malformed or
/// unsupported header before it reads the body, then hash the body as it arrives instead of
/// holding it all first.
///
/// [`DigestCheck::digest`] or [`DigestCheck::content_digest`] parse the header and refuse it when
/// it is empty ([`DigestError::Empty`]), names only algorithms this crate does not compute
/// ([`DigestError::Unsupported`]) or holds a value that is not base64 ([`DigestError::Malformed`]);
/// [`DigestCheck::update`] hashes each piece of the body in turn; [`DigestCheck::finish`]
/// compares, in constant time, every supported member with the hash of all the pieces and gives
/// [`DigestError::Mismatch`] for the first that differs. Each algorithm is computed once, however
/// many members name it.
///
/// ```
/// use intake_signature::{digest_header, DigestCheck};
///
/// let body = br#"{"hello": "world"}"#;
/// let mut check = DigestCheck::digest(&digest_header(body))?;
/// for piece in body.chunks(5) {
///     check.update(piece);
/// }
/// check.finish()?;
/// # Ok::<(), intake_signature::DigestError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DigestCheck {
    kind: Kind,
    /// The supported members in the order sent: the name as sent and the decoded value.
    members: Vec<(String, Hash, Vec<u8>)>,
    sha256: Option<Sha256>,
    sha512: Option<Sha512>,
    body_len: usize,
}

/// The algorithms computed.
#[derive(Clone, Copy, Debug)]
enum Hash {
    Sha256,
    Sha512,
}

impl DigestCheck {
    /// Parses an RFC 3230 `Digest` value for checking; see the type's documentation.
    pub fn digest(value: &str) -> Result<Self, DigestError> {
        DigestCheck::parse(Kind::Digest, value)
    }

    /// Parses an RFC 9530 `Content-Digest` dictionary for checking; see the type's documentation.
    pub fn content_digest(value: &str) -> Result<Self, DigestError> {
        DigestCheck::parse(Kind::ContentDigest, value)
    }

    fn parse(kind: Kind, value: &str) -> Result<Self, DigestError> {
        let mut unsupported = Vec::new();
        let mut members = Vec::new();
        for member in value.split(',').map(str::trim).filter(|m| !m.is_empty()) {
            let (name, member_value) = member.split_once('=').unwrap_or((member, ""));
            let name = name.trim();
            let hash = match name.to_ascii_lowercase().as_str() {
                "sha-256" => Hash::Sha256,
                "sha-512" => Hash::Sha512,
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
            members.push((name.to_owned(), hash, sent));
        }
        match (members.is_empty(), unsupported.is_empty()) {
            (true, true) => Err(DigestError::Empty {
                header: kind.header(),
                example: kind.example(),
            }),
            (true, false) => Err(DigestError::Unsupported {
                header: kind.header(),
                found: unsupported,
                accepted: kind.accepted(),
            }),
            (false, _) => {
                let uses = |wanted: fn(&Hash) -> bool| members.iter().any(|(_, h, _)| wanted(h));
                Ok(DigestCheck {
                    kind,
                    sha256: uses(|h| matches!(h, Hash::Sha256)).then(Sha256::new),
                    sha512: uses(|h| matches!(h, Hash::Sha512)).then(Sha512::new),
                    members,
                    body_len: 0,
                })
            }
        }
    }

    /// Hashes the next piece of the body.
    pub fn update(&mut self, piece: &[u8]) {
        if let Some(sha256) = &mut self.sha256 {
            sha256.update(piece);
        }
        if let Some(sha512) = &mut self.sha512 {
            sha512.update(piece);
        }
        self.body_len += piece.len();
    }

    /// How many body bytes have been hashed so far.
    pub fn body_len(&self) -> usize {
        self.body_len
    }

    /// Compares every supported member with the hash of the body given so far.
    pub fn finish(self) -> Result<(), DigestError> {
        let sha256 = self.sha256.map(|h| h.finalize().to_vec());
        let sha512 = self.sha512.map(|h| h.finalize().to_vec());
        for (name, hash, sent) in &self.members {
            let computed = match hash {
                Hash::Sha256 => sha256.as_deref(),
                Hash::Sha512 => sha512.as_deref(),
            }
            .expect("every algorithm a member names is computed");
            if !bool::from(sent.as_slice().ct_eq(computed)) {
                return Err(DigestError::Mismatch {
                    header: self.kind.header(),
                    algorithm: name.clone(),
                    body_len: self.body_len,
                    computed: self.kind.member(name, computed),
                });
            }
        }
        Ok(())
    }
}
