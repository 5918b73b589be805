use crate::helpers::{api, problem, spawn_app, spawn_app_with, Signed};
use intake_server::ServerConfig;
use intake_signature::Algorithm;

#[tokio::test]
async fn an_unknown_route_is_a_404_problem() {
    let app = spawn_app().await;
    for path in ["/nope", "/v1/affiliate-job/nope", "/v1/affiliate-job"] {
        let body = problem(app.http.get(app.url(path)).send().await.unwrap(), 404, path).await;
        assert_eq!(body["title"], "Not Found");
    }
}

#[tokio::test]
async fn a_wrong_method_is_a_405_problem_with_allow() {
    let app = spawn_app().await;
    let response = app
        .http
        .delete(app.url(&api("/preferred-start-options")))
        .send()
        .await
        .unwrap();
    assert!(response.headers()["allow"]
        .to_str()
        .unwrap()
        .contains("GET"));
    let body = problem(response, 405, &api("/preferred-start-options")).await;
    assert_eq!(body["title"], "Method Not Allowed");
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413_problem() {
    let app = spawn_app_with(ServerConfig {
        body_limit: 2048,
        ..ServerConfig::default()
    })
    .await;
    let key = app.staging_key().await;
    let path = api("/preferred-start-options");
    let request = Signed::get(&app, &path).with_body(&[b'x'; 4096]);
    let authorization = request.authorization(&key, Algorithm::HmacSha256, &["date"], &path);
    let body = problem(request.send(&app, &authorization).await, 413, &path).await;
    assert!(body["detail"].as_str().unwrap().contains("2048"), "{body}");
}

#[tokio::test]
async fn a_request_id_is_taken_when_given_and_made_when_not() {
    let app = spawn_app().await;
    let given = app
        .http
        .get(app.url("/healthz"))
        .header("x-request-id", "affiliate-trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(given.headers()["x-request-id"], "affiliate-trace-42");
    let made = app.http.get(app.url("/nope")).send().await.unwrap();
    let id = made.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
}
