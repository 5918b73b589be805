//! The negative cases of SIGNATURES.md that need a request, each against a fixed or
//! independently computed signature. Header syntax cases live in `header/tests.rs`.

use super::tests::{job_header, job_request, opts, BODY, FULL_SIG, RELATIVE_SIG, SECRET};
use super::*;
use crate::fixtures::{header_a, message_a, BODY_A, DIGEST_A, NOW_A, VECTOR_A};
use crate::{Algorithm, DigestError, SigningStringError};

const ROW_4: &str = "Qfm9JillOwbBtBefawkTCWdrihUMnR5QmeoLXAjVB2k=";
const ROW_4_HEADERS: &str = "(request-target) host date digest content-length";

/// Vector A row 4: `(request-target) host date digest content-length`, hmac-sha256.
pub(super) fn row_4() -> SignatureHeader {
    header_a(Algorithm::HmacSha256, ROW_4_HEADERS, ROW_4)
}

pub(super) fn verify_a(message: &Message, body: &[u8]) -> Result<Verified, VerifyError> {
    verify(
        message,
        body,
        &row_4(),
        Some(b"secret"),
        &VerifyOptions::new(NOW_A),
    )
}

fn with_target(method: &str, target: &str) -> Message {
    Message {
        method: method.into(),
        target: target.into(),
        ..message_a()
    }
}

pub(super) fn with_header_value(name: &str, value: &str) -> Message {
    let mut m = message_a();
    m.headers
        .iter_mut()
        .filter(|(n, _)| n == name)
        .for_each(|(_, v)| *v = value.into());
    m
}

fn is_mismatch(result: Result<Verified, VerifyError>) -> bool {
    matches!(result, Err(VerifyError::MacMismatch { .. }))
}

#[test]
fn the_unmodified_vector_a_request_verifies() {
    assert!(verify_a(&message_a(), BODY_A).is_ok());
}

#[test]
fn an_unknown_key_gives_exactly_the_same_error_as_a_wrong_secret() {
    let m = job_request();
    let header = job_header(FULL_SIG);
    let unknown = verify(&m, BODY, &header, None, &opts()).unwrap_err();
    let wrong = verify(&m, BODY, &header, Some(b"not the secret"), &opts()).unwrap_err();
    assert_eq!(unknown, wrong);
    assert_eq!(unknown.to_string(), wrong.to_string());
    assert_eq!(unknown.summary(), wrong.summary());
}

#[test]
fn signing_with_the_internal_dummy_key_does_not_pass_for_an_unknown_key() {
    let m = job_request();
    let covered = ["(request-target)", "host", "date", "digest"];
    let forged = crate::sign(&m, "nobody", Algorithm::HmacSha256, &DUMMY_SECRET, &covered).unwrap();
    assert!(is_mismatch(verify(&m, BODY, &forged, None, &opts())));
}

#[test]
fn a_listed_header_missing_from_the_request_is_rejected() {
    let mut m = message_a();
    m.headers.retain(|(n, _)| n != "Content-Length");
    let err = verify_a(&m, BODY_A).unwrap_err();
    assert_eq!(
        err,
        VerifyError::SigningString(SigningStringError::MissingHeader {
            name: "content-length".into()
        })
    );
}

fn without_date() -> Message {
    let mut m = message_a();
    m.headers.retain(|(n, _)| n != "Date");
    m
}

fn verify_with(header: &SignatureHeader, message: &Message) -> Result<Verified, VerifyError> {
    verify(
        message,
        BODY_A,
        header,
        Some(b"secret"),
        &VerifyOptions::new(NOW_A),
    )
}

#[test]
fn a_missing_date_without_a_headers_parameter_is_blamed_on_the_default() {
    let (algorithm, _, signature) = VECTOR_A[0];
    let header = header_a(algorithm, "", signature);
    let err = verify_with(&header, &without_date()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Signature header has no `headers` parameter, so it signs `date` by default, but \
         the request has no Date header; send a Date header or list the headers you sign in a \
         headers parameter"
    );
}

#[test]
fn a_missing_date_that_the_headers_parameter_lists_is_named_as_listed() {
    let (algorithm, list, signature) = VECTOR_A[1];
    let header = header_a(algorithm, list, signature);
    let err = verify_with(&header, &without_date()).unwrap_err();
    assert_eq!(
        err,
        VerifyError::SigningString(SigningStringError::MissingHeader {
            name: "date".into()
        })
    );
    assert_eq!(
        err.to_string(),
        "the Signature header lists `date` but the request has no Date header; \
         send that header or remove it from the headers parameter"
    );
}

#[test]
fn a_different_method_is_rejected() {
    assert!(is_mismatch(verify_a(
        &with_target("PUT", "/foo?param=value&pet=dog"),
        BODY_A
    )));
}

#[test]
fn a_different_path_is_rejected() {
    assert!(is_mismatch(verify_a(
        &with_target("POST", "/Foo?param=value&pet=dog"),
        BODY_A
    )));
}

#[test]
fn a_different_query_is_rejected() {
    assert!(is_mismatch(verify_a(
        &with_target("POST", "/foo?param=value&pet=cat"),
        BODY_A
    )));
    assert!(is_mismatch(verify_a(
        &with_target("POST", "/foo?pet=dog&param=value"),
        BODY_A
    )));
    assert!(is_mismatch(verify_a(&with_target("POST", "/foo"), BODY_A)));
}

#[test]
fn a_changed_covered_header_is_rejected() {
    assert!(is_mismatch(verify_a(
        &with_header_value("Host", "example.net"),
        BODY_A
    )));
}

#[test]
fn a_changed_body_is_rejected_when_digest_is_signed() {
    let err = verify_a(&message_a(), br#"{"hello": "World"}"#).unwrap_err();
    assert!(
        matches!(err, VerifyError::Digest(DigestError::Mismatch { .. })),
        "{err:?}"
    );
    assert_eq!(err.summary(), "body digest mismatch");
}

#[test]
fn a_changed_digest_matching_a_changed_body_is_rejected() {
    let body = br#"{"hello": "there"}"#;
    let m = with_header_value("Digest", &crate::digest_header(body));
    assert!(is_mismatch(verify_a(&m, body)));
}

#[test]
fn a_changed_digest_is_rejected_by_the_mac_before_the_body() {
    // The signing string holds the Digest value, so changing it breaks the MAC: the head is
    // refused before any body byte would be read.
    let m = with_header_value(
        "Digest",
        "SHA-256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    );
    let head = verify_head(&m, &row_4(), Some(b"secret"), &VerifyOptions::new(NOW_A));
    assert!(
        matches!(head, Err(VerifyError::MacMismatch { .. })),
        "{head:?}"
    );
    assert!(is_mismatch(verify_a(&m, BODY_A)));
}

#[test]
fn a_wrong_secret_is_reported_before_a_changed_body() {
    let err = verify(
        &message_a(),
        br#"{"hello": "World"}"#,
        &row_4(),
        Some(b"secreT"),
        &VerifyOptions::new(NOW_A),
    );
    assert!(is_mismatch(err));
}

#[test]
fn an_unsupported_digest_algorithm_is_rejected() {
    let m = with_header_value("Digest", "MD5=Sd/dVLAcvNLSq16eXua5uQ==");
    let err = verify_a(&m, BODY_A).unwrap_err();
    assert!(
        matches!(err, VerifyError::Digest(DigestError::Unsupported { .. })),
        "{err:?}"
    );
}

#[test]
fn a_malformed_or_unsupported_digest_is_refused_on_the_head_before_the_mac() {
    // Signed with another secret: the digest header is judged before the MAC, as before the split.
    for (value, expected) in [
        ("MD5=Sd/dVLAcvNLSq16eXua5uQ==", "Unsupported"),
        ("SHA-256=%%%", "Malformed"),
        (" , ", "Empty"),
    ] {
        let m = with_header_value("Digest", value);
        let err =
            verify_head(&m, &row_4(), Some(b"other"), &VerifyOptions::new(NOW_A)).unwrap_err();
        let found = match &err {
            VerifyError::Digest(DigestError::Unsupported { .. }) => "Unsupported",
            VerifyError::Digest(DigestError::Malformed { .. }) => "Malformed",
            VerifyError::Digest(DigestError::Empty { .. }) => "Empty",
            other => panic!("{value}: {other:?}"),
        };
        assert_eq!(found, expected, "{value}");
    }
}

#[test]
fn a_changed_body_is_rejected_when_content_digest_is_signed() {
    let m = message_a().header("Content-Digest", &crate::content_digest_header(BODY_A));
    let sig = crate::sign(
        &m,
        "k",
        Algorithm::HmacSha256,
        b"secret",
        &["date", "content-digest"],
    )
    .unwrap();
    let opts = VerifyOptions::new(NOW_A);
    assert!(verify(&m, BODY_A, &sig, Some(b"secret"), &opts).is_ok());
    let err = verify(&m, b"{}", &sig, Some(b"secret"), &opts).unwrap_err();
    assert!(matches!(
        err,
        VerifyError::Digest(DigestError::Mismatch {
            header: "Content-Digest",
            ..
        })
    ));
}

fn with_second(name: &str, value: &str) -> Message {
    message_a().header(name, value)
}

#[test]
fn two_host_headers_are_rejected() {
    let err = verify_a(&with_second("host", "evil.example"), BODY_A).unwrap_err();
    assert!(matches!(
        err,
        VerifyError::SigningString(SigningStringError::RepeatedHeader { .. })
    ));
}

#[test]
fn two_date_headers_are_rejected() {
    let err = verify_a(
        &with_second("DATE", "Sun, 05 Jan 2014 21:31:40 GMT"),
        BODY_A,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        VerifyError::SigningString(SigningStringError::RepeatedHeader { .. })
    ));
}

#[test]
fn two_digest_headers_are_rejected() {
    let err = verify_a(&with_second("Digest", DIGEST_A), BODY_A).unwrap_err();
    assert!(matches!(
        err,
        VerifyError::SigningString(SigningStringError::RepeatedHeader { .. })
    ));
}

#[test]
fn a_relative_target_is_rejected_when_there_is_no_base_path() {
    let opts = VerifyOptions {
        base_path: None,
        ..opts()
    };
    let err = verify(
        &job_request(),
        BODY,
        &job_header(RELATIVE_SIG),
        Some(SECRET),
        &opts,
    )
    .unwrap_err();
    assert_eq!(
        err,
        VerifyError::MacMismatch {
            signing_string: job_full_string(),
            base_path: None
        }
    );
    assert!(!err.to_string().contains("relative"));
}

#[test]
fn a_relative_target_is_rejected_when_the_path_only_shares_a_prefix_with_the_base() {
    let m = Message {
        target: "/v1/affiliate-jobs?dry_run=1".into(),
        ..job_request()
    };
    let err = verify(&m, BODY, &job_header(RELATIVE_SIG), Some(SECRET), &opts()).unwrap_err();
    assert!(matches!(
        err,
        VerifyError::MacMismatch {
            base_path: None,
            ..
        }
    ));
}

#[test]
fn an_unsigned_date_is_rejected_unless_created_is_signed() {
    let header = header_a(Algorithm::HmacSha256, "(request-target) host", ROW_4);
    let err = verify(
        &message_a(),
        BODY_A,
        &header,
        Some(b"secret"),
        &VerifyOptions::new(NOW_A),
    );
    assert_eq!(
        err.unwrap_err(),
        VerifyError::MissingCoverage {
            missing: vec!["date".into()]
        }
    );
}

fn job_full_string() -> String {
    "(request-target): post /v1/affiliate-job/jobs?dry_run=1\nhost: api.example.com\n\
     date: 2024-05-01T10:00:00.000Z\ndigest: SHA-256=k3lMntSu0AVSjLAvVAkNr41fAEJGQ1PXTKGDgQ0H0zg="
        .to_owned()
}
