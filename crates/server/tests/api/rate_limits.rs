//! Per-key limits: the token bucket and the cap on requests in flight.

use crate::helpers::forms::job_form;
use crate::helpers::photos::png;
use crate::helpers::{
    api, job_body, problem, spawn_app_with, spawn_app_with_images, trade, TestApp, TestKey,
};
use futures::future::join_all;
use intake_server::{ImageStore, ImageStoreLocation, ServerConfig};
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult,
};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

const OPTIONS: &str = "/preferred-start-options";

fn limits(per_second: u32, burst: u32, in_flight: u32) -> ServerConfig {
    ServerConfig {
        rate_limit_per_second: per_second,
        rate_limit_burst: burst,
        max_in_flight_per_key: in_flight,
        ..ServerConfig::default()
    }
}

/// The seconds of a 429's `Retry-After`, after checking its problem body.
async fn refused(response: reqwest::Response, path: &str) -> (u64, String) {
    let retry_after = response
        .headers()
        .get("retry-after")
        .expect("a 429 carries Retry-After")
        .to_str()
        .unwrap()
        .parse::<u64>()
        .expect("Retry-After in whole seconds");
    let body = problem(response, 429, path).await;
    assert_eq!(body["title"], "Too Many Requests");
    assert!(retry_after >= 1);
    (retry_after, body["detail"].as_str().unwrap().to_owned())
}

async fn options_status(app: &TestApp, key: &TestKey) -> u16 {
    app.signed_get(key, OPTIONS).await.status().as_u16()
}

#[tokio::test]
async fn a_burst_over_the_rate_gets_429_with_retry_after_while_another_key_is_unaffected() {
    let app = spawn_app_with(limits(1, 3, 0)).await;
    let key = app.staging_key().await;
    let other = app.staging_key().await;
    for n in 1..=3 {
        assert_eq!(
            options_status(&app, &key).await,
            200,
            "request {n} of the burst"
        );
    }
    let (retry_after, detail) = refused(app.signed_get(&key, OPTIONS).await, &api(OPTIONS)).await;
    assert_eq!(
        retry_after, 1,
        "one token a second: the next is at most 1 s away"
    );
    assert!(
        detail.contains(&key.key_id) && detail.contains("1 requests a second"),
        "{detail}"
    );
    assert_eq!(options_status(&app, &other).await, 200);
}

#[tokio::test]
async fn the_bucket_refills_at_the_rate_after_retry_after() {
    let app = spawn_app_with(limits(1, 2, 0)).await;
    let key = app.staging_key().await;
    assert_eq!(options_status(&app, &key).await, 200);
    assert_eq!(options_status(&app, &key).await, 200);
    let (retry_after, _) = refused(app.signed_get(&key, OPTIONS).await, &api(OPTIONS)).await;

    tokio::time::sleep(Duration::from_secs(retry_after)).await;
    assert_eq!(options_status(&app, &key).await, 200, "a token is back");
    // One token a second came back, not the whole burst.
    refused(app.signed_get(&key, OPTIONS).await, &api(OPTIONS)).await;
}

#[tokio::test]
async fn refused_signatures_do_not_spend_the_keys_budget() {
    let app = spawn_app_with(limits(1, 1, 1)).await;
    let key = app.staging_key().await;
    let forged = TestKey {
        key_id: key.key_id.clone(),
        secret: "not the secret".to_owned(),
    };
    for _ in 0..5 {
        assert_eq!(options_status(&app, &forged).await, 401);
    }
    assert_eq!(options_status(&app, &key).await, 200);
}

#[tokio::test]
async fn zero_disables_both_limits() {
    // A burst of 1 would refuse the second request if the rate were on, and a
    // cap of 0 would refuse every request if it were taken literally.
    let app = spawn_app_with(limits(0, 1, 0)).await;
    let key = app.staging_key().await;
    let statuses = join_all((0..40).map(|_| options_status(&app, &key))).await;
    assert!(statuses.iter().all(|&status| status == 200), "{statuses:?}");
}

#[tokio::test]
async fn a_request_over_the_in_flight_cap_gets_429_at_once_and_slots_free_when_answered() {
    let (images, puts) = HeldPuts::new();
    let store = ImageStore::from_object_store(Arc::new(images), ImageStoreLocation::Memory);
    let app = spawn_app_with_images(limits(0, 0, 2), Some(store)).await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    let key = app.staging_key().await;
    let other = app.staging_key().await;

    // Two jobs with a photo each: they pass the checks, then wait for the
    // image store, holding both of the key's slots.
    let held = join_all((0..2).map(|n| held_job(&app, &key, n)));
    let probe = async {
        puts.wait_until_arrived(2).await;
        let over = tokio::time::timeout(Duration::from_secs(5), app.signed_get(&key, OPTIONS))
            .await
            .expect("the request over the cap is answered at once, not queued");
        let (retry_after, detail) = refused(over, &api(OPTIONS)).await;
        assert_eq!(retry_after, 1);
        assert!(detail.contains("2 requests in flight"), "{detail}");
        assert_eq!(
            options_status(&app, &other).await,
            200,
            "another key has its own slots"
        );
        puts.release();
    };
    let (statuses, ()) = tokio::join!(held, probe);
    assert_eq!(statuses, [201, 201]);

    wait_until(|| async { options_status(&app, &key).await == 200 }).await;
}

/// Posts job `n` (its own contact details) with one photo; returns the status.
async fn held_job(app: &TestApp, key: &TestKey, n: u32) -> u16 {
    let mut job = job_body();
    job["email"] = format!("homeowner{n}@example.com").into();
    job["phone"] = format!("0790000010{n}").into();
    let form = job_form(&job, &[("boiler.png", png(8, 8))]);
    app.post_form(key, "/jobs/with-attachments", &form, &[])
        .await
        .status()
        .as_u16()
}

#[tokio::test]
async fn the_openapi_document_declares_429_on_signed_routes_only() {
    let app = spawn_app_with(ServerConfig::default()).await;
    let document: serde_json::Value = app
        .http
        .get(app.url(&api("/openapi.json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let options = &document["paths"][api(OPTIONS)]["get"]["responses"]["429"];
    assert!(options["headers"]["Retry-After"].is_object(), "{options}");
    assert_eq!(
        options["content"]["application/problem+json"]["schema"]["$ref"],
        "#/components/schemas/Problem"
    );
    for (path, method) in [
        ("/v1/affiliate-job/jobs", "post"),
        ("/v1/affiliate-job/jobs/with-attachments", "post"),
        ("/v1/affiliate-job/jobs/{id}", "get"),
        ("/v1/affiliate-job/trades/search", "get"),
    ] {
        assert!(
            document["paths"][path][method]["responses"]["429"].is_object(),
            "{method} {path}"
        );
    }
    assert!(document["paths"]["/api/v1/category"]["get"]["responses"]["429"].is_null());
}

/// Polls `condition` until it holds, for at most 10 seconds.
async fn wait_until<F, Fut>(mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !condition().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "condition not met in 10 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// An image store whose writes wait until the test releases them: a slow
/// object store, under the test's control.
#[derive(Debug)]
struct HeldPuts {
    inner: InMemory,
    arrived: watch::Sender<usize>,
    open: watch::Receiver<bool>,
}

/// The test's side of [`HeldPuts`].
struct PutControl {
    arrived: watch::Receiver<usize>,
    open: watch::Sender<bool>,
}

impl HeldPuts {
    fn new() -> (Self, PutControl) {
        let (arrived_tx, arrived_rx) = watch::channel(0);
        let (open_tx, open_rx) = watch::channel(false);
        let store = HeldPuts {
            inner: InMemory::new(),
            arrived: arrived_tx,
            open: open_rx,
        };
        let control = PutControl {
            arrived: arrived_rx,
            open: open_tx,
        };
        (store, control)
    }
}

impl PutControl {
    async fn wait_until_arrived(&self, count: usize) {
        let mut arrived = self.arrived.clone();
        tokio::time::timeout(Duration::from_secs(10), arrived.wait_for(|n| *n >= count))
            .await
            .expect("the writes reached the image store")
            .unwrap();
    }

    fn release(&self) {
        self.open.send_replace(true);
    }
}

impl std::fmt::Display for HeldPuts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HeldPuts")
    }
}

#[async_trait::async_trait]
impl ObjectStore for HeldPuts {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.arrived.send_modify(|n| *n += 1);
        let mut open = self.open.clone();
        let _ = open.wait_for(|open| *open).await;
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        self.inner.get_opts(location, options).await
    }

    async fn delete(&self, location: &Path) -> object_store::Result<()> {
        self.inner.delete(location).await
    }

    fn list(
        &self,
        prefix: Option<&Path>,
    ) -> futures::stream::BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy(&self, from: &Path, to: &Path) -> object_store::Result<()> {
        self.inner.copy(from, to).await
    }

    async fn copy_if_not_exists(&self, from: &Path, to: &Path) -> object_store::Result<()> {
        self.inner.copy_if_not_exists(from, to).await
    }
}
