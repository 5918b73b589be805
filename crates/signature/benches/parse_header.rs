//! What parsing a signature header costs, for a normal header and for the hostile ones of
//! issue 13 (a 400 KB header of 38,000 parameters or of 50,000 covered names, which took
//! seconds before the limits): `cargo bench -p intake-signature --bench parse_header`.

use criterion::{criterion_group, criterion_main, Criterion};
use intake_signature::{SignatureHeader, MAX_HEADER_BYTES};
use std::hint::black_box;

const SIG: &str = "w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU=";

/// What a real client sends.
fn normal() -> String {
    format!(
        r#"Signature keyId="stg_0123456789abcdef",algorithm="hmac-sha256",headers="(request-target) host date digest content-length",signature="{SIG}""#
    )
}

/// Keeps adding `item(i)` after `start` while the whole stays within `bytes`.
fn grow(start: &str, bytes: usize, item: impl Fn(usize) -> String) -> String {
    let mut value = start.to_owned();
    for i in 0.. {
        let next = item(i);
        if value.len() + next.len() > bytes {
            break;
        }
        value.push_str(&next);
    }
    value
}

/// The most a header under the limit can hold: one long unknown parameter.
fn at_the_limit() -> String {
    let base = format!("{},pad=\"\"", normal());
    let pad = "p".repeat(MAX_HEADER_BYTES - base.len());
    format!("{},pad=\"{pad}\"", normal())
}

fn parse(c: &mut Criterion) {
    let kb400 = 400 * 1024;
    let many_parameters = grow(
        &format!(r#"Signature keyId="k",algorithm="hmac-sha256",signature="{SIG}""#),
        kb400,
        |i| format!(r#",p{i}="v""#),
    );
    let many_names = format!(
        "{}\",signature=\"{SIG}\"",
        grow(
            r#"Signature keyId="k",algorithm="hmac-sha256",headers="h"#,
            kb400 - 60,
            |i| format!(" h{i}"),
        )
    );
    let cases = [
        ("normal header", normal()),
        ("8 KiB header at the limit", at_the_limit()),
        ("400 KB header, many parameters", many_parameters),
        ("400 KB header, many covered names", many_names),
    ];
    for (name, value) in &cases {
        c.bench_function(&format!("parse/{name} ({} bytes)", value.len()), |b| {
            b.iter(|| SignatureHeader::parse(black_box(value)))
        });
    }
}

criterion_group!(benches, parse);
criterion_main!(benches);
