use crate::helpers::spawn_app;
use serde_json::json;

#[tokio::test]
async fn a_signed_request_gets_the_five_options_in_order() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let response = app
        .client(&key)
        .send(reqwest::Method::GET, "/preferred-start-options", None)
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!([
            {"id": "FLEXIBLE", "label": "I'm flexible on start date"},
            {"id": "URGENT", "label": "It's urgent (within 48 hours)"},
            {"id": "WITHIN_2_WEEKS", "label": "Within 2 weeks"},
            {"id": "WITHIN_1_MONTH", "label": "Within 1 month"},
            {"id": "PLANNING_AND_BUDGETING", "label": "I'm planning and budgeting"}
        ])
    );
}

#[tokio::test]
async fn the_client_decodes_the_options() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let options = app.client(&key).preferred_start_options().await.unwrap();
    let ids: Vec<_> = options.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "FLEXIBLE",
            "URGENT",
            "WITHIN_2_WEEKS",
            "WITHIN_1_MONTH",
            "PLANNING_AND_BUDGETING"
        ]
    );
}

#[tokio::test]
async fn health_and_readiness_answer_without_a_signature() {
    let app = spawn_app().await;
    for path in ["/healthz", "/readyz"] {
        let response = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.json::<serde_json::Value>().await.unwrap(),
            json!({"status": "ok"})
        );
    }
}
