//! The image memory budget and the request timeout (issue 13): photos that
//! cannot have memory in time are a 503 with `Retry-After` that creates
//! nothing, large photos go one at a time, and the work of a request answered
//! by its timeout stops.

use crate::helpers::forms::job_form;
use crate::helpers::logs::Capture;
use crate::helpers::photos::{jpeg, png};
use crate::helpers::{api, job_body, problem, spawn_app_with, trade, TestApp, TestKey};
use intake_server::ServerConfig;
use std::borrow::Cow;
use std::time::Duration;
use tokio::time::Instant;

const PATH: &str = "/jobs/with-attachments";
const VERIFY: &str = "/verify/jobs/with-attachments";
const MIB: u64 = 1024 * 1024;

/// A server with `config` and a boiler-repair trade covering Westminster, and a key.
async fn app_with_trade(config: ServerConfig) -> (TestApp, TestKey) {
    let app = spawn_app_with(config).await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    (app, key)
}

/// The whole budget, taken as the images of other requests would hold it.
async fn take_it_all(app: &TestApp) -> intake_server::BudgetShare {
    let budget = &app.state.image_budget;
    budget
        .take(budget.bytes(), Instant::now() + Duration::from_secs(5))
        .await
        .expect("the budget is free")
}

#[tokio::test]
async fn photos_that_get_no_memory_within_the_wait_are_a_503_with_retry_after_and_create_nothing() {
    let config = ServerConfig {
        image_memory_budget: 64 * MIB,
        image_budget_wait: Duration::from_millis(200),
        ..ServerConfig::default()
    };
    let (app, key) = app_with_trade(config).await;
    let form = job_form(&job_body(), &[("boiler.jpg", jpeg(64, 48))]);
    let held = take_it_all(&app).await;

    for path in [PATH, VERIFY] {
        let response = app.post_form(&key, path, &form, &[]).await;
        assert_eq!(response.headers()["retry-after"], "1", "{path}");
        let body = problem(response, 503, &api(path)).await;
        assert_eq!(
            body["detail"],
            "This server is busy with the images of other requests and had no memory free for the images of this one within 0.2 seconds, so nothing was created. Retry after the number of seconds in Retry-After."
        );
    }
    assert_eq!(app.counts().await.jobs, 0);
    assert!(app.stored_files().is_empty(), "{:?}", app.stored_files());

    drop(held);
    let response = app.post_form(&key, PATH, &form, &[]).await;
    assert_eq!(response.status(), 201);
    assert_eq!(app.counts().await.jobs, 1);
}

#[tokio::test]
async fn a_job_with_five_large_photos_is_created_with_a_budget_that_holds_one_at_a_time() {
    // A 6-megapixel photo weighs about 40 MiB (its pixels, and the new file
    // at its bound), a 3-megapixel PNG about 12 MiB: together about 150 MiB.
    let config = ServerConfig {
        image_memory_budget: 48 * MIB,
        ..ServerConfig::default()
    };
    let (app, key) = app_with_trade(config).await;
    let photo = jpeg(3000, 2000);
    let plan = png(2000, 1500);
    let images = [
        ("front.jpg", photo.clone()),
        ("plan.png", plan.clone()),
        ("boiler.jpg", photo.clone()),
        ("pipes.png", plan),
        ("meter.jpg", photo),
    ];
    let form = job_form(&job_body(), &images);

    let response = app.post_form(&key, PATH, &form, &[]).await;

    assert_eq!(response.status(), 201);
    let created: serde_json::Value = response.json().await.unwrap();
    let job = app
        .client(&key)
        .get_job(created["id"].as_str().unwrap())
        .await
        .unwrap();
    let sizes: Vec<_> = job.images.iter().map(|i| (i.width, i.height)).collect();
    assert_eq!(
        sizes,
        [
            (3000, 2000),
            (2000, 1500),
            (3000, 2000),
            (2000, 1500),
            (3000, 2000)
        ]
    );
    assert_eq!(app.stored_files().len(), 5);
    assert_eq!(
        app.state.image_budget.available(),
        48 * MIB,
        "all given back"
    );
}

#[tokio::test]
async fn a_request_over_the_request_timeout_is_a_503_with_retry_after_that_says_it_took_too_long() {
    let config = ServerConfig {
        request_timeout: Duration::from_millis(500),
        image_memory_budget: 64 * MIB,
        image_budget_wait: Duration::from_secs(60),
        ..ServerConfig::default()
    };
    let (app, key) = app_with_trade(config).await;
    let form = job_form(&job_body(), &[("boiler.jpg", jpeg(64, 48))]);
    let held = take_it_all(&app).await;

    let response = app.post_form(&key, PATH, &form, &[]).await;

    assert_eq!(response.headers()["retry-after"], "5");
    let body = problem(response, 503, &api(PATH)).await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("The request took longer than the server's limit of 0.5 seconds, so the server stopped working on it."),
        "{detail}"
    );
    assert!(!detail.contains("shutting down"), "{detail}");
    assert_eq!(app.counts().await.jobs, 0);
    // The request stopped waiting for memory when it was answered.
    drop(held);
    assert_eq!(app.state.image_budget.available(), 64 * MIB);
}

#[tokio::test]
async fn the_image_work_of_a_request_answered_by_its_timeout_stops() {
    let log = Capture::start();
    let config = ServerConfig {
        request_timeout: Duration::from_secs(1),
        ..ServerConfig::default()
    };
    let (app, key) = app_with_trade(config).await;
    let animation = slow_gif(400, 200);
    assert!(
        animation.len() < 10 * 1024 * 1024,
        "{} bytes",
        animation.len()
    );
    let form = job_form(&job_body(), &[("loop.gif", animation)]);

    let response = app.post_form(&key, PATH, &form, &[]).await;

    let body = problem(response, 503, &api(PATH)).await;
    assert!(
        body["detail"].as_str().unwrap().contains("took longer"),
        "{body}"
    );
    // Re-encoding the 200 frames takes seconds; once the request is dropped
    // the work stops at the next frame and gives its memory back.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !String::from_utf8_lossy(&log.text()).contains("image work stopped") {
        assert!(Instant::now() < deadline, "the image work never stopped");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let budget = &app.state.image_budget;
    assert_eq!(budget.available(), budget.bytes());
    assert_eq!(app.counts().await.jobs, 0);
}

/// An animation of `frames` frames on a `side` × `side` canvas: a grey first
/// frame, then 16 × 16 patches of 256 colours each. Every frame is decoded
/// onto the whole canvas, which then holds more than 256 colours, so
/// re-encoding each one means quantising the whole canvas, tens of
/// milliseconds a frame; the file stays small, each patch being tiny.
fn slow_gif(side: u16, frames: u16) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = gif::Encoder::new(&mut out, side, side, &[]).unwrap();
    let width = usize::from(side);
    let first: Vec<u8> = (0..width * width)
        .map(|p| ((p % width / 4 + p / width / 4) % 256) as u8)
        .collect();
    encoder
        .write_frame(&gif::Frame {
            width: side,
            height: side,
            buffer: Cow::Owned(first),
            palette: Some((0..=255u8).flat_map(|i| [i, i, i]).collect()),
            ..gif::Frame::default()
        })
        .unwrap();
    for n in 1..frames {
        let shade = (n % 256) as u8;
        encoder
            .write_frame(&gif::Frame {
                left: n * 16 % (side - 16),
                top: n * 16 / (side - 16) * 16 % (side - 16),
                width: 16,
                height: 16,
                buffer: Cow::Owned((0..=255u8).collect()),
                palette: Some((0..=255u8).flat_map(|i| [i, shade, 255 - i]).collect()),
                ..gif::Frame::default()
            })
            .unwrap();
    }
    drop(encoder);
    out
}
