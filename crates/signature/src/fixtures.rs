//! The requests of the SIGNATURES.md vectors, shared by the unit tests.

use time::macros::datetime;
use time::OffsetDateTime;

use crate::{Algorithm, Message, SignatureHeader};

/// Vector A body.
pub const BODY_A: &[u8] = br#"{"hello": "world"}"#;
/// Vector A date header.
pub const DATE_A: &str = "Sun, 05 Jan 2014 21:31:40 GMT";
/// The instant of `DATE_A`.
pub const NOW_A: OffsetDateTime = datetime!(2014-01-05 21:31:40 UTC);
/// Vector A's `Digest` of `BODY_A`.
pub const DIGEST_A: &str = "SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=";

/// Vector A: `POST /foo?param=value&pet=dog` with host, date, content type, digest, length.
pub fn message_a() -> Message {
    Message::new("POST", "/foo?param=value&pet=dog")
        .header("Host", "example.com")
        .header("Date", DATE_A)
        .header("Content-Type", "application/json")
        .header("Digest", DIGEST_A)
        .header("Content-Length", "18")
}

/// Vector B: `GET /foo/Bar`.
pub fn message_b() -> Message {
    Message::new("GET", "/foo/Bar")
        .header("Host", "example.org")
        .header("Date", "Tue, 07 Jun 2014 20:51:35 GMT")
        .header("Content-Length", "18")
}

/// Vector C: repeated, empty and padded fields.
pub fn message_c() -> Message {
    Message::new("GET", "/foo?a=1&b=%2F")
        .header("Host", "example.org")
        .header("Date", "Tue, 07 Jun 2014 20:51:35 GMT")
        .header("Cache-Control", "max-age=60")
        .header("Cache-Control", "   must-revalidate")
        .header("X-EmptyHeader", "")
        .header("X-Example", "   Example header with some whitespace.   ")
}

/// Owned, lowercased names from a space-separated list.
pub fn names(list: &str) -> Vec<String> {
    list.split(' ').map(str::to_owned).collect()
}

/// A header for vector A as an independent client would send it.
/// An empty `headers` leaves the parameter out.
pub fn header_a(algorithm: Algorithm, headers: &str, signature_b64: &str) -> SignatureHeader {
    let headers = if headers.is_empty() {
        String::new()
    } else {
        format!("headers=\"{headers}\",")
    };
    SignatureHeader::parse(&format!(
        "Signature keyId=\"test-hmac\",algorithm=\"{algorithm}\",{headers}signature=\"{signature_b64}\""
    ))
    .expect("fixture header parses")
}

/// Vector A: every row of SIGNATURES.md.
pub const VECTOR_A: [(Algorithm, &str, &str); 6] = [
    (
        Algorithm::HmacSha256,
        "",
        "5il23dFFZ/+0aoRFA3m7RYsXQR1w/F7SpSv1sxyRcbQ=",
    ),
    (
        Algorithm::HmacSha256,
        "(request-target) host date",
        "w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU=",
    ),
    (
        Algorithm::HmacSha256,
        "(request-target) host date content-type digest content-length",
        "kJOoMK+AuLAtTm5U69hAAOrpl8iF/VUhDJu7bcZp+f4=",
    ),
    (
        Algorithm::HmacSha256,
        "(request-target) host date digest content-length",
        "Qfm9JillOwbBtBefawkTCWdrihUMnR5QmeoLXAjVB2k=",
    ),
    (
        Algorithm::HmacSha1,
        "(request-target) host date digest content-length",
        "6AdxFZw9iXuZfpJCQnBSYcRH55g=",
    ),
    (
        Algorithm::HmacSha512,
        "(request-target) host date digest content-length",
        "gPTGT4wGnHotvBBjUfeCdkW6kg6X4QWJKka1vBW6hR2O+TUNa5TQo1LS7sTO4Nx7D0mKnwf+wSapgsWnjXz9GQ==",
    ),
];

pub fn vector_a_rows() -> impl Iterator<Item = (Algorithm, Vec<&'static str>, &'static str)> {
    VECTOR_A
        .into_iter()
        .map(|(a, list, sig)| (a, list.split(' ').filter(|n| !n.is_empty()).collect(), sig))
}
