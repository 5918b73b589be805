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
    assert!(scheme["description"]
        .as_str()
        .unwrap()
        .contains("hmac-sha512"));
    let options = &document["paths"][api("/preferred-start-options")]["get"];
    assert_eq!(options["security"], serde_json::json!([{"signature": []}]));
    assert!(options["responses"]["401"].is_object());
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
