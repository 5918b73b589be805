//! Photo links in leads: signed, expiring, served without other credentials.

use super::{import, job, production_app, quick_delivery, webhook_trade};
use crate::helpers::{forms::job_form, photos, problem};
use intake_delivery::ImageLinks;
use intake_test_support::webhooks::Receiver;
use serde_json::Value;
use std::time::Duration;

#[tokio::test]
async fn image_links_in_a_lead_serve_the_photo_and_refuse_a_tampered_or_expired_link() {
    let receiver = Receiver::start();
    let (app, key) = production_app(quick_delivery()).await;
    import(&app, vec![webhook_trade(41, &receiver)]).await;
    let form = job_form(&job(30), &[("kitchen.png", photos::png(64, 48))]);
    let response = app
        .post_form(&key, "/jobs/with-attachments", &form, &[])
        .await;
    assert_eq!(response.status(), 201);
    let job_id = response.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let lead = receiver.wait_for(41, 1).await[0].json();
    let image = &lead["job"]["images"][0];
    assert_eq!(image["contentType"], "image/png");
    assert_eq!(
        (image["width"].as_u64(), image["height"].as_u64()),
        (Some(64), Some(48))
    );
    assert!(image["urlExpiresAt"].is_string());
    let url = image["url"].as_str().unwrap();
    assert!(url.starts_with(&app.url(&format!("/v1/affiliate-job/images/{job_id}/"))));

    let photo = app.http.get(url).send().await.unwrap();
    assert_eq!(photo.status(), 200);
    assert_eq!(photo.headers()["content-type"], "image/png");
    assert_eq!(photo.headers()["cache-control"], "private");
    let bytes = photo.bytes().await.unwrap();
    let stored = std::fs::read(app.image_dir.join(&app.stored_files()[0])).unwrap();
    assert_eq!(bytes.as_ref(), stored.as_slice());

    let path = url.strip_prefix(&app.base_url()).unwrap();
    let path_only = path.split('?').next().unwrap();
    let mut tampered = url.to_owned();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    let refused = app.http.get(&tampered).send().await.unwrap();
    problem(refused, 403, path_only).await;
    let unsigned = app.http.get(app.url(path_only)).send().await.unwrap();
    problem(unsigned, 403, path_only).await;

    let links = ImageLinks::new(&app.master);
    let image_id = path_only.rsplit('/').next().unwrap();
    let past = time::OffsetDateTime::now_utc() - Duration::from_secs(60);
    let expired = links.path_and_query(&job_id, image_id, past);
    let detail = problem(
        app.http.get(app.url(&expired)).send().await.unwrap(),
        403,
        path_only,
    )
    .await;
    assert!(detail["detail"].as_str().unwrap().contains("expired"));

    let future = time::OffsetDateTime::now_utc() + Duration::from_secs(60);
    let unknown = links.path_and_query(&job_id, "no-such-image", future);
    let unknown_path = unknown.split('?').next().unwrap();
    problem(
        app.http.get(app.url(&unknown)).send().await.unwrap(),
        404,
        unknown_path,
    )
    .await;
}
