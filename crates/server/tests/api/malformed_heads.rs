// Request heads the HTTP layer cannot parse get a problem body saying what
// was wrong (issue 13), where hyper alone answers with an empty 400 or 431.
// Raw TCP, since no client library sends such heads.

use crate::helpers::raw::{closed_within, connect, exchange, read_answer, DEADLINE};
use crate::helpers::spawn_app;
use tokio::io::AsyncWriteExt;

async fn answer_to(head: &str) -> crate::helpers::raw::RawAnswer {
    let app = spawn_app().await;
    let mut socket = connect(app.address).await;
    let answer = exchange(&mut socket, head).await.expect("an answer");
    assert_eq!(answer.header("connection"), Some("close"), "{answer:?}");
    assert!(closed_within(&mut socket, DEADLINE).await);
    answer
}

#[tokio::test]
async fn a_header_line_without_a_colon_is_a_400_problem_naming_the_line() {
    let answer = answer_to("GET /healthz HTTP/1.1\r\nHost: test\r\nNoColonHere\r\n\r\n").await;
    let problem = answer.problem(400, "/healthz");
    assert_eq!(problem["title"], "Bad Request");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("Header line 2 (`NoColonHere`) has no colon."),
        "{detail}"
    );
    assert!(answer.header("x-request-id").is_some(), "{answer:?}");
}

#[tokio::test]
async fn a_header_name_with_a_space_is_a_400_problem() {
    let answer =
        answer_to("POST /v1/affiliate-job/jobs HTTP/1.1\r\nContent Type: application/json\r\n\r\n")
            .await;
    let problem = answer.problem(400, "/v1/affiliate-job/jobs");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("has no valid name"), "{detail}");
}

#[tokio::test]
async fn a_malformed_request_line_is_a_400_problem_for_the_root() {
    let answer = answer_to("HELLO THERE\r\n\r\n").await;
    let problem = answer.problem(400, "/");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("`HELLO THERE`"), "{detail}");
}

#[tokio::test]
async fn a_content_length_that_is_not_a_number_is_a_400_problem() {
    let answer =
        answer_to("POST /v1/affiliate-job/jobs HTTP/1.1\r\nContent-Length: twelve\r\n\r\n").await;
    let problem = answer.problem(400, "/v1/affiliate-job/jobs");
    assert!(problem["detail"].as_str().unwrap().contains("`twelve`"));
}

#[tokio::test]
async fn more_header_lines_than_the_http_layer_holds_is_a_431_problem() {
    let mut head = "GET /healthz HTTP/1.1\r\n".to_owned();
    for n in 0..120 {
        head.push_str(&format!("x-header-{n}: 1\r\n"));
    }
    head.push_str("\r\n");
    let answer = answer_to(&head).await;
    let problem = answer.problem(431, "/healthz");
    assert!(problem["detail"].as_str().unwrap().contains("header lines"));
}

#[tokio::test]
async fn a_head_over_the_read_buffer_is_a_431_problem() {
    let app = spawn_app().await;
    let mut socket = connect(app.address).await;
    let head = format!("GET /healthz HTTP/1.1\r\nx-big: {}", "a".repeat(70 * 1024));
    socket.write_all(head.as_bytes()).await.unwrap();
    let answer = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    answer.problem(431, "/healthz");
}

#[tokio::test]
async fn a_malformed_head_after_a_good_one_on_the_same_connection_still_gets_hyper_s_own_400() {
    // Only a connection's first head is judged before hyper (see serve/first_head.rs).
    let app = spawn_app().await;
    let mut socket = connect(app.address).await;
    let first = exchange(&mut socket, "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n").await;
    assert_eq!(first.map(|answer| answer.status), Some(200));
    let second = exchange(&mut socket, "GET /healthz HTTP/1.1\r\nNoColonHere\r\n\r\n")
        .await
        .expect("an answer");
    assert_eq!((second.status, second.body.len()), (400, 0), "{second:?}");
}

#[tokio::test]
async fn a_good_head_sent_a_few_bytes_at_a_time_is_served() {
    let app = spawn_app().await;
    let mut socket = connect(app.address).await;
    let head = b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
    for piece in head.chunks(5) {
        socket.write_all(piece).await.unwrap();
        socket.flush().await.unwrap();
        tokio::task::yield_now().await;
    }
    let answer = read_answer(&mut socket, DEADLINE).await.expect("an answer");
    assert_eq!(answer.status, 200);
}
