//! The verdicts, each checked against what hyper itself answers to the same
//! head, so that the mirror cannot drift from hyper unnoticed.

use super::*;
use crate::serve::READ_BUFFER_BYTES;
use axum::body::Bytes;
use http_body_util::Empty;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What a bare hyper connection, configured as ours, answers to `head`: the
/// status, and whether the answer had a body.
async fn hyper_answer(head: &[u8]) -> (u16, bool) {
    let (client, server) = tokio::io::duplex(1 << 20);
    let served = tokio::spawn(async move {
        let service = service_fn(|_request| async {
            Ok::<_, Infallible>(hyper::Response::new(Empty::<Bytes>::new()))
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.max_buf_size(READ_BUFFER_BYTES);
        let _ = builder
            .serve_connection(TokioIo::new(server), service)
            .await;
    });
    let (mut reader, mut writer) = tokio::io::split(client);
    writer.write_all(head).await.unwrap();
    let mut answer = Vec::new();
    let mut chunk = [0u8; 1024];
    // One answer is enough: hyper keeps a good connection open.
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = reader.read(&mut chunk).await.unwrap();
        if read == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..read]);
    }
    served.abort();
    let text = String::from_utf8_lossy(&answer).to_ascii_lowercase();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or(0);
    (status, !text.contains("content-length: 0"))
}

fn status_of(verdict: &Verdict) -> u16 {
    match verdict {
        Verdict::Fine => 200,
        Verdict::Incomplete => 0,
        Verdict::Malformed { status, .. } => status.as_u16(),
    }
}

fn detail_of(head: &[u8]) -> String {
    match judge(head, READ_BUFFER_BYTES) {
        Verdict::Malformed { detail, .. } => detail,
        other => panic!("{other:?}"),
    }
}

fn many_headers(count: usize) -> Vec<u8> {
    let mut head = b"GET / HTTP/1.1\r\n".to_vec();
    for n in 0..count {
        head.extend_from_slice(format!("x-{n}: 1\r\n").as_bytes());
    }
    head.extend_from_slice(b"\r\n");
    head
}

/// Heads hyper serves and heads it refuses, of every kind judged here.
fn heads() -> Vec<Vec<u8>> {
    let mut heads: Vec<Vec<u8>> = [
        &b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        b"\r\n\r\nGET / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\nHost: x\n\n",
        b"GET / HTTP/1.1\r\nHost:x\r\n\r\n",
        b"GET / HTTP/1.1\r\nX-Obs: caf\xc3\xa9\r\n\r\n",
        b"GET http://example.com/a?b=c HTTP/1.1\r\n\r\n",
        b"OPTIONS * HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.0\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: abc\r\n\r\n0\r\n\r\n",
        b"GARBAGE\r\n\r\n",
        b"G@T / HTTP/1.1\r\n\r\n",
        b"GET /a b HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.2\r\n\r\n",
        b"GET /a\"b HTTP/1.1\r\n\r\n",
        b"GET /a{b} HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nNoColon\r\n\r\n",
        b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
        b"GET / HTTP/1.1\r\n: empty name\r\n\r\n",
        b"GET / HTTP/1.1\r\n Folded: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n",
        b"GET / HTTP/1.1\rX: a\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
        b"POST /a HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n\r\n",
        b"POST /a HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        b"POST /a HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
    ]
    .iter()
    .map(|head| head.to_vec())
    .collect();
    heads.push(many_headers(100));
    heads.push(many_headers(101));
    let mut endless = b"GET / HTTP/1.1\r\nX: ".to_vec();
    endless.resize(READ_BUFFER_BYTES + 10, b'a');
    heads.push(endless);
    heads
}

#[tokio::test]
async fn every_verdict_matches_what_hyper_itself_answers() {
    for head in heads() {
        let verdict = judge(&head, READ_BUFFER_BYTES);
        let (status, has_body) = hyper_answer(&head).await;
        let shown = String::from_utf8_lossy(&head[..head.len().min(80)]).into_owned();
        assert_eq!(status_of(&verdict), status, "{shown:?}: {verdict:?}");
        if status != 200 {
            assert!(!has_body, "hyper's own {status} is empty: {shown:?}");
        }
    }
}

#[test]
fn no_part_of_a_good_head_is_judged_before_it_is_whole() {
    for head in heads() {
        if judge(&head, READ_BUFFER_BYTES) != Verdict::Fine {
            continue;
        }
        for end in 0..head.len() {
            let part = &head[..end];
            let verdict = judge(part, READ_BUFFER_BYTES);
            assert!(
                matches!(verdict, Verdict::Incomplete | Verdict::Fine),
                "{:?}: {verdict:?}",
                String::from_utf8_lossy(part)
            );
        }
    }
}

#[test]
fn an_http2_preface_is_left_to_hyper() {
    assert_eq!(
        judge(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", READ_BUFFER_BYTES),
        Verdict::Fine
    );
}

#[test]
fn the_details_say_what_is_wrong() {
    assert_eq!(
        detail_of(b"GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n"),
        "Header line 2 (`NoColon`) has no colon. A header line is a name (letters, digits and \
         !#$%&'*+-.^_`|~, no spaces), a colon, then the value."
    );
    assert!(detail_of(b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n")
        .starts_with("Header line 1 (`Bad Name: x`) has no valid name before its colon."));
    assert!(detail_of(b"GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n")
        .starts_with("The value of header line 1 (`X: a\\x01b`) holds a control character."));
    assert!(detail_of(b"GARBAGE\r\n\r\n")
        .starts_with("The request line `GARBAGE` does not start with a method"));
    assert!(
        detail_of(b"GET /a b HTTP/1.1\r\n\r\n").contains("does not end with the version HTTP/1.1")
    );
    assert!(
        detail_of(b"POST /a HTTP/1.1\r\nContent-Length: abc\r\n\r\n")
            .starts_with("The Content-Length `abc` is not a number")
    );
    assert!(detail_of(&many_headers(101)).contains("more than 100 header lines"));
}

#[test]
fn the_method_and_path_are_kept_for_the_answer_when_the_request_line_has_them() {
    let Verdict::Malformed { method, path, .. } = judge(
        b"POST /v1/affiliate-job/jobs HTTP/1.1\r\nNoColon\r\n\r\n",
        READ_BUFFER_BYTES,
    ) else {
        panic!("not malformed");
    };
    assert_eq!(
        (method.as_deref(), path.as_deref()),
        (Some("POST"), Some("/v1/affiliate-job/jobs"))
    );
}

#[test]
fn quoted_client_bytes_are_printable_and_bounded() {
    assert_eq!(quote(b"a`\x1b[31m\xff"), "a\\x60\\x1b[31m\\xff");
    let long = quote(&[b'x'; 200]);
    assert_eq!(long.len(), QUOTE_BYTES + 3);
    assert!(long.ends_with("..."));
}
