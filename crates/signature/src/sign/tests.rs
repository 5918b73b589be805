use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::*;
use crate::fixtures::{message_a, vector_a_rows};

#[test]
fn vector_a_every_row_signs_to_the_published_signature() {
    let m = message_a();
    for (algorithm, covered, expected) in vector_a_rows() {
        let h = sign(&m, "test-hmac", algorithm, b"secret", &covered).unwrap();
        assert_eq!(
            STANDARD.encode(&h.signature),
            expected,
            "{algorithm} {covered:?}"
        );
    }
}

#[test]
fn no_covered_names_signs_date_alone() {
    let h = sign(
        &message_a(),
        "test-hmac",
        Algorithm::HmacSha256,
        b"secret",
        &[],
    )
    .unwrap();
    assert_eq!(h.headers, ["date"]);
}

#[test]
fn the_header_display_is_what_a_client_sends() {
    let h = sign(
        &message_a(),
        "test-hmac",
        Algorithm::HmacSha256,
        b"secret",
        &["(request-target)", "Host", "date"],
    )
    .unwrap();
    assert_eq!(
        h.to_string(),
        "keyId=\"test-hmac\",algorithm=\"hmac-sha256\",headers=\"(request-target) host date\",\
         signature=\"w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU=\""
    );
}

#[test]
fn signing_a_header_the_request_lacks_fails() {
    let err = sign(&message_a(), "k", Algorithm::HmacSha1, b"s", &["x-missing"]).unwrap_err();
    assert_eq!(
        err,
        SigningStringError::MissingHeader {
            name: "x-missing".into()
        }
    );
}

#[test]
fn created_and_expires_are_carried_into_the_header() {
    let h = sign_with_times(
        &message_a(),
        "k",
        Algorithm::HmacSha256,
        b"s",
        &["(created)", "(expires)"],
        Some(1),
        Some(2),
    )
    .unwrap();
    assert_eq!((h.created, h.expires), (Some(1), Some(2)));
    assert_eq!(
        h.signature,
        Algorithm::HmacSha256.mac(b"s", b"(created): 1\n(expires): 2")
    );
}
