use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::*;
use crate::fixtures::{message_a, message_b, message_c, names};
use crate::Algorithm;

const S1: &str = "content-length: 18\nhost: example.org\ndate: Tue, 07 Jun 2014 20:51:35 GMT\n(request-target): get /foo/Bar";
const S2: &str = "content-length: 18\nhost: example.org\ndate: Tue, 07 Jun 2014 20:51:35 GMT";

fn b64_mac(algorithm: Algorithm, secret: &str, data: &str) -> String {
    STANDARD.encode(algorithm.mac(secret.as_bytes(), data.as_bytes()))
}

fn build(message: &Message, covered: &str) -> Result<String, SigningStringError> {
    message.signing_string(&names(covered), &message.target, None, None)
}

#[test]
fn vector_b_signing_strings_s1_and_s2_are_built_exactly() {
    let b = message_b();
    assert_eq!(
        build(&b, "content-length host date (request-target)").unwrap(),
        S1
    );
    assert_eq!(build(&b, "content-length host date").unwrap(), S2);
}

#[test]
fn vector_b_all_twelve_macs_match() {
    let cells = [
        (Algorithm::HmacSha1, "don't tell", S1, "DMP1G2BKLf1o9iKg0NvPZo8RigY="),
        (Algorithm::HmacSha1, "another key", S1, "P6FNqBvdGQcaNTecru8KR1ObHLY="),
        (Algorithm::HmacSha1, "don't tell", S2, "VPEKHCIXUlAqXNCmoB+aSelBZkU="),
        (Algorithm::HmacSha1, "another key", S2, "mhWHbBqk3ArpoYlT60VING3P1gQ="),
        (Algorithm::HmacSha256, "don't tell", S1, "yT/NrPI9mKB5R7FTLRyFWvB+QLQOEAvbGmauC0tI+Jg="),
        (Algorithm::HmacSha256, "another key", S1, "sr+ungXeJjxCEJvJSFS0o+P9deafROte/1n3q+Ig6mg="),
        (Algorithm::HmacSha256, "don't tell", S2, "R6gbUcVfoGGkCy//JjBSF7jkD9wIQA4DKruUgtv/P1M="),
        (Algorithm::HmacSha256, "another key", S2, "KrB+54zf29LFZrkwgVTUlJOyOeBtl0BzOp6FdjbDo70="),
        (Algorithm::HmacSha512, "don't tell", S1, "HKObooU+mlMdFoxn29Yk0U8JZlFMXlpLqdcVd4OyJHInyjbJNTtkSoVFU4EgogzGTQRLed9Ja8+SxwGS8Lw2UQ=="),
        (Algorithm::HmacSha512, "another key", S1, "qxy0NC6BelTV0O8eVWYyyptgsVx/UjAorCLDjirznEEC6ay4orgGvmCFHlz1O1uYEY7t2xTCk5Dw5Rhnf20bEA=="),
        (Algorithm::HmacSha512, "don't tell", S2, "WHVT+7KsEIzmJ69ujXuRXPzRvb4yfrZZSXlxnnnuRR5r3H9MyJ7y1t1xWgu9pEmj41gzdogF4pF3hR0Z7f62Jw=="),
        (Algorithm::HmacSha512, "another key", S2, "+w0a5Sw0+pOzA0OHXiVD5DDx2xdOqZcebhFtaXINUPWFhf68pVdWSzOPjGGHa/zIhsE152FT4E1mHbrPZO71Eg=="),
    ];
    for (algorithm, secret, data, expected) in cells {
        assert_eq!(
            b64_mac(algorithm, secret, data),
            expected,
            "{algorithm} {secret:?}"
        );
    }
}

#[test]
fn vector_c_canonicalisation_gives_the_exact_string_and_signature() {
    let c = message_c();
    let got = build(
        &c,
        "(request-target) host date cache-control x-emptyheader x-example",
    )
    .unwrap();
    let expected = "(request-target): get /foo?a=1&b=%2F\n\
                    host: example.org\n\
                    date: Tue, 07 Jun 2014 20:51:35 GMT\n\
                    cache-control: max-age=60, must-revalidate\n\
                    x-emptyheader: \n\
                    x-example: Example header with some whitespace.";
    assert_eq!(got, expected);
    assert_eq!(
        b64_mac(Algorithm::HmacSha256, "secret", &got),
        "EOtAkrUiMbRG/zXAYBtZGs9Q35/d5MsUiB+uJUckCHU="
    );
}

#[test]
fn header_names_match_ignoring_case_and_output_is_lowercase() {
    let m = Message::new("GET", "/")
        .header("X-Thing", "a")
        .header("x-THING", "b");
    assert_eq!(m.values("x-thing"), ["a", "b"]);
    assert_eq!(build(&m, "X-Thing").unwrap(), "x-thing: a, b");
}

#[test]
fn only_spaces_and_tabs_are_trimmed_from_values() {
    let m = Message::new("GET", "/").header("x-a", "\t v\u{a0} \t");
    assert_eq!(build(&m, "x-a").unwrap(), "x-a: v\u{a0}");
}

#[test]
fn the_given_target_is_used_for_request_target() {
    let m = message_a();
    let got = m.signing_string(&names("(request-target)"), "/jobs", None, None);
    assert_eq!(got.unwrap(), "(request-target): post /jobs");
}

#[test]
fn created_and_expires_come_from_the_parameters() {
    let m = message_b();
    let got = m.signing_string(&names("(created) (expires)"), "/", Some(10), Some(20));
    assert_eq!(got.unwrap(), "(created): 10\n(expires): 20");
}

#[test]
fn created_without_its_parameter_is_an_error() {
    let err = build(&message_b(), "(created) date").unwrap_err();
    assert_eq!(
        err,
        SigningStringError::MissingParameter {
            name: "(created)".into(),
            parameter: "created"
        }
    );
}

#[test]
fn a_listed_header_that_is_absent_is_an_error_naming_it() {
    let err = build(&message_b(), "date digest").unwrap_err();
    assert_eq!(
        err,
        SigningStringError::MissingHeader {
            name: "digest".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "the Signature header lists `digest` but the request has no Digest header; \
         send that header or remove it from the headers parameter"
    );
}

#[test]
fn repeats_of_single_valued_headers_are_errors() {
    for name in [
        "Host",
        "Date",
        "Digest",
        "Content-Digest",
        "Content-Length",
        "Content-Type",
    ] {
        let m = Message::new("GET", "/").header(name, "a").header(name, "b");
        let err = build(&m, &name.to_ascii_lowercase()).unwrap_err();
        assert!(
            matches!(err, SigningStringError::RepeatedHeader { count: 2, .. }),
            "{name}"
        );
        assert!(
            err.to_string().contains(&format!("2 {name} headers")),
            "{err}"
        );
    }
}

#[test]
fn an_unknown_pseudo_header_is_an_error() {
    let err = build(&message_b(), "(method)").unwrap_err();
    assert_eq!(
        err,
        SigningStringError::UnknownPseudoHeader {
            name: "(method)".into()
        }
    );
}

#[test]
fn an_empty_or_repeating_list_is_an_error() {
    let m = message_b();
    assert_eq!(
        m.signing_string(&[], "/", None, None),
        Err(SigningStringError::NothingCovered)
    );
    assert!(matches!(
        build(&m, "date Date"),
        Err(SigningStringError::DuplicateCovered { .. })
    ));
}
