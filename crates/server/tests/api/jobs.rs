use crate::helpers::{api, job_body, problem, spawn_app, trade, TestApp, TestKey};
use intake_core::Environment;
use serde_json::{json, Value};

/// Heating trades around Westminster: 1 and 2 repair boilers (1335), 3 is a
/// Central Heating (10) parent trade, 4 a plumber; nobody covers Belfast.
async fn app_with_trades() -> (TestApp, TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![
        trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0),
        trade(2, &[1335], "SE1 7PB", Some(10.0), &[], 9.5),
        trade(3, &[10], "E1 6AN", Some(15.0), &[], 8.0),
        trade(4, &[20], "SW1A 1AA", Some(20.0), &[], 10.0),
    ])
    .await;
    (app, key)
}

#[tokio::test]
async fn a_valid_job_gets_201_with_the_trades_the_search_also_lists() {
    let (app, key) = app_with_trades().await;
    let response = app.post_json(&key, "/jobs", &job_body(), &[]).await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: Value = response.json().await.unwrap();
    assert!(uuid::Uuid::parse_str(body["id"].as_str().unwrap()).is_ok());
    let trades = body["trades"].as_array().unwrap();
    let ids: Vec<u64> = trades.iter().map(|t| t["id"].as_u64().unwrap()).collect();
    assert_eq!(ids.len(), 2);
    assert_eq!(
        trades[0]["profileURL"],
        format!("https://www.example-trades.co.uk/trades/{}", ids[0])
    );
    assert_eq!(trades[0].as_object().unwrap().len(), 3);

    let search: Value = app
        .signed_get(
            &key,
            "/trades/search?postcode=SW1A1AA&category=1335&size=50",
        )
        .await
        .json()
        .await
        .unwrap();
    let listed: Vec<u64> = search["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["companyId"].as_u64().unwrap())
        .collect();
    for id in &ids {
        assert!(listed.contains(id), "{id} not in {listed:?}");
    }
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn a_category_id_may_be_a_string_of_digits_and_unknown_members_are_ignored() {
    let (app, key) = app_with_trades().await;
    let mut body = job_body();
    body["categoryId"] = json!("1335");
    body["affiliateReference"] = json!("ABC-123");
    assert_eq!(app.post_json(&key, "/jobs", &body, &[]).await.status(), 201);
}

#[tokio::test]
async fn every_invalid_member_is_named_in_one_400_and_nothing_is_written() {
    let (app, key) = app_with_trades().await;
    let body = json!({
        "categoryId": "12a", "description": " too short ", "email": "not-an-email", "phone": "12",
        "firstName": " ", "postcode": "XYZ", "address": {"line1": "", "postcode": "nope"},
        "preferredStart": {"id": "SOMETIME", "date": "31/12/2026"}
    });
    let answer = problem(
        app.post_json(&key, "/jobs", &body, &[]).await,
        400,
        &api("/jobs"),
    )
    .await;
    let detail = answer["detail"].as_str().unwrap();
    for field in [
        "categoryId",
        "description",
        "email",
        "phone",
        "firstName",
        "lastName",
        "postcode",
        "address.line1",
        "address.city",
        "address.postcode",
        "preferredStart.id",
        "preferredStart.date",
    ] {
        assert!(
            detail.contains(&format!("`{field}`")),
            "{field} missing from: {detail}"
        );
    }
    assert_eq!(app.counts().await, intake_core::StoreCounts::default());
}

#[tokio::test]
async fn unknown_categories_and_preferred_starts_are_400s() {
    let (app, key) = app_with_trades().await;
    let mut body = job_body();
    body["categoryId"] = json!(987654);
    let answer = problem(
        app.post_json(&key, "/jobs", &body, &[]).await,
        400,
        &api("/jobs"),
    )
    .await;
    assert!(answer["detail"]
        .as_str()
        .unwrap()
        .contains("987654 is not a known category"));
    let mut body = job_body();
    body["preferredStart"] = json!({"id": "NEXT_YEAR"});
    let answer = problem(
        app.post_json(&key, "/jobs", &body, &[]).await,
        400,
        &api("/jobs"),
    )
    .await;
    assert!(
        answer["detail"]
            .as_str()
            .unwrap()
            .contains("WITHIN_2_WEEKS"),
        "{answer}"
    );
}

#[tokio::test]
async fn a_job_no_trade_serves_is_a_404_that_creates_nothing() {
    let (app, key) = app_with_trades().await;
    let mut body = job_body();
    body["postcode"] = json!("BT1 1AA");
    let answer = problem(
        app.post_json(&key, "/jobs", &body, &[]).await,
        404,
        &api("/jobs"),
    )
    .await;
    assert!(answer["detail"].as_str().unwrap().contains("BT1 1AA"));
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn spam_is_a_422_with_exactly_the_seed_detail_and_no_reasons() {
    let (app, key) = app_with_trades().await;
    let mut body = job_body();
    body["description"] = json!("Cheap SEO backlinks at http://spam.example.com/offer now");
    let answer = problem(
        app.post_json(&key, "/jobs", &body, &[]).await,
        422,
        &api("/jobs"),
    )
    .await;
    assert_eq!(answer["title"], "Unprocessable Entity");
    assert_eq!(answer["detail"], "Job classified as spam");
    assert_eq!(app.counts().await.jobs, 0);
    // Nothing is lost: the submission waits in quarantine with its reasons.
    let kept = app.store.quarantined(false).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].key_id, key.key_id);
    assert!(kept[0].reasons.contains("link"), "{}", kept[0].reasons);
    assert!(kept[0].submission.contains("spam.example.com"));
}

#[tokio::test]
async fn malformed_json_a_wrong_media_type_and_an_oversized_body_are_refused() {
    let (app, key) = app_with_trades().await;
    let answer = problem(
        app.post_raw(
            &key,
            "/jobs",
            "application/json",
            b"{\"description\": ".to_vec(),
            &[],
        )
        .await,
        400,
        &api("/jobs"),
    )
    .await;
    assert!(answer["detail"]
        .as_str()
        .unwrap()
        .contains("not valid JSON"));
    let answer = problem(
        app.post_raw(
            &key,
            "/jobs",
            "text/plain",
            serde_json::to_vec(&job_body()).unwrap(),
            &[],
        )
        .await,
        415,
        &api("/jobs"),
    )
    .await;
    assert!(answer["detail"]
        .as_str()
        .unwrap()
        .contains("application/json"));
    let answer = problem(
        app.post_raw(&key, "/jobs", "application/json", b"[1, 2]".to_vec(), &[])
            .await,
        400,
        &api("/jobs"),
    )
    .await;
    assert!(answer["detail"].as_str().unwrap().contains("JSON object"));
    let huge = vec![b' '; 2 * 1024 * 1024];
    problem(
        app.post_raw(&key, "/jobs", "application/json", huge, &[])
            .await,
        413,
        &api("/jobs"),
    )
    .await;
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn an_unsigned_job_is_a_401() {
    let (app, _key) = app_with_trades().await;
    let response = app
        .http
        .post(app.url(&api("/jobs")))
        .json(&job_body())
        .send()
        .await
        .unwrap();
    problem(response, 401, &api("/jobs")).await;
}

#[tokio::test]
async fn a_repeated_idempotency_key_replays_the_answer_and_a_different_body_is_a_409() {
    let (app, key) = app_with_trades().await;
    let first = app
        .post_json(
            &key,
            "/jobs",
            &job_body(),
            &[("idempotency-key", "order-7781")],
        )
        .await;
    assert_eq!(first.status(), 201);
    assert!(first.headers().get("idempotency-replayed").is_none());
    let first_body = first.text().await.unwrap();
    let again = app
        .post_json(
            &key,
            "/jobs",
            &job_body(),
            &[("idempotency-key", "order-7781")],
        )
        .await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(again.text().await.unwrap(), first_body);
    let mut other = job_body();
    other["description"] = json!("Radiator in the hall is cold at the top.");
    let answer = problem(
        app.post_json(&key, "/jobs", &other, &[("idempotency-key", "order-7781")])
            .await,
        409,
        &api("/jobs"),
    )
    .await;
    assert!(answer["detail"]
        .as_str()
        .unwrap()
        .contains("different body"));
    for bad in ["", "has space", &"x".repeat(256)] {
        let response = app
            .post_json(&key, "/jobs", &job_body(), &[("idempotency-key", bad)])
            .await;
        if !bad.is_empty() {
            problem(response, 400, &api("/jobs")).await;
        }
    }
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn twenty_identical_submissions_at_once_make_exactly_one_job() {
    let (app, key) = app_with_trades().await;
    let body = job_body();
    let requests =
        (0..20).map(|_| app.post_json(&key, "/jobs", &body, &[("idempotency-key", "same-20")]));
    let responses = futures::future::join_all(requests).await;
    let mut created_ids = std::collections::HashSet::new();
    for response in responses {
        match response.status().as_u16() {
            201 => {
                let body: Value = response.json().await.unwrap();
                created_ids.insert(body["id"].as_str().unwrap().to_owned());
            }
            409 => assert!(
                response.headers().contains_key("retry-after"),
                "an in-flight 409 says when to retry"
            ),
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(created_ids.len(), 1, "every 201 names the same job");
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn the_same_signed_request_received_twice_creates_nothing_new() {
    let (app, key) = app_with_trades().await;
    let bytes = serde_json::to_vec(&job_body()).unwrap();
    let request = app
        .client(&key)
        .signed_request(
            reqwest::Method::POST,
            "/jobs",
            Some(("application/json", bytes)),
        )
        .unwrap();
    let copy = request.try_clone().unwrap();
    let first = app.http.execute(request).await.unwrap();
    assert_eq!(first.status(), 201);
    let first_body = first.text().await.unwrap();
    let replayed = app.http.execute(copy).await.unwrap();
    assert_eq!(replayed.status(), 201);
    assert_eq!(replayed.headers()["idempotency-replayed"], "true");
    assert_eq!(replayed.text().await.unwrap(), first_body);
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn a_job_can_be_read_back_by_its_application_only() {
    let (app, key) = app_with_trades().await;
    let mut body = job_body();
    body["address"] =
        json!({"line1": "10 Downing Street", "city": "London", "postcode": "SW1A 2AA"});
    body["preferredStart"] = json!({"id": "WITHIN_2_WEEKS", "date": "2026-12-01"});
    let created: Value = app
        .post_json(&key, "/jobs", &body, &[])
        .await
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();

    let response = app.signed_get(&key, &format!("/jobs/{id}")).await;
    assert_eq!(response.status(), 200);
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["id"], id);
    assert_eq!(job["environment"], "staging");
    assert_eq!(job["categoryId"], 1335);
    assert_eq!(job["postcode"], "SW1A 1AA");
    assert_eq!(
        job["consumer"],
        json!({"email": "sam.jones@example.com", "firstName": "Sam", "lastName": "Jones", "phone": "07900000000"})
    );
    assert_eq!(
        job["address"],
        json!({"line1": "10 Downing Street", "city": "London", "postcode": "SW1A 2AA"})
    );
    assert_eq!(
        job["preferredStart"],
        json!({"id": "WITHIN_2_WEEKS", "date": "2026-12-01"})
    );
    assert_eq!(job["creationSource"], "api");
    let recipients = job["recipients"].as_array().unwrap();
    let created_ids: Vec<&Value> = created["trades"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["id"])
        .collect();
    let stored_ids: Vec<&Value> = recipients.iter().map(|r| &r["id"]).collect();
    assert_eq!(stored_ids, created_ids);
    assert!(
        recipients.iter().all(|r| r["deliveryState"] == "not_sent"),
        "staging delivers nothing"
    );

    // Another affiliate application's key sees nothing, as if the job did not exist.
    let other = {
        let new = intake_core::NewKey::generate(
            "Other Affiliate",
            Environment::Staging,
            Default::default(),
            &app.master,
        );
        app.store.insert_key(&new.key).await.unwrap();
        TestKey {
            key_id: new.key.key_id.clone(),
            secret: new.secret.expose().to_owned(),
        }
    };
    problem(
        app.signed_get(&other, &format!("/jobs/{id}")).await,
        404,
        &api(&format!("/jobs/{id}")),
    )
    .await;
    problem(
        app.signed_get(&key, "/jobs/does-not-exist").await,
        404,
        &api("/jobs/does-not-exist"),
    )
    .await;
}

#[tokio::test]
async fn with_the_store_gone_a_job_gets_503_with_retry_after_and_readyz_fails() {
    let (app, key) = app_with_trades().await;
    app.close_store().await;
    let response = app
        .post_json(
            &key,
            "/jobs",
            &job_body(),
            &[("idempotency-key", "outage-1")],
        )
        .await;
    assert_eq!(response.headers()["retry-after"], "2");
    let answer = problem(response, 503, &api("/jobs")).await;
    let detail = answer["detail"].as_str().unwrap();
    assert!(detail.contains("retry"), "{detail}");
    assert!(
        !detail.to_lowercase().contains("pool") && !detail.contains("sqlx"),
        "no internal text: {detail}"
    );
    let ready = app.http.get(app.url("/readyz")).send().await.unwrap();
    problem(ready, 503, "/readyz").await;
    assert_eq!(
        app.http
            .get(app.url("/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        200,
        "the process itself is up"
    );
}
