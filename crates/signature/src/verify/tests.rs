//! Verification against fixed vectors and signatures computed by an independent HMAC (Python's
//! `hmac` module), so a verifier that drops `(request-target)` cannot pass.

use time::macros::datetime;

use super::*;
use crate::fixtures::{header_a, message_a, vector_a_rows, BODY_A, NOW_A};
use crate::Algorithm;

pub(super) const BASE: &str = "/v1/affiliate-job";
pub(super) const SECRET: &[u8] = b"s3cr3t-key";
pub(super) const BODY: &[u8] = br#"{"title":"Boiler repair"}"#;
pub(super) const NOW: OffsetDateTime = datetime!(2024-05-01 10:00:00 UTC);
const COVERED: &str = "(request-target) host date digest";

/// A marketplace-style request with an ISO-8601 date, as its published example signs.
pub(super) fn job_request() -> Message {
    Message::new("POST", "/v1/affiliate-job/jobs?dry_run=1")
        .header("Host", "api.example.com")
        .header("Date", "2024-05-01T10:00:00.000Z")
        .header(
            "Digest",
            "SHA-256=k3lMntSu0AVSjLAvVAkNr41fAEJGQ1PXTKGDgQ0H0zg=",
        )
}

pub(super) fn job_header(signature_b64: &str) -> SignatureHeader {
    SignatureHeader::parse(&format!(
        "Signature keyId=\"affiliate-1\",algorithm=\"hmac-sha256\",headers=\"{COVERED}\",signature=\"{signature_b64}\""
    ))
    .unwrap()
}

/// Signed by Python over `post /jobs?dry_run=1`.
pub(super) const RELATIVE_SIG: &str = "sEwj67zeadrZ61GvfGkpt7h/5K8l8c6Zg0GuCU/mJDk=";
/// Signed by Python over `post /v1/affiliate-job/jobs?dry_run=1`.
pub(super) const FULL_SIG: &str = "+KGvhssKGJFRBpT98YqZphsjU+7fpyeR9mwlJHG6zyk=";

pub(super) fn opts() -> VerifyOptions {
    VerifyOptions {
        base_path: Some(BASE.to_owned()),
        ..VerifyOptions::new(NOW)
    }
}

#[test]
fn vector_a_every_row_verifies_and_a_wrong_secret_does_not() {
    let m = message_a();
    for (algorithm, covered, sig_b64) in vector_a_rows() {
        let header = header_a(algorithm, &covered.join(" "), sig_b64);
        let ok = verify(
            &m,
            BODY_A,
            &header,
            Some(b"secret"),
            &VerifyOptions::new(NOW_A),
        );
        assert!(ok.is_ok(), "{algorithm} {covered:?}: {ok:?}");
        let bad = verify(
            &m,
            BODY_A,
            &header,
            Some(b"secreT"),
            &VerifyOptions::new(NOW_A),
        );
        assert!(
            matches!(bad, Err(VerifyError::MacMismatch { .. })),
            "{bad:?}"
        );
    }
}

#[test]
fn a_full_request_target_is_accepted() {
    let v = verify(
        &job_request(),
        BODY,
        &job_header(FULL_SIG),
        Some(SECRET),
        &opts(),
    )
    .unwrap();
    assert_eq!(v.target_form, TargetForm::Full);
    assert!(v
        .signing_string
        .starts_with("(request-target): post /v1/affiliate-job/jobs?dry_run=1\n"));
}

#[test]
fn a_request_target_relative_to_the_base_path_is_accepted() {
    let v = verify(
        &job_request(),
        BODY,
        &job_header(RELATIVE_SIG),
        Some(SECRET),
        &opts(),
    )
    .unwrap();
    assert_eq!(v.target_form, TargetForm::RelativeToBase);
    assert_eq!(
        v.signing_string,
        "(request-target): post /jobs?dry_run=1\nhost: api.example.com\n\
         date: 2024-05-01T10:00:00.000Z\ndigest: SHA-256=k3lMntSu0AVSjLAvVAkNr41fAEJGQ1PXTKGDgQ0H0zg="
    );
}

#[test]
fn a_base_path_with_a_trailing_slash_works_the_same() {
    let opts = VerifyOptions {
        base_path: Some(format!("{BASE}/")),
        ..opts()
    };
    let v = verify(
        &job_request(),
        BODY,
        &job_header(RELATIVE_SIG),
        Some(SECRET),
        &opts,
    );
    assert_eq!(v.unwrap().target_form, TargetForm::RelativeToBase);
}

#[test]
fn a_signature_without_request_target_reports_it_not_covered() {
    let m = job_request();
    let sig = crate::sign(&m, "k", Algorithm::HmacSha1, SECRET, &["date", "host"]).unwrap();
    let v = verify(&m, BODY, &sig, Some(SECRET), &opts()).unwrap();
    assert_eq!(v.target_form, TargetForm::NotCovered);
}

#[test]
fn a_mac_mismatch_shows_the_full_signing_string_and_the_base_path_hint() {
    let err = verify(
        &job_request(),
        BODY,
        &job_header(FULL_SIG),
        Some(b"wrong"),
        &opts(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the signature does not match; the server built this signing string from your request \
         (lines separated by \\n): (request-target): post /v1/affiliate-job/jobs?dry_run=1\\n\
         host: api.example.com\\ndate: 2024-05-01T10:00:00.000Z\\n\
         digest: SHA-256=k3lMntSu0AVSjLAvVAkNr41fAEJGQ1PXTKGDgQ0H0zg=; \
         the (request-target) may also be relative to /v1/affiliate-job; sign exactly these lines \
         with your key's secret and the algorithm you name"
    );
    assert_eq!(err.summary(), "signature mismatch");
}

#[test]
fn a_mismatch_never_reveals_the_expected_signature() {
    let m = job_request();
    let header = job_header(FULL_SIG);
    let err = verify(&m, BODY, &header, Some(b"other secret"), &opts()).unwrap_err();
    let full = crate::sign(
        &m,
        "k",
        Algorithm::HmacSha256,
        b"other secret",
        &COVERED.split(' ').collect::<Vec<_>>(),
    )
    .unwrap();
    let expected =
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &full.signature);
    assert!(!err.to_string().contains(&expected));
    assert!(!format!("{err:?}").contains(&expected));
}

#[test]
fn required_coverage_is_enforced_before_anything_else() {
    let m = Message::new("POST", "/x");
    let header = header_a(
        Algorithm::HmacSha256,
        "host",
        "w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU=",
    );
    let opts = VerifyOptions {
        required: vec!["(request-target)".into(), "Digest".into()],
        ..opts()
    };
    let err = verify(&m, b"", &header, None, &opts).unwrap_err();
    assert_eq!(
        err,
        VerifyError::MissingCoverage {
            missing: vec!["(request-target)".into(), "digest".into(), "date".into()]
        }
    );
    assert!(
        err.to_string()
            .contains("`(request-target)`, `digest`, `date`"),
        "{err}"
    );
}

#[test]
fn every_error_has_a_summary() {
    let err = VerifyError::from(crate::HeaderError::Empty);
    assert_eq!(err.summary(), "malformed signature header");
    assert_eq!(err.to_string(), crate::HeaderError::Empty.to_string());
}

#[test]
fn vector_a_verifies_with_the_body_fed_a_byte_at_a_time_and_in_any_two_pieces() {
    let m = message_a();
    for (algorithm, covered, sig_b64) in vector_a_rows() {
        let header = header_a(algorithm, &covered.join(" "), sig_b64);
        let opts = VerifyOptions::new(NOW_A);
        let mut head = verify_head(&m, &header, Some(b"secret"), &opts).unwrap();
        assert_eq!(head.covers_body(), covered.contains(&"digest"));
        BODY_A.chunks(1).for_each(|byte| head.update(byte));
        let whole = verify(&m, BODY_A, &header, Some(b"secret"), &opts).unwrap();
        assert_eq!(head.finish().unwrap(), whole, "{algorithm} {covered:?}");
        for split in 0..=BODY_A.len() {
            let mut head = verify_head(&m, &header, Some(b"secret"), &opts).unwrap();
            head.update(&BODY_A[..split]);
            head.update(&BODY_A[split..]);
            assert!(head.finish().is_ok(), "{algorithm} {covered:?} at {split}");
        }
    }
}

#[test]
fn a_digest_mismatch_is_found_only_after_the_body() {
    let header = header_a(
        Algorithm::HmacSha256,
        "(request-target) host date digest content-length",
        "Qfm9JillOwbBtBefawkTCWdrihUMnR5QmeoLXAjVB2k=",
    );
    let mut head = verify_head(
        &message_a(),
        &header,
        Some(b"secret"),
        &VerifyOptions::new(NOW_A),
    )
    .expect("the head alone verifies");
    assert_eq!(head.verified().target_form, TargetForm::Full);
    head.update(br#"{"hello": "#);
    head.update(br#""World"}"#);
    let err = head.finish().unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Digest header's SHA-256 value does not match the request body: over the 18 body \
         bytes it received the server computed \
         SHA-256=EFXUCmW7fEIAsBCIzG8lPNYaUjHJOkXARO+SUmgofE0=; compute the digest over the exact \
         bytes you send"
    );
    assert_eq!(err.summary(), "body digest mismatch");
}

#[test]
fn an_unknown_key_is_refused_on_the_head_exactly_as_a_wrong_secret() {
    let m = job_request();
    let header = job_header(FULL_SIG);
    let unknown = verify_head(&m, &header, None, &opts()).unwrap_err();
    let wrong = verify_head(&m, &header, Some(b"not the secret"), &opts()).unwrap_err();
    assert_eq!(unknown, wrong);
    assert!(matches!(unknown, VerifyError::MacMismatch { .. }));
}

#[test]
fn a_head_without_a_covered_digest_accepts_any_body() {
    let m = job_request();
    let sig = crate::sign(
        &m,
        "k",
        Algorithm::HmacSha256,
        SECRET,
        &["(request-target)", "date"],
    )
    .unwrap();
    let mut head = verify_head(&m, &sig, Some(SECRET), &opts()).unwrap();
    assert!(!head.covers_body());
    head.update(b"anything at all");
    assert!(head.finish().is_ok());
}
