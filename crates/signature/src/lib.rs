//! HTTP Signatures as in draft-cavage "Signing HTTP Messages" before revision 11, HMAC only.
//!
//! The crate is pure: it sees a request as a [`Message`] (method, target, header fields) plus the
//! raw body bytes, and never does I/O. A server parses the `Authorization` (or `Signature`) header
//! with [`SignatureHeader::parse`], looks up the secret for its `key_id` and calls [`verify`],
//! which applies the whole policy: required coverage, date skew, body digests and a constant-time
//! MAC comparison. A client calls [`sign`] and sends the [`SignatureHeader`]'s `Display` form.
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
    check_content_digest, check_digest, content_digest_header, digest_header, DigestError,
};
pub use header::{
    HeaderError, SignatureHeader, MAX_COVERED_HEADERS, MAX_HEADER_BYTES, MAX_PARAMETERS,
};
pub use message::{Message, SigningStringError};
pub use sign::{sign, sign_with_times};
pub use verify::{
    verify, TargetForm, TimeSource, Verified, VerifyError, VerifyOptions, DEFAULT_MAX_SKEW,
};
