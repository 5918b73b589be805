//! Fuzzes `SignatureHeader::parse` and, when it succeeds, the signing string, the `Display`
//! round trip and `verify` against a request built from the same input (also with the body fed
//! to `verify_head`'s result in two pieces).
//!
//! Run with `cargo +nightly fuzz run parse_header` from this directory.
#![no_main]

use intake_signature::{verify, verify_head, Message, SignatureHeader, VerifyOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the header value; the rest are `name: value` request header fields.
    let mut lines = text.split('\n');
    let value = lines.next().unwrap_or_default();
    let Ok(header) = SignatureHeader::parse(value) else {
        return;
    };

    let mut message = Message::new("POST", "/v1/affiliate-job/jobs?x=1");
    for line in lines {
        if let Some((name, field)) = line.split_once(':') {
            message.push_header(name, field);
        }
    }
    let built = message.signing_string(
        &header.headers,
        &message.target,
        header.created,
        header.expires,
    );
    if let Ok(signing_string) = &built {
        // Field values hold no newline here, so every covered name is exactly one line.
        assert_eq!(signing_string.split('\n').count(), header.headers.len());
    }

    // What the header prints must parse back to the same header.
    let reparsed = SignatureHeader::parse(&header.to_string()).expect("Display output parses");
    assert_eq!(reparsed, header);

    let opts = VerifyOptions {
        base_path: Some("/v1/affiliate-job".into()),
        ..VerifyOptions::new(time::OffsetDateTime::UNIX_EPOCH)
    };
    let _ = verify(&message, data, &header, None, &opts);
    let whole = verify(&message, data, &header, Some(b"secret"), &opts);
    // The body in two pieces gives what the body at once gives.
    let in_pieces = verify_head(&message, &header, Some(b"secret"), &opts).and_then(|mut head| {
        let (first, rest) = data.split_at(data.len() / 2);
        head.update(first);
        head.update(rest);
        head.finish()
    });
    assert_eq!(in_pieces, whole);
});
