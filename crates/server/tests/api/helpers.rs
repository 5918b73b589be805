//! `spawn_app()` and friends.

pub mod backend;
pub mod conformance;
pub mod forms;
pub mod logs;
pub mod photos;
pub mod raw;

use intake_core::{Environment, KeyPolicy, MasterKey, NewKey, Store};
use intake_server::{AppState, Application, ImageStore, ImageStoreLocation, ServerConfig};
use intake_signature::{digest_header, sign, Algorithm, Message};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::oneshot;

/// A running server on its own port and store.
pub struct TestApp {
    pub address: SocketAddr,
    pub state: AppState,
    pub store: Arc<dyn Store>,
    /// The same store as its backend knows it, to take it away in outage
    /// tests ([`TestApp::close_store`]).
    backend: backend::TestStore,
    pub master: MasterKey,
    pub http: reqwest::Client,
    /// The folder of the image store (`DATA_DIR/images`).
    pub image_dir: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    pub finished: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    /// What the answers of this server broke of the specification's schemas.
    conformance: conformance::Checked,
    _dir: tempfile::TempDir,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.conformance.assert_none();
    }
}

/// A key made for a test, with its plain secret.
pub struct TestKey {
    pub key_id: String,
    pub secret: String,
}

/// Starts a staging server with default settings.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(ServerConfig::default()).await
}

/// Starts a server with `config`.
pub async fn spawn_app_with(config: ServerConfig) -> TestApp {
    spawn_app_with_images(config, None).await
}

/// Starts a server with `config` whose photos go to `images`, else to the
/// `images` folder of its data dir.
pub async fn spawn_app_with_images(config: ServerConfig, images: Option<ImageStore>) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let backend = backend::TestStore::open(dir.path()).await;
    let store = backend.store();
    let master = MasterKey::generate();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let image_dir = dir.path().join("images");
    let images = images.unwrap_or_else(|| {
        ImageStore::open(&ImageStoreLocation::Local(image_dir.clone())).unwrap()
    });
    let state = AppState::load(store.clone(), master.clone(), config)
        .await
        .unwrap()
        .with_images(images);
    let conformance = conformance::Checked::default();
    let app =
        Application::build(listener, state.clone()).map_router(|router| conformance.wrap(router));
    let address = app.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let finished = tokio::spawn(app.run_until(async move {
        let _ = stopped.await;
    }));
    TestApp {
        address,
        state,
        store,
        backend,
        master,
        http: reqwest::Client::new(),
        image_dir,
        stop: Some(stop),
        finished: Some(finished),
        conformance,
        _dir: dir,
    }
}

impl TestApp {
    /// Takes the store away (closes its connections), as an outage would.
    pub async fn close_store(&self) {
        self.backend.close().await;
    }

    /// `http://127.0.0.1:PORT`
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// An absolute URL for `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url())
    }

    /// Creates a key of `environment` requiring `policy` (space-separated names).
    pub async fn key(&self, environment: Environment, policy: &str) -> TestKey {
        let new = NewKey::generate(
            "Test affiliate",
            environment,
            KeyPolicy::parse(policy),
            &self.master,
        );
        self.store.insert_key(&new.key).await.unwrap();
        TestKey {
            key_id: new.key.key_id.clone(),
            secret: new.secret.expose().to_owned(),
        }
    }

    /// A staging key with no extra policy.
    pub async fn staging_key(&self) -> TestKey {
        self.key(Environment::Staging, "").await
    }

    /// The intake client for `key`.
    pub fn client(&self, key: &TestKey) -> intake_client::Client {
        intake_client::Client::new(&self.base_url(), &key.key_id, &key.secret).unwrap()
    }

    /// Asks the server to stop, as SIGTERM would.
    pub fn begin_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A request under construction, signed by hand so tests can tamper with it.
pub struct Signed {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Signed {
    /// A GET of `path` with Host and an HTTP Date of now.
    pub fn get(app: &TestApp, path: &str) -> Self {
        Signed {
            method: "GET".into(),
            path: path.into(),
            headers: vec![
                ("host".into(), app.address.to_string()),
                (
                    "date".into(),
                    httpdate::fmt_http_date(std::time::SystemTime::now()),
                ),
            ],
            body: Vec::new(),
        }
    }

    /// Adds a body with its Digest and Content-Length.
    pub fn with_body(mut self, body: &[u8]) -> Self {
        self.body = body.to_vec();
        self.headers.push(("digest".into(), digest_header(body)));
        self.headers
            .push(("content-length".into(), body.len().to_string()));
        self
    }

    /// Replaces (or adds) a header.
    pub fn set(mut self, name: &str, value: &str) -> Self {
        self.headers.retain(|(n, _)| n != name);
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Signs with `target` as the `(request-target)` path and returns the Authorization value.
    pub fn authorization(
        &self,
        key: &TestKey,
        algorithm: Algorithm,
        covered: &[&str],
        target: &str,
    ) -> String {
        let mut message = Message::new(&self.method, target);
        for (name, value) in &self.headers {
            message.push_header(name, value);
        }
        sign(
            &message,
            &key.key_id,
            algorithm,
            key.secret.as_bytes(),
            covered,
        )
        .unwrap()
        .to_authorization()
    }

    /// Sends with the given Authorization value.
    pub async fn send(self, app: &TestApp, authorization: &str) -> reqwest::Response {
        let mut request = app
            .http
            .request(self.method.parse().unwrap(), app.url(&self.path));
        for (name, value) in &self.headers {
            if name != "host" {
                request = request.header(name.as_str(), value.as_str());
            }
        }
        request
            .header("authorization", authorization)
            .body(self.body)
            .send()
            .await
            .unwrap()
    }
}

/// Reads a problem answer, checking its shape: exactly five members, the
/// media type, `status` equal to the HTTP status and `instance` the path.
pub async fn problem(response: reqwest::Response, status: u16, path: &str) -> serde_json::Value {
    assert_eq!(response.status().as_u16(), status, "status");
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json"
    );
    let body: serde_json::Value = response.json().await.unwrap();
    assert_problem_body(&body, status, path);
    body
}

/// Checks a problem body's members: exactly five, `status` and `instance` as given.
pub fn assert_problem_body(body: &serde_json::Value, status: u16, path: &str) {
    let object = body.as_object().expect("a JSON object");
    let mut members: Vec<_> = object.keys().map(String::as_str).collect();
    members.sort_unstable();
    assert_eq!(
        members,
        ["detail", "instance", "status", "title", "type"],
        "{body}"
    );
    assert_eq!(body["status"], status);
    assert_eq!(body["instance"], path);
    assert!(body["type"]
        .as_str()
        .unwrap()
        .starts_with("https://www.rfc-editor.org/rfc/"));
    assert!(!body["detail"].as_str().unwrap().is_empty());
}

/// Shorthand for the full path of an affiliate endpoint.
pub fn api(path: &str) -> String {
    format!("{}{path}", intake_api::BASE_PATH)
}

/// A trade for directory tests: based at `postcode`, covering `radius` miles
/// and the listed districts, registered for `categories`, with `reviews` reviews scored `score`.
pub fn trade(
    company_id: u64,
    categories: &[u32],
    postcode: &str,
    radius: Option<f64>,
    districts: &[&str],
    score: f64,
) -> intake_core::directory::TradeRecord {
    // Written as an operator's import line, so the fixture follows the
    // documented import format rather than our types.
    let reviews: Vec<serde_json::Value> = (0..4)
        .map(|n| {
            serde_json::json!({
                "id": format!("{company_id}-r{n}"),
                "title": (n != 3).then_some("Good work"),
                "body": "Turned up on time and did a tidy job.",
                "score": score,
                "breakdowns": [
                    {"label": "Reliability", "value": 9},
                    {"label": "Tidiness", "value": 9},
                    {"label": "Courtesy", "value": 10},
                ],
                "location": "SW1A",
                "verified": true,
                "createdAt": format!("2026-0{}-10T12:00:00Z", n + 1),
                "tradeResponse": (n == 3).then_some("Thank you!"),
            })
        })
        .collect();
    let mut images = vec![serde_json::json!({
        "id": format!("img-{company_id}"),
        "albumId": "kitchens",
        "url": format!("https://img.example.com/work/{company_id}.jpg"),
        "urlTemplate": format!("https://img.example.com/work/{company_id}_{{width}}.jpg"),
        "description": company_id.is_multiple_of(3).then_some("Finished kitchen"),
        "label": "After",
        "date": "2026-02-03",
    })];
    if company_id.is_multiple_of(3) {
        images.push(
            serde_json::json!({"id": "video", "type": "youtube", "youTubeId": "dQw4w9WgXcQ"}),
        );
    }
    serde_json::from_value(serde_json::json!({
        "companyId": company_id,
        "companyName": format!("Trade {company_id}"),
        "logoUrl": company_id.is_multiple_of(2).then(|| format!("https://img.example.com/{company_id}.png")),
        "basePostcode": postcode,
        "coverage": {"radiusMiles": radius, "districts": districts},
        "categories": categories,
        "delivery": {"email": format!("leads{company_id}@example.com")},
        "reviews": reviews,
        "images": images,
    }))
    .expect("the fixture follows the import format")
}

impl TestApp {
    /// Imports `records` into the store and reloads the directory.
    pub async fn import(&self, records: Vec<intake_core::directory::TradeRecord>) {
        let tree = intake_core::categories::CategoryTree::embedded();
        let geography = intake_core::geography::Geography::embedded();
        let valid: Vec<_> = records
            .into_iter()
            .map(|r| r.validate(tree, geography).unwrap())
            .collect();
        self.store.import_trades(&valid).await.unwrap();
        // False when the background refresher got there first; either way it is loaded now.
        self.state.refresh_directory().await.unwrap();
        let version = self.store.directory_version().await.unwrap();
        assert_eq!(self.state.directory.current().directory.version, version);
    }

    /// A signed GET through the intake client.
    pub async fn signed_get(&self, key: &TestKey, path_and_query: &str) -> reqwest::Response {
        let request = self
            .client(key)
            .signed_request(reqwest::Method::GET, path_and_query, None)
            .unwrap();
        self.http.execute(request).await.unwrap()
    }
}

/// A valid job for the heating directory of the jobs tests.
pub fn job_body() -> serde_json::Value {
    serde_json::json!({
        "description": "Boiler not working, no hot water since Monday.",
        "categoryId": 1335,
        "email": "sam.jones@example.com",
        "phone": "07900 000000",
        "firstName": "Sam",
        "lastName": "Jones",
        "postcode": "sw1a1aa",
        "preferredStart": {"id": "URGENT"}
    })
}

impl TestApp {
    /// A signed POST of `body` (JSON) to `path` under the base path, with extra headers.
    pub async fn post_json(
        &self,
        key: &TestKey,
        path: &str,
        body: &serde_json::Value,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let bytes = serde_json::to_vec(body).unwrap();
        self.post_raw(key, path, "application/json", bytes, headers)
            .await
    }

    /// A signed POST of raw bytes.
    pub async fn post_raw(
        &self,
        key: &TestKey,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = self
            .client(key)
            .signed_request(reqwest::Method::POST, path, Some((content_type, body)))
            .unwrap();
        for (name, value) in headers {
            request.headers_mut().insert(
                reqwest::header::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                reqwest::header::HeaderValue::from_str(value).unwrap(),
            );
        }
        self.http.execute(request).await.unwrap()
    }

    /// Row counts of the job tables.
    pub async fn counts(&self) -> intake_core::StoreCounts {
        self.store.counts().await.unwrap()
    }
}
