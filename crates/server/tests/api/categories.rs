use crate::helpers::spawn_app;
use serde_json::Value;

const PATH: &str = "/api/v1/category";

#[tokio::test]
async fn the_tree_lists_over_a_thousand_categories_in_the_seed_shape() {
    let app = spawn_app().await;
    let response = app.http.get(app.url(PATH)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
    assert!(response.headers()["etag"]
        .to_str()
        .unwrap()
        .starts_with('"'));
    let parents: Vec<Value> = response.json().await.unwrap();
    let mut total = 0;
    for parent in &parents {
        let mut keys: Vec<&str> = parent
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "id",
                "label",
                "name",
                "nofollow",
                "noindex",
                "subcategories"
            ]
        );
        total += 1;
        for sub in parent["subcategories"].as_array().unwrap() {
            assert_eq!(sub["subcategories"], serde_json::json!([]));
            assert!(sub["noindex"].is_boolean() && sub["nofollow"].is_boolean());
            total += 1;
        }
    }
    assert!(total > 1000, "{total}");
    let heating = parents
        .iter()
        .find(|p| p["id"] == 10)
        .expect("Central Heating");
    let subs: Vec<u64> = heating["subcategories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_u64().unwrap())
        .collect();
    assert!(subs.contains(&88) && subs.contains(&1335));
}

#[tokio::test]
async fn a_matching_if_none_match_gets_304_and_a_stale_one_the_tree() {
    let app = spawn_app().await;
    let etag = app.http.get(app.url(PATH)).send().await.unwrap().headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    for header in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".to_owned(),
    ] {
        let response = app
            .http
            .get(app.url(PATH))
            .header("if-none-match", &header)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 304, "{header}");
        assert_eq!(response.headers()["etag"], etag.as_str());
        assert!(response.bytes().await.unwrap().is_empty());
    }
    let response = app
        .http
        .get(app.url(PATH))
        .header("if-none-match", "\"stale\"")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn the_tree_is_compressed_when_the_client_accepts_it() {
    let app = spawn_app().await;
    let plain = app
        .http
        .get(app.url(PATH))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let response = app
        .http
        .get(app.url(PATH))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let compressed = response.bytes().await.unwrap();
    assert!(
        compressed.len() * 4 < plain.len(),
        "{} vs {}",
        compressed.len(),
        plain.len()
    );
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&compressed[..]),
        &mut decoded,
    )
    .unwrap();
    assert_eq!(decoded, plain);
}

#[tokio::test]
async fn an_operator_tree_replaces_the_shipped_one_with_a_new_etag() {
    let app = spawn_app().await;
    let before = app.http.get(app.url(PATH)).send().await.unwrap().headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let json = r#"[{"id":1,"label":"Plumber","name":"plumber","noindex":false,"nofollow":false,"subcategories":[{"id":2,"label":"Taps","name":"taps","noindex":false,"nofollow":false,"subcategories":[]}]}]"#;
    app.store.save_category_tree(json).await.unwrap();
    // False when the background refresher got there first; either way it is loaded now.
    app.state.refresh_directory().await.unwrap();
    let response = app.http.get(app.url(PATH)).send().await.unwrap();
    assert_ne!(response.headers()["etag"].to_str().unwrap(), before);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::from_str::<Value>(json).unwrap());
}

#[tokio::test]
async fn gzip_refused_with_a_zero_weight_is_not_sent() {
    let app = spawn_app().await;
    let response = app
        .http
        .get(app.url(PATH))
        .header("accept-encoding", "gzip;q=0, br")
        .send()
        .await
        .unwrap();
    assert!(response.headers().get("content-encoding").is_none());
    assert_eq!(response.headers()["vary"], "accept-encoding");
    let parents: Vec<Value> = response.json().await.unwrap();
    assert!(!parents.is_empty());
}
