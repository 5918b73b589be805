use crate::helpers::{api, problem, spawn_app, trade, TestApp};
use serde_json::Value;

/// Central Heating (parent 10) with sub categories 88 (gas boiler installation)
/// and 1335 (boiler repairs); Plumber is 20.
async fn heating_directory() -> (TestApp, crate::helpers::TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![
        trade(1, &[10], "SW1A 1AA", Some(10.0), &[], 9.0), // parent, nearest
        trade(2, &[1335], "SE1 7PB", Some(10.0), &[], 10.0), // sub only
        trade(3, &[10, 88], "M1 1AE", Some(5.0), &[], 10.0), // far away: does not cover London
        trade(4, &[20], "SW1A 2AA", Some(20.0), &[], 10.0), // another category
        trade(5, &[88], "BT1 1AA", None, &["BT1", "SW1A"], 8.0), // no coordinates, covers by district
        trade(6, &[10], "E1 6AN", Some(15.0), &[], 9.5),         // parent, further than 1
    ])
    .await;
    (app, key)
}

/// The 200 answer of a signed search of `path_and_query`.
async fn found(
    app: &TestApp,
    key: &crate::helpers::TestKey,
    path_and_query: impl AsRef<str>,
) -> Value {
    let response = app.signed_get(key, path_and_query.as_ref()).await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn ids(body: &Value) -> Vec<u64> {
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["companyId"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_parent_category_finds_its_own_trades_first_then_those_of_its_sub_categories() {
    let (app, key) = heating_directory().await;
    let response = app
        .signed_get(&key, "/trades/search?postcode=sw1a1aa&category=10&size=10")
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    // Exact (1 nearer than 6), then sub categories by distance (2), then district-only (5, no distance).
    assert_eq!(ids(&body), [1, 6, 2, 5]);
    assert_eq!(
        body["meta"],
        serde_json::json!({"currentPage": 1, "itemsPerPage": 10, "totalPages": 1, "totalResults": 4})
    );
}

#[tokio::test]
async fn a_sub_category_finds_only_trades_registered_for_it() {
    let (app, key) = heating_directory().await;
    let body = found(
        &app,
        &key,
        "/trades/search?postcode=SW1A%201AA&category=1335",
    )
    .await;
    assert_eq!(ids(&body), [2]);
}

#[tokio::test]
async fn a_postcode_without_coordinates_finds_trades_listing_its_district() {
    let (app, key) = heating_directory().await;
    let body = found(&app, &key, "/trades/search?postcode=BT1%201AA&category=10").await;
    assert_eq!(ids(&body), [5]);
}

#[tokio::test]
async fn items_carry_exactly_the_members_of_the_specification_with_nulls_present() {
    let (app, key) = heating_directory().await;
    let body = found(
        &app,
        &key,
        "/trades/search?postcode=SW1A1AA&category=10&size=50",
    )
    .await;
    let keys = |value: &Value| {
        let mut keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(keys(&body), ["items", "meta"]);
    for item in body["items"].as_array().unwrap() {
        assert_eq!(
            keys(item),
            [
                "companyId",
                "companyName",
                "images",
                "logoUrl",
                "recentReviews",
                "reviewScore",
                "reviewsSummary",
                "totalReviews"
            ]
        );
        let reviews = item["recentReviews"].as_array().unwrap();
        assert_eq!(reviews.len(), 3, "the three most recent of four");
        for review in reviews {
            assert_eq!(
                keys(review),
                [
                    "body",
                    "breakdowns",
                    "location",
                    "openOnLoad",
                    "reviewId",
                    "reviewedDate",
                    "score",
                    "scorePercent",
                    "showBreakdowns",
                    "title",
                    "tradeResponse",
                    "verified"
                ]
            );
        }
        for image in item["images"].as_array().unwrap() {
            assert_eq!(
                keys(image),
                [
                    "albumId",
                    "dateFormatted",
                    "description",
                    "id",
                    "label",
                    "title",
                    "type",
                    "url",
                    "urlTemplate",
                    "youTubeId"
                ]
            );
        }
        assert_eq!(item["totalReviews"], 4);
    }
    // The whole answer decodes into the wire types, which refuse unknown members.
    let _: intake_api::trades::TradeSearchResponse = serde_json::from_value(body).unwrap();
}

#[tokio::test]
async fn an_item_shows_its_reviews_and_images_as_the_documented_choices_say() {
    let (app, key) = heating_directory().await;
    let body = found(
        &app,
        &key,
        "/trades/search?postcode=SW1A1AA&category=10&size=50",
    )
    .await;
    let item = |id: u64| {
        body["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["companyId"] == id)
            .unwrap()
    };
    // Trade 1 is odd: no logo.
    assert_eq!(item(1)["logoUrl"], intake_api::trades::PLACEHOLDER_LOGO_URL);
    // Trade 6, scored 9.5 four times, is a multiple of 3: a video too.
    let item = item(6);
    assert_eq!(item["reviewScore"], 9.5);
    assert_eq!(item["reviewsSummary"], "Rated 9.5 out of 10 from 4 reviews");
    assert_eq!(
        item["recentReviews"][0],
        serde_json::json!({
            "body": "Turned up on time and did a tidy job.",
            "reviewId": "6-r3",
            "location": "SW1A",
            "openOnLoad": true,
            "reviewedDate": "2026-04-10",
            "score": 9.5,
            "scorePercent": 95,
            "showBreakdowns": true,
            "title": null,
            "tradeResponse": "Thank you!",
            "verified": true,
            "breakdowns": [
                {"label": "Reliability", "value": 9.0},
                {"label": "Tidiness", "value": 9.0},
                {"label": "Courtesy", "value": 10.0}
            ]
        }),
        "newest first, opened"
    );
    assert_eq!(item["recentReviews"][1]["openOnLoad"], false);
    assert_eq!(
        item["images"],
        serde_json::json!([
            {
                "id": "img-6",
                "albumId": "kitchens",
                "dateFormatted": "3 February 2026",
                "description": "Finished kitchen",
                "label": "After",
                "type": "photo",
                "title": null,
                "url": "https://img.example.com/work/6.jpg",
                "urlTemplate": "https://img.example.com/work/6_{width}.jpg",
                "youTubeId": null
            },
            {
                "id": "video",
                "albumId": "work",
                "dateFormatted": null,
                "description": null,
                "label": null,
                "type": "youtube",
                "title": null,
                "url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                "urlTemplate": null,
                "youTubeId": "dQw4w9WgXcQ"
            }
        ])
    );
}

#[tokio::test]
async fn a_trade_without_reviews_scores_zero_and_has_no_summary() {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    let mut quiet = trade(8, &[20], "SW1A 1AA", Some(10.0), &[], 9.0);
    quiet.reviews.clear();
    app.import(vec![quiet]).await;
    let body = found(&app, &key, "/trades/search?postcode=SW1A1AA&category=20").await;
    let item = &body["items"][0];
    assert_eq!(
        (
            &item["reviewScore"],
            &item["totalReviews"],
            &item["recentReviews"]
        ),
        (
            &serde_json::json!(0.0),
            &serde_json::json!(0),
            &serde_json::json!([])
        )
    );
    assert!(item.get("reviewsSummary").is_none(), "optional: absent");
    assert_eq!(item["logoUrl"], "https://img.example.com/8.png");
}

#[tokio::test]
async fn pages_are_consistent_and_a_page_past_the_end_is_empty() {
    let (app, key) = heating_directory().await;
    let mut seen = Vec::new();
    for page in 1..=2 {
        let body: Value = app
            .signed_get(
                &key,
                &format!("/trades/search?postcode=SW1A1AA&category=10&size=3&page={page}"),
            )
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(body["meta"]["totalResults"], 4);
        assert_eq!(body["meta"]["totalPages"], 2);
        seen.extend(ids(&body));
    }
    assert_eq!(seen, [1, 6, 2, 5]);
    let response = app
        .signed_get(
            &key,
            "/trades/search?postcode=SW1A1AA&category=10&size=3&page=3",
        )
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["items"], serde_json::json!([]));
    assert_eq!(body["meta"]["currentPage"], 3);
}

#[tokio::test]
async fn bad_parameters_get_a_400_naming_each_of_them() {
    let (app, key) = heating_directory().await;
    let path = api("/trades/search");
    for (query, names) in [
        ("category=10", vec!["postcode"]),
        ("postcode=SW1A1AA", vec!["category"]),
        ("postcode=XX&category=10", vec!["postcode"]),
        ("postcode=SW1A1AA&category=0", vec!["category"]),
        ("postcode=SW1A1AA&category=424242", vec!["category"]),
        (
            "postcode=SW1A1AA&category=10&page=0&size=51",
            vec!["page", "size"],
        ),
        (
            "postcode=SW1A1AA&category=ten&size=abc",
            vec!["category", "size"],
        ),
    ] {
        let body = problem(
            app.signed_get(&key, &format!("/trades/search?{query}"))
                .await,
            400,
            &path,
        )
        .await;
        let detail = body["detail"].as_str().unwrap();
        for name in names {
            assert!(detail.contains(&format!("`{name}`")), "{query}: {detail}");
        }
    }
}

#[tokio::test]
async fn a_parameter_repeated_1000_times_is_named_once_in_a_short_detail() {
    let (app, key) = heating_directory().await;
    // 1,000 repeats fit the 8 KiB request target; 5,000 are a 414 before the search reads them.
    let query = format!("postcode=SW1A1AA&category=10{}", "&page=2".repeat(1000));
    let body = problem(
        app.signed_get(&key, &format!("/trades/search?{query}"))
            .await,
        400,
        &api("/trades/search"),
    )
    .await;
    assert_eq!(body["detail"], "`page` is given more than once");
}

#[tokio::test]
async fn an_unsigned_search_is_refused() {
    let (app, _key) = heating_directory().await;
    let path = api("/trades/search");
    let response = app
        .http
        .get(app.url(&format!("{path}?postcode=SW1A1AA&category=10")))
        .send()
        .await
        .unwrap();
    problem(response, 401, &path).await;
}

#[tokio::test]
async fn an_import_by_another_process_is_picked_up_by_the_refresher() {
    let (app, key) = heating_directory().await;
    let tree = intake_core::categories::CategoryTree::embedded();
    let new = trade(7, &[1335], "SW1A 1AA", Some(3.0), &[], 9.9)
        .validate(tree, intake_core::geography::Geography::embedded())
        .unwrap();
    app.store.import_trades(&[new]).await.unwrap();
    // The refresher polls every few seconds; wait for it rather than sleeping a fixed time.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let body = found(&app, &key, "/trades/search?postcode=SW1A1AA&category=1335").await;
        if ids(&body) == [7, 2] {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the new trade never appeared: {body}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
