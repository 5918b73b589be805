//! `POST /jobs/with-attachments`: what is not a multipart job, and repeats
//! racing across two server processes.

use crate::helpers::forms::job_form;
use crate::helpers::photos::png;
use crate::helpers::{api, job_body, problem, spawn_app, trade, TestApp, TestKey};
use intake_server::{AppState, Application, ImageStore, ImageStoreLocation, ServerConfig};

const PATH: &str = "/jobs/with-attachments";

async fn app_with_trade() -> (TestApp, TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    (app, key)
}

/// A multipart body built by hand from `(headers, content)` parts.
fn raw_form(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (headers, content) in parts {
        body.extend_from_slice(format!("--XyZ\r\n{headers}\r\n\r\n").as_bytes());
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"--XyZ--\r\n");
    body
}

const MULTIPART: &str = "multipart/form-data; boundary=XyZ";

#[tokio::test]
async fn a_json_body_is_a_415() {
    let (app, key) = app_with_trade().await;
    let response = app.post_json(&key, PATH, &job_body(), &[]).await;
    let answer = problem(response, 415, &api(PATH)).await;
    assert!(answer["detail"]
        .as_str()
        .unwrap()
        .contains("multipart/form-data"));
}

#[tokio::test]
async fn missing_or_broken_data_and_malformed_bodies_are_clear_400s() {
    let (app, key) = app_with_trade().await;
    let image = png(4, 4);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            raw_form(&[(
                "Content-Disposition: form-data; name=\"images\"; filename=\"a.png\"",
                &image,
            )]),
            "no `data` field",
        ),
        (
            raw_form(&[(
                "Content-Disposition: form-data; name=\"data\"",
                b"{not json",
            )]),
            "not valid JSON",
        ),
        (b"--XyZ\r\nthis is not a part".to_vec(), "malformed"),
    ];
    for (body, expected) in cases {
        let response = app.post_raw(&key, PATH, MULTIPART, body, &[]).await;
        let answer = problem(response, 400, &api(PATH)).await;
        let detail = answer["detail"].as_str().unwrap();
        assert!(detail.contains(expected), "{detail}");
    }
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn unknown_fields_are_ignored_and_invalid_members_named_as_on_jobs() {
    let (app, key) = app_with_trade().await;
    let job = serde_json::to_vec(&job_body()).unwrap();
    let body = raw_form(&[
        (
            "Content-Disposition: form-data; name=\"affiliateReference\"",
            b"ABC-1",
        ),
        (
            "Content-Disposition: form-data; name=\"data\"\r\nContent-Type: application/json",
            &job,
        ),
    ]);
    let response = app.post_raw(&key, PATH, MULTIPART, body, &[]).await;
    assert_eq!(response.status(), 201);

    let mut invalid = job_body();
    invalid["email"] = "not-an-email".into();
    let form = job_form(&invalid, &[("a.png", png(4, 4))]);
    let answer = problem(app.post_form(&key, PATH, &form, &[]).await, 400, &api(PATH)).await;
    assert!(
        answer["detail"].as_str().unwrap().contains("email"),
        "{answer}"
    );
}

#[tokio::test]
async fn repeats_racing_on_two_servers_make_one_job_and_keep_only_its_photos() {
    let (app, key) = app_with_trade().await;
    let images = ImageStore::open(&ImageStoreLocation::Local(app.image_dir.clone())).unwrap();
    let state = AppState::load(
        app.store.clone(),
        app.master.clone(),
        ServerConfig::default(),
    )
    .await
    .unwrap()
    .with_images(images);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let second = Application::build(listener, state);
    let second_url = format!("http://{}", second.local_addr().unwrap());
    tokio::spawn(second.run_until(std::future::pending()));
    let clients = [
        app.client(&key),
        intake_client::Client::new(&second_url, &key.key_id, &key.secret).unwrap(),
    ];
    for round in 0..4 {
        let job = serde_json::to_vec(&job_body()).unwrap();
        // Other bytes each round: an identical signed request would be a replay.
        let photos = vec![
            ("a.png".to_owned(), png(16 + round, 16)),
            ("b.png".to_owned(), png(8, 8)),
        ];
        let idempotency_key = format!("race-{round}");
        let attempts = clients.iter().map(|client| {
            client.create_job_with_images(
                job.clone(),
                photos.clone(),
                Some(idempotency_key.clone()),
            )
        });
        let outcomes = futures::future::join_all(attempts).await;
        let ids: Vec<String> = outcomes
            .into_iter()
            .map(|outcome| outcome.unwrap().created.id)
            .collect();
        assert_eq!(ids[0], ids[1], "round {round}");
    }
    assert_eq!(app.counts().await.jobs, 4);
    // Photos written by a losing attempt are deleted before it answers.
    assert_eq!(app.stored_files().len(), 8, "{:?}", app.stored_files());
}
