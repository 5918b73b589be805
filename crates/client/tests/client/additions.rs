//! A deployed client against a later service: members it does not know are
//! ignored at every level of every answer, and error answers carry their
//! request id.

use crate::helpers::{created_body, job_view_body, spawn_stub, Answer};
use intake_client::{ClientError, RetryPolicy};
use serde_json::{json, Value};

/// `value` with an unknown member added to every object in it.
fn with_additions(value: &Value) -> Value {
    match value {
        Value::Object(members) => {
            let mut grown: serde_json::Map<String, Value> = members
                .iter()
                .map(|(name, member)| (name.clone(), with_additions(member)))
                .collect();
            grown.insert("addedLater".into(), json!({"nested": [1, "two", null]}));
            Value::Object(grown)
        }
        Value::Array(items) => Value::Array(items.iter().map(with_additions).collect()),
        other => other.clone(),
    }
}

fn json_answer(status: u16, body: Value) -> Answer {
    Answer::Json {
        status,
        content_type: "application/json",
        body,
        request_id: None,
    }
}

#[tokio::test]
async fn answers_with_members_added_later_still_decode_to_what_the_client_knows() {
    let verify = json!({
        "body": {"categoryId": 1335, "description": "Boiler", "postcode": "SW1A 1AA", "creationSource": "api"},
        "headers": {"content-type": "application/json"},
        "consumer": {"email": "sam@example.com", "firstName": "Sam", "lastName": "Jones", "phone": "07900000000"},
        "foundTrades": [{"companyId": 7, "name": "Trade 7"}],
        "images": []
    });
    // `headers` is a map of the request's headers, not a record: it keeps its shape.
    let mut later_verify = with_additions(&verify);
    later_verify["headers"] = verify["headers"].clone();
    let stub = spawn_stub(vec![
        json_answer(201, with_additions(&created_body())),
        json_answer(200, with_additions(&job_view_body())),
        json_answer(200, later_verify),
    ])
    .await;
    let client = stub.client();

    let created = client
        .create_job_from_json(b"{}".to_vec(), "k-1")
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&created.created).unwrap(),
        created_body()
    );
    let job = client.get_job(&created.created.id).await.unwrap();
    assert_eq!(serde_json::to_value(&job).unwrap(), job_view_body());
    let verified = client.verify_job(b"{}".to_vec()).await.unwrap();
    assert_eq!(serde_json::to_value(&verified).unwrap(), verify);
    assert_eq!(stub.requests()[2].target, "/v1/affiliate-job/verify/jobs");
}

#[tokio::test]
async fn a_problem_with_members_added_later_is_still_a_problem_with_its_request_id() {
    let problem = json!({
        "type": "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.1",
        "title": "Bad Request",
        "status": 400,
        "detail": "The job is invalid: phone is missing.",
        "instance": "/v1/affiliate-job/jobs",
        "errors": [{"member": "phone"}]
    });
    let stub = spawn_stub(vec![Answer::Json {
        status: 400,
        content_type: "application/problem+json",
        body: problem,
        request_id: Some("2b0c7c1e-trace"),
    }])
    .await;

    let error = stub
        .client_with(RetryPolicy::none())
        .create_job_from_json(b"{}".to_vec(), "k-2")
        .await
        .unwrap_err();

    match &error {
        ClientError::Problem { problem, .. } => {
            assert_eq!(problem.status, 400);
            assert_eq!(problem.detail, "The job is invalid: phone is missing.");
        }
        other => panic!("not a problem: {other:?}"),
    }
    assert_eq!(error.request_id(), Some("2b0c7c1e-trace"));
    assert!(
        error.to_string().ends_with("(request id 2b0c7c1e-trace)"),
        "{error}"
    );
}

#[tokio::test]
async fn a_proxy_error_without_a_request_id_says_nothing_of_one() {
    let stub = spawn_stub(vec![Answer::Html { status: 502 }]).await;
    let error = stub
        .client_with(RetryPolicy::none())
        .get_job("x")
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(502));
    assert_eq!(error.request_id(), None);
    assert!(!error.to_string().contains("request id"), "{error}");
}
