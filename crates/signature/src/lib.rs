//! HTTP Signatures as in draft-cavage "Signing HTTP Messages" before revision 11, HMAC only.
//!
//! The crate is pure: it sees a request as a [`Message`] (method, target, header fields) plus the
//! raw body bytes, and never does I/O. A server parses the `Authorization` (or `Signature`) header
//! with [`SignatureHeader::parse`], looks up the secret for its `key_id` and calls [`verify`],
//! which applies the whole policy: required coverage, date skew, body digests and a constant-time
//! MAC comparison. A client calls [`sign`] and sends the [`SignatureHeader`]'s `Display` form.
//!
//! The signing string holds a digest header's value, not the body, so everything but the body
//! itself is decided by the request's head. A server that should not read (or hold) a body for a
//! client it has not authenticated calls [`verify_head`] first, which applies the same policy up
//! to and including the MAC, and only then reads the body, feeding each piece to the
//! [`VerifiedHead`] it got and calling [`VerifiedHead::finish`] at the end; [`verify`] is exactly
//! that with the whole body at once. The second example below does it in pieces.
//!
//! Every error's `Display` is written for the integrator who sent the request: it says what is
//! wrong and what to change. None of them ever contains the signature the server expected.
//!
//! Parsing is bounded and linear, since it runs on whatever an unauthenticated client sends
//! before any key is looked up: a header value over [`MAX_HEADER_BYTES`] (8 KiB) is refused
//! before it is read, more than [`MAX_PARAMETERS`] (16) parameters or more than
//! [`MAX_COVERED_HEADERS`] (32) names in `headers` as soon as the first one over is reached, and
//! repeats are found with hash sets. `cargo bench -p intake-signature --bench parse_header`
//! measures it.
//!
//! ```
//! use intake_signature::{sign, verify, Algorithm, Message, SignatureHeader, VerifyOptions};
//! use time::macros::datetime;
//!
//! let request = Message::new("POST", "/v1/affiliate-job/jobs")
//!     .header("Host", "api.example.com")
//!     .header("Date", "2024-05-01T10:00:00.000Z");
//! let covered = ["(request-target)", "host", "date"];
//! let sent = sign(&request, "affiliate-1", Algorithm::HmacSha256, b"secret", &covered)?;
//!
//! // Server side: parse the Authorization header, find the key's secret, apply the policy.
//! let header = SignatureHeader::parse(&sent.to_authorization())?;
//! let opts = VerifyOptions::new(datetime!(2024-05-01 10:01:00 UTC));
//! verify(&request, b"", &header, Some(b"secret"), &opts)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! With a body, checked before it is read and then as it arrives:
//!
//! ```
//! use intake_signature::{digest_header, sign, verify_head, Algorithm, Message, SignatureHeader};
//! use intake_signature::{DigestError, VerifyError, VerifyOptions};
//! use time::macros::datetime;
//!
//! let body = br#"{"description":"Boiler repair"}"#;
//! let request = Message::new("POST", "/v1/affiliate-job/jobs")
//!     .header("Host", "api.example.com")
//!     .header("Date", "2024-05-01T10:00:00.000Z")
//!     .header("Digest", &digest_header(body));
//! let covered = ["(request-target)", "host", "date", "digest"];
//! let sent = sign(&request, "affiliate-1", Algorithm::HmacSha256, b"secret", &covered)?;
//! let header = SignatureHeader::parse(&sent.to_authorization())?;
//! let opts = VerifyOptions::new(datetime!(2024-05-01 10:01:00 UTC));
//!
//! // The head alone: a wrong secret or an unknown key is refused here, before any body byte.
//! assert!(verify_head(&request, &header, Some(b"wrong"), &opts).is_err());
//! let mut head = verify_head(&request, &header, Some(b"secret"), &opts)?;
//! for piece in body.chunks(8) {
//!     head.update(piece); // as each piece arrives
//! }
//! head.finish()?;
//!
//! // A body other than the one the digest names fails only at the end.
//! let mut head = verify_head(&request, &header, Some(b"secret"), &opts)?;
//! head.update(b"{}");
//! assert!(matches!(
//!     head.finish(),
//!     Err(VerifyError::Digest(DigestError::Mismatch { .. }))
//! ));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod algorithm;
mod date;
mod digest;
mod header;
mod message;
mod sign;
mod verify;

#[cfg(test)]
mod fixtures;

pub use algorithm::{Algorithm, UnknownAlgorithm};
pub use date::{parse_date, DateError};
pub use digest::{
    check_content_digest, check_digest, content_digest_header, digest_header, DigestCheck,
    DigestError,
};
pub use header::{
    HeaderError, SignatureHeader, MAX_COVERED_HEADERS, MAX_HEADER_BYTES, MAX_PARAMETERS,
};
pub use message::{Message, SigningStringError};
pub use sign::{sign, sign_with_times};
pub use verify::{
    verify, verify_head, TargetForm, TimeSource, Verified, VerifiedHead, VerifyError,
    VerifyOptions, DEFAULT_MAX_SKEW,
};
