//! The access log: one `info` line per request, in the text and the JSON
//! log, with its method, route template (or, when no route matched, its
//! path), status, latency, the key id when the request was signed by a
//! known key, and its request id; never a secret, a signature, the
//! Authorization header or a body.

use crate::helpers::logs::Capture;
use crate::helpers::{api, job_body, spawn_app, trade, TestApp, TestKey};
use serde_json::{json, Value};

/// Sends `request` with `x-request-id: request_id`; returns the answer and
/// the Authorization value it was signed with.
async fn send(
    app: &TestApp,
    mut request: reqwest::Request,
    request_id: &str,
) -> (reqwest::Response, String) {
    request
        .headers_mut()
        .insert("x-request-id", request_id.parse().unwrap());
    let authorization = request
        .headers()
        .get("authorization")
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (app.http.execute(request).await.unwrap(), authorization)
}

/// The `signature="..."` of an Authorization value.
fn signature_of(authorization: &str) -> &str {
    let start = authorization.find("signature=\"").unwrap() + "signature=\"".len();
    let end = start + authorization[start..].find('"').unwrap();
    &authorization[start..end]
}

#[tokio::test]
async fn every_request_gets_one_access_line_with_its_route_status_latency_key_and_request_id() {
    let capture = Capture::start();
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    let client = app.client(&key);
    let body = serde_json::to_vec(&job_body()).unwrap();

    let create = client
        .signed_request(
            reqwest::Method::POST,
            "/jobs",
            Some(("application/json", body)),
        )
        .unwrap();
    let (created, create_authorization) = send(&app, create, "req-create").await;
    assert_eq!(created.status(), 201);
    let id = created.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let get = client
        .signed_request(reqwest::Method::GET, &format!("/jobs/{id}"), None)
        .unwrap();
    let (got, get_authorization) = send(&app, get, "req-get").await;
    assert_eq!(got.status(), 200);

    // The right key id with a wrong secret: refused, so no key id is logged.
    let stranger = TestKey {
        key_id: key.key_id.clone(),
        secret: "not the secret".into(),
    };
    let forged = app
        .client(&stranger)
        .signed_request(reqwest::Method::GET, &format!("/jobs/{id}"), None)
        .unwrap();
    let (refused, _) = send(&app, forged, "req-forged").await;
    assert_eq!(refused.status(), 401);

    let health = app.http.get(app.url("/healthz")).build().unwrap();
    assert_eq!(send(&app, health, "req-health").await.0.status(), 200);
    let unknown = app
        .http
        .get(app.url(&api("/nowhere?token=abc")))
        .build()
        .unwrap();
    assert_eq!(send(&app, unknown, "req-unknown").await.0.status(), 404);
    let wrong_method = app.http.delete(app.url("/healthz")).build().unwrap();
    assert_eq!(send(&app, wrong_method, "req-method").await.0.status(), 405);
    // No request id of the client's: the one made here is logged.
    let made_id = app.http.get(app.url("/readyz")).send().await.unwrap();
    let made_id = made_id.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(app);

    let jobs = "/v1/affiliate-job/jobs";
    let job = "/v1/affiliate-job/jobs/{id}";
    let expected = [
        json!({"method": "POST", "route": jobs, "status": 201, "key_id": key.key_id, "request_id": "req-create"}),
        json!({"method": "GET", "route": job, "status": 200, "key_id": key.key_id, "request_id": "req-get"}),
        json!({"method": "GET", "route": job, "status": 401, "request_id": "req-forged"}),
        json!({"method": "GET", "route": "/healthz", "status": 200, "request_id": "req-health"}),
        json!({"method": "GET", "path": "/v1/affiliate-job/nowhere", "status": 404, "request_id": "req-unknown"}),
        json!({"method": "DELETE", "route": "/healthz", "status": 405, "request_id": "req-method"}),
        json!({"method": "GET", "route": "/readyz", "status": 200, "request_id": made_id}),
    ];

    let json_log = String::from_utf8(capture.json()).unwrap();
    let lines: Vec<Value> = json_log
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("one JSON object a line"))
        .filter(|event| event["fields"]["message"] == "answered")
        .collect();
    assert_eq!(lines.len(), expected.len(), "{json_log}");
    for (line, expected) in lines.iter().zip(&expected) {
        assert_eq!(line["level"], "INFO");
        let mut fields = line["fields"].clone();
        let latency = fields["latency_ms"].as_f64().expect("a latency in ms");
        assert!((0.0..10_000.0).contains(&latency), "{line}");
        let fields = fields.as_object_mut().unwrap();
        fields.remove("latency_ms");
        fields.remove("message");
        assert_eq!(&Value::Object(fields.clone()), expected);
    }

    let text_log = String::from_utf8(capture.text()).unwrap();
    let text_lines: Vec<&str> = text_log
        .lines()
        .filter(|line| line.contains(" intake_server::access_log: answered "))
        .collect();
    assert_eq!(text_lines.len(), expected.len(), "{text_log}");
    assert!(
        text_lines[1].contains(&format!(
            " INFO intake_server::access_log: answered method=GET route={job} status=200 latency_ms="
        )) && text_lines[1].ends_with(&format!(" key_id={} request_id=req-get", key.key_id)),
        "{}",
        text_lines[1]
    );
    assert!(
        text_lines[4].contains(" path=/v1/affiliate-job/nowhere status=404 "),
        "{}",
        text_lines[4]
    );

    // No secret or signature anywhere in the log; no header value but the
    // request id, no query and no body on an access line.
    let signatures = [
        signature_of(&create_authorization),
        signature_of(&get_authorization),
    ];
    for log in [&json_log, &text_log] {
        assert!(!log.contains(&key.secret));
        assert!(!log.contains("not the secret"));
        for signature in signatures {
            assert!(!log.contains(signature), "a signature in the log");
        }
    }
    let access_lines = lines
        .iter()
        .map(Value::to_string)
        .chain(text_lines.iter().map(|line| line.to_string()));
    for line in access_lines {
        for absent in [
            "Signature",
            "keyId",
            "authorization",
            "token=abc",
            "Boiler",
            "sam.jones@example.com",
            "07900",
        ] {
            assert!(!line.contains(absent), "{absent} in {line}");
        }
    }
}
