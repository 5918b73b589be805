use super::*;
use crate::UnknownAlgorithm;

const SIG: &str = "w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU=";

fn parse_params_str(params: &str) -> Result<SignatureHeader, HeaderError> {
    SignatureHeader::parse(&format!("Signature {params}"))
}

fn with_signature(sig: &str) -> Result<SignatureHeader, HeaderError> {
    parse_params_str(&format!(
        r#"keyId="k",algorithm="hmac-sha256",signature="{sig}""#
    ))
}

#[test]
fn an_authorization_value_parses_into_all_fields() {
    let h = SignatureHeader::parse(&format!(
        r#"Signature keyId="test-hmac",algorithm="hmac-sha256",headers="(request-target) Host date",signature="{SIG}""#
    ))
    .unwrap();
    assert_eq!(h.key_id, "test-hmac");
    assert_eq!(h.algorithm, Algorithm::HmacSha256);
    assert_eq!(h.headers, ["(request-target)", "host", "date"]);
    assert_eq!(STANDARD.encode(&h.signature), SIG);
    assert_eq!((h.created, h.expires), (None, None));
}

#[test]
fn a_bare_signature_header_value_parses_even_when_it_starts_with_signature() {
    let bare = format!(r#"signature="{SIG}",keyId="k",algorithm="hmac-sha256""#);
    assert_eq!(SignatureHeader::parse(&bare).unwrap().key_id, "k");
    let spaced = format!(r#"keyId = "k" , algorithm= "hmac-sha256",signature ="{SIG}""#);
    assert_eq!(SignatureHeader::parse(&spaced).unwrap().key_id, "k");
}

#[test]
fn the_scheme_is_matched_ignoring_case() {
    let h = SignatureHeader::parse(&format!(
        r#"SIGNATURE   keyId="k",algorithm="HMAC-SHA256",signature="{SIG}""#
    ));
    assert_eq!(h.unwrap().algorithm, Algorithm::HmacSha256);
}

#[test]
fn a_missing_headers_parameter_means_date() {
    let h = with_signature(SIG).unwrap();
    assert_eq!(h.headers, ["date"]);
    assert!(h.default_headers);
    assert!(!h.to_string().contains("headers="), "{h}");
    assert_eq!(SignatureHeader::parse(&h.to_string()).unwrap(), h);
}

#[test]
fn a_listed_date_is_not_the_default() {
    let h = parse_params_str(&format!(
        r#"keyId="k",algorithm="hmac-sha256",headers="date",signature="{SIG}""#
    ))
    .unwrap();
    assert_eq!(h.headers, ["date"]);
    assert!(!h.default_headers);
}

#[test]
fn unknown_parameters_are_ignored() {
    let h = parse_params_str(&format!(
        r#"keyId="k",foo="bar",algorithm="hmac-sha256",signature="{SIG}",extra="1""#
    ));
    assert!(h.is_ok(), "{h:?}");
}

#[test]
fn created_and_expires_are_read_quoted_or_bare() {
    let h = parse_params_str(&format!(
        r#"keyId="k",algorithm="hmac-sha256",created=1402170695,expires="1402170995",signature="{SIG}""#
    ))
    .unwrap();
    assert_eq!((h.created, h.expires), (Some(1402170695), Some(1402170995)));
}

#[test]
fn a_non_integer_created_is_rejected() {
    let err = parse_params_str(&format!(
        r#"keyId="k",algorithm="hmac-sha256",created="soon",signature="{SIG}""#
    ))
    .unwrap_err();
    assert!(matches!(
        err,
        HeaderError::InvalidTimestamp {
            name: "created",
            ..
        }
    ));
}

#[test]
fn display_round_trips_through_parse() {
    let h = parse_params_str(&format!(
        r#"keyId="a \"quoted\" id",algorithm="hmac-sha256",headers="(request-target) date",signature="{SIG}",created=5"#
    ))
    .unwrap();
    let text = h.to_string();
    assert!(text.starts_with(r#"keyId="a \"quoted\" id",algorithm="hmac-sha256",headers="(request-target) date",signature=""#));
    assert_eq!(SignatureHeader::parse(&text).unwrap(), h);
    assert_eq!(SignatureHeader::parse(&h.to_authorization()).unwrap(), h);
}

#[test]
fn a_missing_signature_is_rejected() {
    let err = parse_params_str(r#"keyId="k",algorithm="hmac-sha256""#).unwrap_err();
    assert_eq!(err, HeaderError::MissingParameter { name: "signature" });
}

#[test]
fn a_missing_key_id_is_rejected() {
    let err = parse_params_str(&format!(r#"algorithm="hmac-sha256",signature="{SIG}""#));
    assert_eq!(
        err.unwrap_err(),
        HeaderError::MissingParameter { name: "keyId" }
    );
}

#[test]
fn an_empty_key_id_is_rejected() {
    let err = parse_params_str(&format!(
        r#"keyId="",algorithm="hmac-sha256",signature="{SIG}""#
    ));
    assert_eq!(err.unwrap_err(), HeaderError::EmptyKeyId);
}

#[test]
fn a_missing_algorithm_is_rejected() {
    let err = parse_params_str(&format!(r#"keyId="k",signature="{SIG}""#)).unwrap_err();
    assert_eq!(err, HeaderError::MissingParameter { name: "algorithm" });
}

#[test]
fn a_duplicate_parameter_is_rejected() {
    let err = parse_params_str(&format!(
        r#"keyId="k",algorithm="hmac-sha256",keyId="other",signature="{SIG}""#
    ))
    .unwrap_err();
    assert_eq!(
        err,
        HeaderError::DuplicateParameter {
            name: "keyId".into()
        }
    );
}

#[test]
fn an_empty_headers_parameter_is_rejected() {
    for empty in ["", "  "] {
        let err = parse_params_str(&format!(
            r#"keyId="k",algorithm="hmac-sha256",headers="{empty}",signature="{SIG}""#
        ))
        .unwrap_err();
        assert_eq!(err, HeaderError::EmptyHeaders);
    }
}

#[test]
fn a_name_listed_twice_in_headers_is_rejected() {
    let err = parse_params_str(&format!(
        r#"keyId="k",algorithm="hmac-sha256",headers="date host Date",signature="{SIG}""#
    ))
    .unwrap_err();
    assert_eq!(
        err,
        HeaderError::DuplicateCoveredHeader {
            name: "date".into()
        }
    );
}

#[test]
fn an_unknown_algorithm_is_rejected() {
    let err = parse_params_str(&format!(
        r#"keyId="k",algorithm="rsa-sha256",signature="{SIG}""#
    ))
    .unwrap_err();
    assert_eq!(
        err,
        HeaderError::UnknownAlgorithm(UnknownAlgorithm("rsa-sha256".into()))
    );
    assert!(err.to_string().contains("hmac-sha256"));
}

#[test]
fn an_empty_signature_is_rejected() {
    assert_eq!(with_signature("").unwrap_err(), HeaderError::EmptySignature);
}

#[test]
fn a_truncated_signature_is_rejected() {
    let err = with_signature(&SIG[..36]).unwrap_err();
    assert_eq!(
        err,
        HeaderError::SignatureLength {
            algorithm: Algorithm::HmacSha256,
            expected: 32,
            actual: 27
        }
    );
}

#[test]
fn a_signature_of_another_algorithms_length_is_rejected() {
    let sha1 = "6AdxFZw9iXuZfpJCQnBSYcRH55g=";
    assert!(matches!(
        with_signature(sha1),
        Err(HeaderError::SignatureLength { actual: 20, .. })
    ));
}

#[test]
fn a_non_base64_signature_is_rejected() {
    for bad in ["%%%%", "w0konuLQCdwz0wFK92EUjJgt_KiswVm3NjEwmyQI0CU="] {
        assert!(matches!(
            with_signature(bad),
            Err(HeaderError::InvalidBase64 { .. })
        ));
    }
}

#[test]
fn a_badly_padded_signature_is_rejected() {
    let unpadded = SIG.trim_end_matches('=');
    let over_padded = format!("{SIG}=");
    for bad in [unpadded, over_padded.as_str()] {
        assert!(
            matches!(with_signature(bad), Err(HeaderError::InvalidBase64 { .. })),
            "{bad}"
        );
    }
}

#[test]
fn an_unquoted_value_is_rejected() {
    let err = parse_params_str(&format!(
        r#"keyId=k,algorithm="hmac-sha256",signature="{SIG}""#
    ));
    assert_eq!(
        err.unwrap_err(),
        HeaderError::UnquotedValue {
            name: "keyId".into()
        }
    );
}

#[test]
fn an_unterminated_value_is_rejected() {
    let err = parse_params_str(r#"keyId="k",algorithm="hmac-sha256",signature="abc"#);
    assert_eq!(
        err.unwrap_err(),
        HeaderError::UnterminatedValue {
            name: "signature".into()
        }
    );
}

#[test]
fn another_authorization_scheme_is_rejected() {
    let err = SignatureHeader::parse("Bearer abc.def").unwrap_err();
    assert_eq!(
        err,
        HeaderError::WrongScheme {
            scheme: "Bearer".into()
        }
    );
    assert!(err.to_string().contains("Signature"));
}

#[test]
fn a_lone_parameter_name_is_not_mistaken_for_a_scheme() {
    assert!(matches!(
        SignatureHeader::parse("keyId"),
        Err(HeaderError::ExpectedParameter { .. })
    ));
}

#[test]
fn an_empty_value_is_rejected() {
    assert_eq!(
        SignatureHeader::parse("  ").unwrap_err(),
        HeaderError::Empty
    );
    assert_eq!(
        SignatureHeader::parse("Signature").unwrap_err(),
        HeaderError::MissingParameter { name: "keyId" }
    );
}
