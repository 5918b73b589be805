use super::*;
use crate::serve::READ_BUFFER_BYTES;
use futures::FutureExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// What hyper would read through a [`FirstHead`] from a client that sends
/// `pieces` (each in its own write) and then closes, and the verdict left.
async fn through(pieces: &[&[u8]]) -> (Vec<u8>, Option<MalformedHead>) {
    let read = read_through(pieces).await;
    assert_eq!(
        read.held,
        read.verdict.is_some(),
        "reads are held after a stand-in, and only then"
    );
    (read.bytes, read.verdict)
}

struct Read {
    bytes: Vec<u8>,
    verdict: Option<MalformedHead>,
    /// Whether reading ended with a read that never completes, rather than the end of the stream.
    held: bool,
}

async fn read_through(pieces: &[&[u8]]) -> Read {
    let (mut client, server): (DuplexStream, DuplexStream) = tokio::io::duplex(1 << 20);
    let slot = VerdictSlot::default();
    let mut io = FirstHead::new(server, READ_BUFFER_BYTES, slot.clone());
    let pieces: Vec<Vec<u8>> = pieces.iter().map(|piece| piece.to_vec()).collect();
    let writer = tokio::spawn(async move {
        for piece in pieces {
            client.write_all(&piece).await.unwrap();
            tokio::task::yield_now().await;
        }
    });
    // Everything is sent and the client gone before reading: every read
    // completes at once, unless it is held.
    writer.await.unwrap();
    let mut bytes = Vec::new();
    // A small buffer, as hyper's may be: the handing-over goes in several reads.
    let mut chunk = [0u8; 7];
    let held = loop {
        match io.read(&mut chunk).now_or_never() {
            None => break true,
            Some(Ok(0)) => break false,
            Some(Ok(count)) => bytes.extend_from_slice(&chunk[..count]),
            Some(Err(error)) => panic!("{error}"),
        }
    };
    Read {
        bytes,
        verdict: take_verdict(&slot),
        held,
    }
}

#[tokio::test]
async fn a_good_head_sent_in_pieces_is_handed_over_unchanged_with_what_follows() {
    let (read, verdict) = through(&[
        b"POST /v1/affiliate-job/jobs HT",
        b"TP/1.1\r\nContent-Length: 5\r\n",
        b"\r\nhel",
        b"lo",
    ])
    .await;
    assert_eq!(
        read,
        b"POST /v1/affiliate-job/jobs HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
    );
    assert_eq!(verdict, None);
}

#[tokio::test]
async fn a_malformed_head_is_replaced_by_a_stand_in_and_its_verdict() {
    let (read, verdict) = through(&[
        b"POST /v1/affiliate-job/jobs HTTP/1.1\r\nNoColon\r\n\r\n",
        b"a body hyper never sees",
    ])
    .await;
    assert_eq!(
        String::from_utf8(read).unwrap(),
        "POST /v1/affiliate-job/jobs HTTP/1.1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
    );
    let verdict = verdict.expect("a verdict");
    assert_eq!(verdict.status, StatusCode::BAD_REQUEST);
    assert!(verdict.detail.contains("`NoColon`"), "{}", verdict.detail);
}

#[tokio::test]
async fn a_stand_in_has_a_plain_method_and_path_or_none() {
    let (read, _) = through(&[b"BREW /pot HTTP/1.1\r\nNoColon\r\n\r\n"]).await;
    assert_eq!(
        String::from_utf8(read).unwrap(),
        "GET /pot HTTP/1.1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
    );
    let (read, _) = through(&[b"GARBAGE\r\n\r\n"]).await;
    assert_eq!(
        String::from_utf8(read).unwrap(),
        "GET / HTTP/1.1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
    );
}

#[tokio::test]
async fn a_head_cut_short_by_the_client_is_handed_over_as_it_came() {
    let (read, verdict) = through(&[b"GET /healthz HTTP/1.1\r\nHo"]).await;
    assert_eq!(read, b"GET /healthz HTTP/1.1\r\nHo");
    assert_eq!(verdict, None);
}

#[tokio::test]
async fn only_the_first_head_is_judged() {
    let (read, verdict) = through(&[
        b"GET / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nNoColon\r\n\r\n",
    ])
    .await;
    assert_eq!(
        read,
        b"GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nNoColon\r\n\r\n"
    );
    assert_eq!(verdict, None);
}
