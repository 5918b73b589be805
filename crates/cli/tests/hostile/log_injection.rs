//! Control characters and log injection: a job whose members carry a line
//! break, ESC, CR or NUL is a 400 naming each member, and nothing the client
//! sent (job members, a query, a path, a request id, a key id) reaches the
//! server's standard error as a raw control character or starts a line of
//! its own, in the text log or the JSON log.

use crate::raw::{exchange, request};
use crate::target::{job, pairs, Target, API, FULL};
use serde_json::{json, Value};

/// Where forged text would show if a value broke its line.
const FORGED_STARTS: [&str; 2] = ["FORGED-LINE", "Z FORGED-LINE"];

/// Every member [`hostile_job`] spoils.
const MEMBERS: [&str; 4] = ["postcode", "firstName", "lastName", "address.line1"];

fn hostile_job() -> Value {
    let mut body = job();
    body["postcode"] = json!("Z\nZ FORGED-LINE\u{1b}[31m");
    body["firstName"] = json!("Sam\u{1b}[31m");
    body["lastName"] = json!("Jones\r");
    body["address"] = json!({"line1": "1 High St\u{0}", "city": "London", "postcode": "SW1A 1AA"});
    body
}

/// Sends what a client trying to forge log lines would: the job, a search
/// whose postcode the refusal quotes, a path with an encoded line break, a
/// request id with a tab and an unknown key id with one.
async fn attack(target: &Target) {
    let address = target.address();
    let body = serde_json::to_vec(&hostile_job()).unwrap();
    let path = format!("{API}/jobs");
    let signed = target.signed("POST", &path, &body, &FULL, None);
    let mut headers = pairs(&signed);
    headers.push(("x-request-id", "req\tFORGED-LINE"));
    let answer = exchange(address, &request("POST", &path, &headers, &body))
        .await
        .answer();
    assert_eq!(answer.status, 400, "{answer:?}");
    let detail = answer.detail();
    for member in MEMBERS {
        assert!(
            detail.contains(&format!("`{member}` must not contain control characters")),
            "{member} is not named: {detail}"
        );
    }
    assert!(
        !detail.contains("FORGED") && !detail.contains(char::is_control),
        "the text sent is echoed: {detail:?}"
    );

    let search = format!("{API}/trades/search?postcode=Z%0AZ%20FORGED-LINE%1B%5B31m&category=1335");
    let signed = target.signed(
        "GET",
        &search,
        b"",
        &["(request-target)", "host", "date"],
        None,
    );
    let answer = exchange(address, &request("GET", &search, &pairs(&signed), b""))
        .await
        .answer();
    assert_eq!(answer.status, 400, "{answer:?}");

    let unknown = format!("{API}/jobs%0AFORGED-LINE");
    let answer = exchange(address, &request("GET", &unknown, &[("host", "h")], b""))
        .await
        .answer();
    assert_eq!(answer.status, 404, "{answer:?}");

    let options = format!("{API}/preferred-start-options");
    // Well-formed (a 32-byte MAC), so that it is refused for its key.
    let stranger = format!(
        "Signature keyId=\"stg_\tFORGED-LINE\",algorithm=\"hmac-sha256\",headers=\"date\",signature=\"{}=\"",
        "A".repeat(43)
    );
    let date = target.signed("GET", &options, b"", &["date"], None)[1]
        .1
        .clone();
    let headers = [
        ("host", "h"),
        ("date", date.as_str()),
        ("authorization", stranger.as_str()),
    ];
    let answer = exchange(address, &request("GET", &options, &headers, b""))
        .await
        .answer();
    assert_eq!(answer.status, 401, "{answer:?}");
    assert_eq!(target.counts().await, Default::default(), "nothing created");
}

/// No raw control character (C0 but the line feeds that end lines, DEL,
/// C1) and no line that starts with forged text.
fn assert_no_forged_line(format: &str, log: &[u8]) {
    for line in log.split(|byte| *byte == b'\n') {
        let shown = String::from_utf8_lossy(line);
        assert!(
            !shown.contains(char::is_control),
            "a raw control character in the {format} log: {shown:?}"
        );
        assert!(
            !FORGED_STARTS
                .iter()
                .any(|start| shown.trim_start().starts_with(start)),
            "a forged line in the {format} log: {shown:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_characters_are_a_400_naming_each_member_and_reach_the_text_log_escaped() {
    let mut target = Target::start(&[("INTAKE_LOG_FORMAT", "text")]);
    attack(&target).await;
    target.assert_peak_rss_within_budget("control characters, text log");
    assert!(target.server.terminate(), "the server exits 0 on SIGTERM");

    let log = target.server.raw_log();
    assert_no_forged_line("text", &log);
    // Each value was logged, escaped: without them this test would prove nothing.
    let log = String::from_utf8(log).unwrap();
    for escaped in [
        r"request_id=req\tFORGED-LINE ",
        r"`postcode`: `Z\nZ FORGED-LINE\u{1b}[31m` is not a UK postcode",
        r"path=/v1/affiliate-job/jobs%0AFORGED-LINE",
        r"key_id=stg_\tFORGED-LINE ",
    ] {
        assert!(log.contains(escaped), "{escaped} is not in the log:\n{log}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_characters_are_a_400_naming_each_member_and_reach_the_json_log_escaped() {
    let mut target = Target::start(&[("INTAKE_LOG_FORMAT", "json")]);
    attack(&target).await;
    target.assert_peak_rss_within_budget("control characters, JSON log");
    assert!(target.server.terminate(), "the server exits 0 on SIGTERM");

    let log = target.server.raw_log();
    assert_no_forged_line("JSON", &log);
    let events: Vec<Value> = String::from_utf8(log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    let refused = events
        .iter()
        .find(|event| event["fields"]["message"] == "signature refused")
        .expect("the refused signature is logged");
    assert_eq!(refused["fields"]["key_id"], r"stg_\tFORGED-LINE");
    assert!(
        events.iter().any(|event| event["fields"]["detail"]
            .as_str()
            .is_some_and(|detail| detail.contains(r"`Z\nZ FORGED-LINE\u{1b}[31m`"))),
        "the search's refusal is logged with its postcode escaped"
    );
}
