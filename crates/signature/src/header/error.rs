//! Why a signature header could not be parsed.

use super::{MAX_COVERED_HEADERS, MAX_HEADER_BYTES, MAX_PARAMETERS};
use crate::{Algorithm, UnknownAlgorithm};

/// A malformed `Authorization: Signature ...` or `Signature` header. Each message names the
/// problem and the fix, for an integrator reading a 401 response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// Nothing but whitespace.
    #[error(
        "the signature header is empty; send Authorization: Signature \
         keyId=\"...\",algorithm=\"hmac-sha256\",headers=\"...\",signature=\"...\""
    )]
    Empty,
    /// Longer than [`MAX_HEADER_BYTES`]; refused before it is read.
    #[error(
        "the signature header is {length} bytes, over the limit of {limit} bytes; a signature \
         header needs a few hundred: send keyId, algorithm, headers and signature, each once",
        limit = MAX_HEADER_BYTES
    )]
    TooLong {
        /// The length received, in bytes.
        length: usize,
    },
    /// More than [`MAX_PARAMETERS`] parameters.
    #[error(
        "the signature header has more than {limit} parameters; send keyId, algorithm, headers \
         and signature (and created or expires when you sign them), each once",
        limit = MAX_PARAMETERS
    )]
    TooManyParameters,
    /// An authorization scheme other than `Signature`.
    #[error(
        "the Authorization header uses the `{scheme}` scheme; use the `Signature` scheme: \
         Authorization: Signature keyId=\"...\",algorithm=\"hmac-sha256\",headers=\"...\",signature=\"...\""
    )]
    WrongScheme {
        /// The scheme that was sent.
        scheme: String,
    },
    /// Text where a `name="value"` parameter should start.
    #[error(
        "the signature header has `{found}` where a parameter like keyId=\"...\" was expected; \
         separate parameters with commas and write each as name=\"value\""
    )]
    ExpectedParameter {
        /// The start of the offending text.
        found: String,
    },
    /// A value followed by something other than a comma.
    #[error(
        "the signature header has more text after the `{after}` parameter without a comma; \
         separate parameters with commas"
    )]
    ExpectedComma {
        /// The parameter before the offending text.
        after: String,
    },
    /// A value that is not in double quotes.
    #[error("the `{name}` parameter's value is not in double quotes; write {name}=\"...\"")]
    UnquotedValue {
        /// The parameter name.
        name: String,
    },
    /// A quoted value without its closing quote.
    #[error("the `{name}` parameter's value has no closing double quote")]
    UnterminatedValue {
        /// The parameter name.
        name: String,
    },
    /// The same parameter twice.
    #[error("the signature header gives the `{name}` parameter more than once; send it once")]
    DuplicateParameter {
        /// The parameter name.
        name: String,
    },
    /// A required parameter is absent.
    #[error("the signature header has no `{name}` parameter; add {name}=\"...\"")]
    MissingParameter {
        /// `keyId`, `algorithm` or `signature`.
        name: &'static str,
    },
    /// `keyId=""`.
    #[error("the `keyId` parameter is empty; set it to the key id you were given")]
    EmptyKeyId,
    /// `headers=""` or only whitespace.
    #[error(
        "the `headers` parameter is empty; list the signed headers, e.g. \
         headers=\"(request-target) host date digest\", or leave it out to sign only date"
    )]
    EmptyHeaders,
    /// More than [`MAX_COVERED_HEADERS`] names in `headers`.
    #[error(
        "the `headers` parameter lists more than {limit} names; sign at most {limit} headers, \
         e.g. headers=\"(request-target) host date digest\"",
        limit = MAX_COVERED_HEADERS
    )]
    TooManyCoveredHeaders,
    /// A name listed twice in `headers`.
    #[error("the `headers` parameter lists `{name}` more than once; list each header once")]
    DuplicateCoveredHeader {
        /// The repeated (lowercased) name.
        name: String,
    },
    /// The `algorithm` is not a supported HMAC.
    #[error(transparent)]
    UnknownAlgorithm(#[from] UnknownAlgorithm),
    /// `signature=""`.
    #[error(
        "the `signature` parameter is empty; send the base64-encoded HMAC of the signing string"
    )]
    EmptySignature,
    /// Not standard base64 with `=` padding.
    #[error(
        "the `signature` parameter is not standard base64 with `=` padding ({reason}); \
         encode the raw HMAC bytes with the standard alphabet (A-Z a-z 0-9 + /), not hex or base64url"
    )]
    InvalidBase64 {
        /// What the decoder objected to.
        reason: String,
    },
    /// Decodes to the wrong number of bytes for the algorithm.
    #[error(
        "the `signature` parameter decodes to {actual} bytes but {algorithm} produces {expected}; \
         send the complete, untruncated HMAC"
    )]
    SignatureLength {
        /// The algorithm the header names.
        algorithm: Algorithm,
        /// The MAC length of that algorithm.
        expected: usize,
        /// The decoded length received.
        actual: usize,
    },
    /// `created` or `expires` that is not an integer.
    #[error("the `{name}` parameter `{value}` is not an integer; send a Unix time in seconds")]
    InvalidTimestamp {
        /// `created` or `expires`.
        name: &'static str,
        /// The value received.
        value: String,
    },
}
