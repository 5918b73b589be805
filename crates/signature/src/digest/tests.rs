use super::*;
use crate::fixtures::{BODY_A, DIGEST_A};

const CONTENT_DIGEST_A: &str = "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:";

#[test]
fn vector_d_digest_of_the_body_matches() {
    assert_eq!(digest_header(BODY_A), DIGEST_A);
    assert_eq!(check_digest(DIGEST_A, BODY_A), Ok(()));
}

#[test]
fn vector_d_content_digest_of_the_body_matches() {
    assert_eq!(content_digest_header(BODY_A), CONTENT_DIGEST_A);
    assert_eq!(check_content_digest(CONTENT_DIGEST_A, BODY_A), Ok(()));
}

#[test]
fn algorithm_names_are_matched_ignoring_case_and_lists_are_accepted() {
    let sha512 = STANDARD.encode(Sha512::digest(BODY_A));
    let list =
        format!("md5=abc, sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=,Sha-512={sha512}");
    assert_eq!(check_digest(&list, BODY_A), Ok(()));
    let dict = format!("sha-512=:{sha512}:;p=1, unixsum=:AA==:, {CONTENT_DIGEST_A}");
    assert_eq!(check_content_digest(&dict, BODY_A), Ok(()));
}

#[test]
fn a_changed_body_fails_the_digest_and_reports_the_server_digest() {
    let err = check_digest(DIGEST_A, b"{\"hello\": \"World\"}").unwrap_err();
    let DigestError::Mismatch {
        computed, body_len, ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(
        (computed.as_str(), *body_len),
        (digest_header(b"{\"hello\": \"World\"}").as_str(), 18)
    );
    assert!(
        err.to_string().contains("does not match the request body"),
        "{err}"
    );
}

#[test]
fn every_supported_member_must_match() {
    let wrong512 = STANDARD.encode(Sha512::digest(b"other"));
    let list = format!("{DIGEST_A},SHA-512={wrong512}");
    assert!(matches!(
        check_digest(&list, BODY_A),
        Err(DigestError::Mismatch { .. })
    ));
}

#[test]
fn an_unsupported_digest_algorithm_is_rejected() {
    let err = check_digest("MD5=HUXZLQLMuI/KZ5KDcJPcOA==", BODY_A).unwrap_err();
    assert!(matches!(&err, DigestError::Unsupported { found, .. } if found == &["MD5"]));
    assert!(err.to_string().contains("SHA-256 or SHA-512"), "{err}");
    let err = check_content_digest("md5=:HUXZLQLMuI/KZ5KDcJPcOA==:", BODY_A).unwrap_err();
    assert!(matches!(err, DigestError::Unsupported { .. }));
}

#[test]
fn an_empty_digest_is_rejected() {
    assert!(matches!(
        check_digest(" , ", BODY_A),
        Err(DigestError::Empty { .. })
    ));
}

#[test]
fn a_digest_that_is_not_base64_is_rejected() {
    assert!(matches!(
        check_digest("SHA-256=%%%", BODY_A),
        Err(DigestError::Malformed { .. })
    ));
    assert!(matches!(
        check_digest("SHA-256", BODY_A),
        Err(DigestError::Malformed { .. })
    ));
}

#[test]
fn a_content_digest_without_colons_is_rejected() {
    let bare = "sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=";
    assert!(matches!(
        check_content_digest(bare, BODY_A),
        Err(DigestError::Malformed { .. })
    ));
}

#[test]
fn a_digest_of_the_wrong_length_is_a_mismatch() {
    assert!(matches!(
        check_digest("SHA-256=AAAA", BODY_A),
        Err(DigestError::Mismatch { .. })
    ));
}

#[test]
fn hashing_in_pieces_equals_hashing_at_once() {
    let sha512 = STANDARD.encode(Sha512::digest(BODY_A));
    let list = format!("{DIGEST_A}, SHA-512={sha512}");
    let dict = format!("{CONTENT_DIGEST_A}, sha-512=:{sha512}:");
    for size in 1..=BODY_A.len() {
        let mut digest = DigestCheck::digest(&list).unwrap();
        let mut content = DigestCheck::content_digest(&dict).unwrap();
        for piece in BODY_A.chunks(size) {
            digest.update(piece);
            content.update(piece);
        }
        assert_eq!(digest.body_len(), BODY_A.len());
        assert_eq!(digest.finish(), Ok(()), "pieces of {size}");
        assert_eq!(content.finish(), Ok(()), "pieces of {size}");
    }
}

#[test]
fn a_mismatch_in_pieces_reports_what_a_check_at_once_reports() {
    let other = b"{\"hello\": \"World\"}";
    let mut check = DigestCheck::digest(DIGEST_A).unwrap();
    other.chunks(7).for_each(|piece| check.update(piece));
    assert_eq!(check.finish(), check_digest(DIGEST_A, other));
    assert!(check_digest(DIGEST_A, other).is_err());
}

#[test]
fn a_malformed_member_is_refused_before_any_body_even_after_a_good_one() {
    let list = format!("{DIGEST_A}, SHA-512=%%%");
    assert!(matches!(
        DigestCheck::digest(&list),
        Err(DigestError::Malformed { .. })
    ));
    assert!(matches!(
        DigestCheck::digest("MD5=HUXZLQLMuI/KZ5KDcJPcOA=="),
        Err(DigestError::Unsupported { .. })
    ));
    assert!(matches!(
        DigestCheck::content_digest(""),
        Err(DigestError::Empty { .. })
    ));
}

#[test]
fn an_empty_body_is_checked_too() {
    let check = DigestCheck::digest(&digest_header(b"")).unwrap();
    assert_eq!(check.finish(), Ok(()));
    let check = DigestCheck::digest(DIGEST_A).unwrap();
    assert!(matches!(
        check.finish(),
        Err(DigestError::Mismatch { body_len: 0, .. })
    ));
}
