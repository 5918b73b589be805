//! `POST /jobs/with-attachments`: a job with its photos, as multipart.

use crate::helpers::forms::job_form;
use crate::helpers::photos::{
    contains, jpeg, jpeg_with_gps, noisy_png, png, png_bomb, png_with_text, EXIF_MARKER,
};
use crate::helpers::{api, job_body, problem, spawn_app_with, trade, TestApp, TestKey};
use intake_server::ServerConfig;
use serde_json::Value;

const PATH: &str = "/jobs/with-attachments";

/// A boiler-repair trade covering Westminster, and a key.
async fn app_with_trades(config: ServerConfig) -> (TestApp, TestKey) {
    let app = spawn_app_with(config).await;
    let key = app.staging_key().await;
    app.import(vec![
        trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0),
        trade(2, &[1335], "SE1 7PB", Some(10.0), &[], 9.5),
    ])
    .await;
    (app, key)
}

/// The 400 detail of a refused form, after checking nothing was kept.
async fn refused(app: &TestApp, key: &TestKey, images: &[(&str, Vec<u8>)]) -> String {
    let form = job_form(&job_body(), images);
    let response = app.post_form(key, PATH, &form, &[]).await;
    let body = problem(response, 400, &api(PATH)).await;
    assert_eq!(app.counts().await.jobs, 0);
    assert!(app.stored_files().is_empty(), "{:?}", app.stored_files());
    body["detail"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_job_with_two_photos_is_created_listed_and_stored_without_metadata() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let photo = jpeg_with_gps(64, 48);
    assert!(contains(&photo, EXIF_MARKER));
    image::load_from_memory(&photo).expect("the test photo is a valid JPEG");
    let plan = png_with_text(32, 32, "GPS 51.5N 0.12W, owner's phone 07900000000");
    assert!(contains(&plan, b"tEXt"));

    let images = vec![
        ("boiler.jpg".to_owned(), photo),
        ("plan.png".to_owned(), plan),
    ];
    let outcome = app
        .client(&key)
        .create_job_with_images(serde_json::to_vec(&job_body()).unwrap(), images, None)
        .await
        .unwrap();
    assert_eq!(outcome.status, 201);
    assert!(!outcome.replayed);
    assert_eq!(outcome.created.trades.len(), 2);

    let job = app.client(&key).get_job(&outcome.created.id).await.unwrap();
    assert_eq!(job.creation_source, "api-with-attachments");
    let listed: Vec<_> = job
        .images
        .iter()
        .map(|i| {
            (
                i.file_name.as_str(),
                i.content_type.as_str(),
                i.width,
                i.height,
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("boiler.jpg", "image/jpeg", 64, 48),
            ("plan.png", "image/png", 32, 32)
        ]
    );

    let files = app.stored_files();
    assert_eq!(files.len(), 2, "{files:?}");
    let jpeg_file = files
        .iter()
        .find(|f| f.extension().unwrap() == "jpg")
        .unwrap();
    let png_file = files
        .iter()
        .find(|f| f.extension().unwrap() == "png")
        .unwrap();
    let stored_jpeg = std::fs::read(app.image_dir.join(jpeg_file)).unwrap();
    let stored_png = std::fs::read(app.image_dir.join(png_file)).unwrap();
    assert!(!contains(&stored_jpeg, EXIF_MARKER), "EXIF kept");
    assert!(
        !contains(&stored_png, b"tEXt") && !contains(&stored_png, b"51.5N"),
        "text kept"
    );
    assert_eq!(image::load_from_memory(&stored_jpeg).unwrap().width(), 64);
    assert_eq!(job.images[0].bytes, stored_jpeg.len() as u64);
    assert_eq!(job.images[1].bytes, stored_png.len() as u64);
}

#[tokio::test]
async fn a_truncated_jpeg_is_refused_by_name_and_nothing_is_kept() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let whole = jpeg(64, 64);
    let cut = whole[..whole.len() / 2].to_vec();
    let detail = refused(&app, &key, &[("fine.png", png(8, 8)), ("cut.jpg", cut)]).await;
    assert!(detail.contains("`cut.jpg` (image 2)"), "{detail}");
    assert!(detail.contains("damaged or truncated"), "{detail}");
    assert!(!detail.contains("fine.png"), "{detail}");
}

#[tokio::test]
async fn a_decompression_bomb_is_refused_by_name() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let detail = refused(&app, &key, &[("bomb.png", png_bomb(60_000))]).await;
    assert!(detail.contains("`bomb.png`"), "{detail}");
    assert!(detail.contains("60000x60000"), "{detail}");
}

#[tokio::test]
async fn six_images_are_refused() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let images: Vec<(&str, Vec<u8>)> = (0..6).map(|_| ("p.png", png(4, 4))).collect();
    let detail = refused(&app, &key, &images).await;
    assert!(detail.contains("At most 5 images"), "{detail}");
}

#[tokio::test]
async fn a_text_file_named_jpg_is_refused_listing_the_accepted_formats() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let text = b"Dear trades, this is a letter, not a photo.\n".to_vec();
    let detail = refused(&app, &key, &[("letter.jpg", text)]).await;
    assert!(detail.contains("`letter.jpg`"), "{detail}");
    assert!(detail.contains("JPEG, PNG, WebP and GIF"), "{detail}");
}

#[tokio::test]
async fn a_file_over_ten_mib_is_refused_by_name() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let mut big = png(4, 4);
    big.resize(10 * 1024 * 1024 + 1, 0);
    let detail = refused(&app, &key, &[("huge.png", big)]).await;
    assert!(
        detail.contains("`huge.png`") && detail.contains("10 MiB"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_path_in_a_file_name_is_kept_as_a_label_and_never_used_as_a_path() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let form = job_form(&job_body(), &[("../../etc/passwd", png(8, 8))]);
    let response = app.post_form(&key, PATH, &form, &[]).await;
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let job = app.client(&key).get_job(&id).await.unwrap();
    assert_eq!(job.images[0].file_name, "passwd");
    let files = app.stored_files();
    assert_eq!(files.len(), 1);
    let name = files[0].to_str().unwrap();
    let parts: Vec<&str> = name.split('/').collect();
    assert_eq!(parts.len(), 3, "{name}");
    assert_eq!(parts[0], "jobs");
    assert!(
        parts[1].len() == 32 && parts[1].chars().all(|c| c.is_ascii_hexdigit()),
        "{name}"
    );
    assert!(
        parts[2].starts_with("1-") && parts[2].ends_with(".png"),
        "{name}"
    );
    assert!(!app.image_dir.parent().unwrap().join("etc").exists());
}

#[tokio::test]
async fn a_photo_larger_than_the_json_limit_is_accepted() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let photo = noisy_png(700, 700);
    assert!(photo.len() > 1024 * 1024, "{}", photo.len());
    let form = job_form(&job_body(), &[("noise.png", photo)]);
    assert_eq!(app.post_form(&key, PATH, &form, &[]).await.status(), 201);
}

#[tokio::test]
async fn a_body_over_the_multipart_limit_is_a_413() {
    let config = ServerConfig {
        multipart_body_limit: 64 * 1024,
        ..ServerConfig::default()
    };
    let (app, key) = app_with_trades(config).await;
    let mut padding = png(4, 4);
    padding.resize(100 * 1024, 0);
    let form = job_form(&job_body(), &[("big.png", padding)]);
    problem(app.post_form(&key, PATH, &form, &[]).await, 413, &api(PATH)).await;
    assert_eq!(app.counts().await.jobs, 0);
}

#[tokio::test]
async fn a_digest_that_does_not_match_the_multipart_bytes_is_a_401() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let form = job_form(&job_body(), &[("a.png", png(8, 8))]);
    let mut request = app
        .client(&key)
        .signed_request(
            reqwest::Method::POST,
            PATH,
            Some((&form.content_type(), form.body.clone())),
        )
        .unwrap();
    let mut tampered = form.body.clone();
    let at = tampered.len() - 60;
    tampered[at] ^= 0x01;
    *request.body_mut() = Some(tampered.into());
    let answer = problem(app.http.execute(request).await.unwrap(), 401, &api(PATH)).await;
    assert!(
        answer["detail"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("digest"),
        "{answer}"
    );
    assert_eq!(app.counts().await.jobs, 0);
    assert!(app.stored_files().is_empty());
}

#[tokio::test]
async fn the_same_key_and_bytes_are_answered_from_the_first_job() {
    let (app, key) = app_with_trades(ServerConfig::default()).await;
    let form = job_form(&job_body(), &[("a.png", png(8, 8)), ("b.jpg", jpeg(8, 8))]);
    let headers = [("idempotency-key", "order-77")];
    let first = app.post_form(&key, PATH, &form, &headers).await;
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.unwrap();
    let again = app.post_form(&key, PATH, &form, &headers).await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    assert_eq!(app.counts().await.jobs, 1);
    assert_eq!(app.stored_files().len(), 2);

    let other = job_form(&job_body(), &[("a.png", png(9, 9))]);
    problem(
        app.post_form(&key, PATH, &other, &headers).await,
        409,
        &api(PATH),
    )
    .await;
    assert_eq!(app.stored_files().len(), 2);
}
