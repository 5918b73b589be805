//! What a client sent reaches the log escaped: no raw control character,
//! and no text of its own at the start of a line, in the text log and in
//! the JSON log.

use super::{app_with_trade, hostile_job, JOBS};
use crate::helpers::logs::Capture;
use crate::helpers::{api, Signed, TestKey};
use intake_signature::Algorithm;
use serde_json::Value;

/// Where forged text would show if a value broke its line.
const FORGED_STARTS: [&str; 3] = ["FORGED-LINE", "Z FORGED-LINE", "x-note:"];

#[tokio::test]
async fn what_a_client_sent_is_logged_escaped_and_never_starts_a_line() {
    let capture = Capture::start();
    let (app, key) = app_with_trade().await;

    // Job members: refused, and never echoed in the detail that is logged;
    // a request id of the client's own, with a tab.
    let response = app
        .post_json(
            &key,
            JOBS,
            &hostile_job(),
            &[("x-request-id", "req\tFORGED-LINE")],
        )
        .await;
    assert_eq!(response.status(), 400);

    // Search parameters are echoed in the detail: LF, ESC, CR, DEL and a C1 (U+009B, CSI).
    let search = "/trades/search?postcode=Z%0AZ%20FORGED-LINE%1B%5B31m&category=1335&page=%0DFORGED-LINE%7F%C2%9B";
    assert_eq!(app.signed_get(&key, search).await.status(), 400);

    // A path the router does not know, with an encoded line break.
    let unknown = app
        .http
        .get(app.url("/v1/affiliate-job/jobs%0AFORGED-LINE"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);

    // An unknown key id with a tab; a header of the client's, signed, is a
    // line of the signing string that the 401 detail quotes.
    let stranger = TestKey {
        key_id: "stg_\tFORGED-LINE".into(),
        secret: "not a secret of ours".into(),
    };
    let path = api("/preferred-start-options");
    let request = Signed::get(&app, &path).set("x-note", "FORGED-LINE level=ERROR");
    let authorization = request.authorization(
        &stranger,
        Algorithm::HmacSha256,
        &["(request-target)", "host", "date", "x-note"],
        &path,
    );
    assert_eq!(request.send(&app, &authorization).await.status(), 401);
    drop(app);

    let (text, json) = (capture.text(), capture.json());
    for (format, log) in [("text", &text), ("JSON", &json)] {
        for line in log.split(|byte| *byte == b'\n') {
            let shown = String::from_utf8_lossy(line);
            assert!(
                !shown.contains(|c: char| c.is_control()),
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

    // Each value was logged, escaped: without them this test would prove nothing.
    let text = String::from_utf8(text).unwrap();
    for escaped in [
        r"request_id=req\tFORGED-LINE ",
        r"`postcode`: `Z\nZ FORGED-LINE\u{1b}[31m` is not a UK postcode",
        r"not `\rFORGED-LINE\u{7f}\u{9b}`",
        r"path=/v1/affiliate-job/jobs%0AFORGED-LINE}",
        r"key_id=stg_\tFORGED-LINE ",
        "x-note: FORGED-LINE level=ERROR",
    ] {
        assert!(
            text.contains(escaped),
            "{escaped} is not in the text log:\n{text}"
        );
    }
    let events: Vec<Value> = String::from_utf8(json)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    let refused_key = events
        .iter()
        .find(|event| event["fields"]["message"] == "signature refused")
        .expect("the refused signature is logged");
    assert_eq!(refused_key["fields"]["key_id"], r"stg_\tFORGED-LINE");
    let details: Vec<&str> = events
        .iter()
        .filter_map(|event| event["fields"]["detail"].as_str())
        .collect();
    assert!(
        details
            .iter()
            .any(|detail| detail.contains(r"not `\rFORGED-LINE\u{7f}\u{9b}`")),
        "{details:?}"
    );
    assert!(
        events
            .iter()
            .any(|event| event["span"]["path"] == "/v1/affiliate-job/jobs%0AFORGED-LINE"),
        "the path is in the JSON log as it was sent, unquoted"
    );
}
