//! The size limits: each is refused with its own error, at the limit and far over it, and
//! before the text beyond the limit is read.

use super::params::parse_params;
use super::*;

const SIG: &str = "w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU=";

/// A valid header with `n` parameters: the four the scheme needs, then unknown ones.
fn with_parameters(n: usize) -> String {
    let mut params = vec![
        r#"keyId="k""#.to_owned(),
        r#"algorithm="hmac-sha256""#.to_owned(),
        r#"headers="(request-target) host date""#.to_owned(),
        format!(r#"signature="{SIG}""#),
    ];
    params.extend((params.len()..n).map(|i| format!(r#"x{i}="{i}""#)));
    format!("Signature {}", params.join(","))
}

/// `n` distinct names for a `headers` parameter.
fn names(n: usize) -> String {
    (0..n)
        .map(|i| format!("h{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn with_covered(list: &str) -> String {
    format!(r#"Signature keyId="k",algorithm="hmac-sha256",headers="{list}",signature="{SIG}""#)
}

#[test]
fn a_header_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() {
    let base = with_parameters(4);
    let pad = MAX_HEADER_BYTES - base.len() - r#",pad="""#.len();
    let at_limit = format!(r#"{base},pad="{}""#, "p".repeat(pad));
    assert_eq!(at_limit.len(), MAX_HEADER_BYTES);
    assert!(SignatureHeader::parse(&at_limit).is_ok());

    let over = format!(r#"{base},pad="{}""#, "p".repeat(pad + 1));
    assert_eq!(
        SignatureHeader::parse(&over).unwrap_err(),
        HeaderError::TooLong {
            length: MAX_HEADER_BYTES + 1
        }
    );
}

#[test]
fn a_400_kb_header_is_refused_by_its_length_before_any_of_it_is_read() {
    // Read, this would be refused for its scheme at the first word and for its unterminated
    // quote at the last byte; only its length is looked at.
    let value = format!("Bearer {}\"", "x".repeat(400 * 1024));
    let err = SignatureHeader::parse(&value).unwrap_err();
    assert_eq!(
        err,
        HeaderError::TooLong {
            length: value.len()
        }
    );
    let message = err.to_string();
    assert!(
        message.contains(&format!("{} bytes", value.len()))
            && message.contains("limit of 8192 bytes"),
        "{message}"
    );
}

#[test]
fn forty_thousand_parameters_are_refused() {
    // As a header it is over the size limit long before it is over the parameter limit.
    let header = with_parameters(40_000);
    assert!(matches!(
        SignatureHeader::parse(&header),
        Err(HeaderError::TooLong { .. })
    ));
    // The parameter reader alone, without the size check, stops at the limit too.
    let params = header.strip_prefix("Signature ").unwrap();
    assert_eq!(
        parse_params(params).unwrap_err(),
        HeaderError::TooManyParameters
    );
}

#[test]
fn one_parameter_over_the_limit_is_refused_naming_the_limit() {
    assert!(SignatureHeader::parse(&with_parameters(MAX_PARAMETERS)).is_ok());
    let err = SignatureHeader::parse(&with_parameters(MAX_PARAMETERS + 1)).unwrap_err();
    assert_eq!(err, HeaderError::TooManyParameters);
    assert!(err.to_string().contains("more than 16 parameters"), "{err}");
}

#[test]
fn the_parameters_after_the_limit_are_never_read() {
    // After the limit: a repeated keyId, junk, then a quote that never closes. Each would be
    // its own error if the reader went on; it stops where the first parameter over starts.
    let value = format!(
        r#"{},keyId="again",}}}}junk,tail="never closed"#,
        with_parameters(MAX_PARAMETERS)
    );
    assert_eq!(
        SignatureHeader::parse(&value).unwrap_err(),
        HeaderError::TooManyParameters
    );
}

#[test]
fn fifty_thousand_covered_names_are_refused() {
    let list = names(50_000);
    assert!(matches!(
        SignatureHeader::parse(&with_covered(&list)),
        Err(HeaderError::TooLong { .. })
    ));
    // The name reader alone, without the size check, stops at the limit too.
    assert_eq!(
        covered_names(&list).unwrap_err(),
        HeaderError::TooManyCoveredHeaders
    );
}

#[test]
fn one_covered_name_over_the_limit_is_refused_naming_the_limit() {
    let h = SignatureHeader::parse(&with_covered(&names(MAX_COVERED_HEADERS))).unwrap();
    assert_eq!(h.headers.len(), MAX_COVERED_HEADERS);
    let err = SignatureHeader::parse(&with_covered(&names(MAX_COVERED_HEADERS + 1))).unwrap_err();
    assert_eq!(err, HeaderError::TooManyCoveredHeaders);
    assert!(err.to_string().contains("more than 32 names"), "{err}");
}

#[test]
fn the_covered_names_after_the_limit_are_never_read() {
    // `h0` again at the end would be a duplicate; the reader stops before reaching it.
    let list = format!("{} h0", names(50_000));
    assert_eq!(
        covered_names(&list).unwrap_err(),
        HeaderError::TooManyCoveredHeaders
    );
}

#[test]
fn a_duplicate_within_the_limits_is_still_found() {
    let list = format!("{} H3", names(MAX_COVERED_HEADERS - 1));
    assert_eq!(
        covered_names(&list).unwrap_err(),
        HeaderError::DuplicateCoveredHeader { name: "h3".into() }
    );
    let value = format!(r#"{},X5="again""#, with_parameters(MAX_PARAMETERS - 1));
    assert_eq!(
        SignatureHeader::parse(&value).unwrap_err(),
        HeaderError::DuplicateParameter { name: "X5".into() }
    );
}
