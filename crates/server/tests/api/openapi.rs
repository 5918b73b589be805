use crate::helpers::{api, spawn_app};
use serde_json::Value;

#[tokio::test]
async fn the_document_is_openapi_3_1_and_describes_the_signature_scheme() {
    let app = spawn_app().await;
    let response = app
        .http
        .get(app.url(&api("/openapi.json")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let document: Value = response.json().await.unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    assert!(document["info"]["title"].is_string() && document["info"]["version"].is_string());
    let scheme = &document["components"]["securitySchemes"]["signature"];
    assert_eq!(scheme["type"], "apiKey");
    assert_eq!(scheme["in"], "header");
    assert_eq!(scheme["name"], "Authorization");
    let description = scheme["description"].as_str().unwrap();
    assert!(description.contains("hmac-sha512"), "{description}");
    assert!(
        description.contains("at most 8192 bytes, at most 16 parameters, at most 32 names"),
        "{description}"
    );
    let options = &document["paths"][api("/preferred-start-options")]["get"];
    assert_eq!(options["security"], serde_json::json!([{"signature": []}]));
    assert!(options["responses"]["401"].is_object());
    // The answers may gain members within /v1, so their schemas leave them
    // open, and a client generated from the document survives an addition
    // (docs/conformance.md, Versioning); the answers themselves are checked
    // against the specification's closed schemas by the conformance layer.
    for answer in [
        "JobCreated",
        "VerifyResult",
        "TradeSearchResponse",
        "JobView",
        "Problem",
    ] {
        let schema = &document["components"]["schemas"][answer];
        assert!(schema.is_object(), "{answer} is in the document");
        assert_ne!(schema["additionalProperties"], false, "{answer}: {schema}");
    }
}

#[tokio::test]
async fn every_documented_route_is_served_and_every_served_route_is_documented() {
    let app = spawn_app().await;
    let document: Value = app
        .http
        .get(app.url(&api("/openapi.json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut documented: Vec<String> = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.push(format!("{} {path}", method.to_uppercase()));
            let response = app
                .http
                .request(method.to_uppercase().parse().unwrap(), app.url(path))
                .send()
                .await
                .unwrap();
            assert!(
                ![404, 405].contains(&response.status().as_u16()),
                "{method} {path} is documented but not served"
            );
        }
    }
    documented.sort();
    // The routes the router serves, kept in step with routes.rs by this test.
    let mut served = [
        "GET /healthz",
        "GET /readyz",
        "GET /api/v1/category",
        "GET /v1/affiliate-job/trades/search",
        "POST /v1/affiliate-job/jobs",
        "POST /v1/affiliate-job/jobs/with-attachments",
        "POST /v1/affiliate-job/verify/jobs/with-attachments",
        "POST /v1/affiliate-job/verify/jobs",
        "GET /v1/affiliate-job/jobs/{id}",
        "GET /v1/affiliate-job/images/{job_id}/{image_id}",
        "GET /v1/affiliate-job/openapi.json",
        "GET /v1/affiliate-job/preferred-start-options",
    ]
    .map(String::from)
    .to_vec();
    served.sort();
    assert_eq!(documented, served);
}

/// Every schema the document gives a category id: `categoryId` members, the search's
/// `category` parameter and the id of the category list, each with where it is.
fn category_id_schemas<'a>(at: String, value: &'a Value, found: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(object) => {
            if let Some(schema) = object.get("properties").and_then(|p| p.get("categoryId")) {
                found.push((format!("{at}/properties/categoryId"), schema));
            }
            if at == "/components/schemas/CategoryNode" {
                found.push((format!("{at}/properties/id"), &object["properties"]["id"]));
            }
            if object.get("in").is_some() && object.get("name") == Some(&"category".into()) {
                found.push((format!("{at}/schema"), &object["schema"]));
            }
            for (key, child) in object {
                category_id_schemas(format!("{at}/{key}"), child, found);
            }
        }
        Value::Array(items) => {
            for (n, child) in items.iter().enumerate() {
                category_id_schemas(format!("{at}/{n}"), child, found);
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn every_category_id_in_the_document_is_a_number_from_1_as_validation_demands() {
    let app = spawn_app().await;
    let document: Value = app
        .http
        .get(app.url(&api("/openapi.json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut found = Vec::new();
    category_id_schemas(String::new(), &document, &mut found);
    // The job request, the answer of GET /jobs/{id}, the verify answer, the search and the
    // category list.
    assert!(found.len() >= 5, "{found:?}");
    for (at, schema) in found {
        let numbers: Vec<&Value> = match schema.get("oneOf") {
            Some(Value::Array(branches)) => branches.iter().collect(),
            _ => vec![schema],
        };
        let numbers: Vec<&Value> = numbers
            .into_iter()
            .filter(|s| s["type"] == "integer" || s["type"] == "number")
            .collect();
        assert!(!numbers.is_empty(), "{at}: {schema}");
        for number in numbers {
            assert_eq!(number["minimum"], 1, "{at}: {schema}");
        }
    }
}
