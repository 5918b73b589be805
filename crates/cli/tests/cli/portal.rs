//! The developer portal in a real browser: Debian's headless `chromium`
//! driven through `chromedriver` (WebDriver, by `fantoccini`), against a real
//! `intake serve`. The pages load with no console error; the playground,
//! given the fixed inputs of SIGNATURES.md's vectors, computes their
//! signatures exactly; a job sent from the page gets 201; a wrong secret
//! shows the 401's signing string beside the page's own. Screenshots go to
//! `target/tmp/portal-screenshots/` for a person to look at.

use crate::delivery::{import_trades, Trade};
use crate::helpers::{create_key, data_dir, Server};
use fantoccini::{Client, ClientBuilder, Locator};
use intake_test_support::webhooks::Receiver;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running chromedriver; killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    /// Starts chromedriver on a free port, or `None` (a skip) where it is
    /// missing, unless CI requires it.
    fn start() -> Option<Driver> {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let spawned = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(error) => {
                crate::helpers::tool_missing("chromedriver", &error);
                return None;
            }
        };
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Driver { child, url })
    }

    async fn browser(&self) -> Client {
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1400"]
            },
            "goog:loggingPrefs": {"browser": "ALL"}
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .expect("a chromium session")
    }

    /// The browser's console since the last call (chromedriver's log endpoint).
    async fn console(&self, browser: &Client) -> Vec<Value> {
        let session = browser.session_id().await.unwrap().unwrap();
        let answer: Value = reqwest::Client::new()
            .post(format!("{}/session/{session}/se/log", self.url))
            .json(&json!({"type": "browser"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        answer["value"].as_array().cloned().unwrap_or_default()
    }

    /// Asserts that the console holds no error (`SEVERE`) beyond those `expected` accepts.
    async fn assert_no_console_error(
        &self,
        browser: &Client,
        page: &str,
        expected: impl Fn(&str) -> bool,
    ) {
        let errors: Vec<Value> = self
            .console(browser)
            .await
            .into_iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .filter(|entry| !expected(entry["message"].as_str().unwrap_or_default()))
            .collect();
        assert!(errors.is_empty(), "{page}: console errors: {errors:#?}");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn screenshots() -> PathBuf {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("portal-screenshots");
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

async fn screenshot(browser: &Client, name: &str) {
    // The outcome of a send is below the form: bring it into view when there is one.
    run(browser, "const sent = document.getElementById('sent'); if (sent && !sent.hidden) sent.scrollIntoView();").await;
    let png = browser.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(screenshots().join(format!("{name}.png")), png).unwrap();
}

/// Runs a script in the page, for its effect.
async fn run(browser: &Client, script: &str) {
    browser.execute(script, vec![]).await.unwrap();
}

/// Clicks the element `id`.
async fn click(browser: &Client, id: &str) {
    browser
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Sets the playground's fields by id, as a person would type them.
async fn fill(browser: &Client, fields: &[(&str, &str)]) {
    for (id, value) in fields {
        browser
            .execute(
                "const field = document.getElementById(arguments[0]); field.value = arguments[1];",
                vec![json!(id), json!(value)],
            )
            .await
            .unwrap();
    }
}

/// The exact text of element `id` (its `textContent`: no whitespace folded).
async fn text_of(browser: &Client, id: &str) -> String {
    let text = browser
        .execute(
            "return document.getElementById(arguments[0]).textContent;",
            vec![json!(id)],
        )
        .await
        .unwrap();
    text.as_str().unwrap().to_owned()
}

/// Waits until element `id` has text for which `done` holds; returns it.
async fn wait_for_text(browser: &Client, id: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let text = text_of(browser, id).await;
        if done(&text) {
            return text;
        }
        assert!(Instant::now() < deadline, "#{id} never got there: {text:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Fills the playground, presses Sign and returns the signature it computed.
async fn signature_for(browser: &Client, fields: &[(&str, &str)]) -> String {
    fill(browser, fields).await;
    run(
        browser,
        "document.getElementById('authorization').dataset.signature = '';",
    )
    .await;
    click(browser, "sign").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let signature = browser
            .execute(
                "return document.getElementById('authorization').dataset.signature || '';",
                vec![],
            )
            .await
            .unwrap();
        let signature = signature.as_str().unwrap().to_owned();
        if !signature.is_empty() {
            return signature;
        }
        let problem = text_of(browser, "problem").await;
        assert!(
            problem.is_empty(),
            "the playground refused {fields:?}: {problem}"
        );
        assert!(Instant::now() < deadline, "no signature for {fields:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

const VECTOR_A_DATE: &str = "Sun, 05 Jan 2014 21:31:40 GMT";
const VECTOR_B_DATE: &str = "Tue, 07 Jun 2014 20:51:35 GMT";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_portal_works_in_a_real_browser_and_the_playground_signs_the_vectors_exactly() {
    let Some(driver) = Driver::start() else {
        return;
    };
    let (tmp, dir) = data_dir();
    let receiver = Receiver::start();
    import_trades(tmp.path(), &dir, &receiver, &[Trade(141, "SW1A 2AA", 1335)]);
    let key = create_key(&dir, "staging");
    let server = Server::start(&dir, &[], &[]);
    let base = server.base_url();
    let browser = driver.browser().await;

    // The front page and the reference, with nothing from elsewhere.
    browser
        .goto(&format!("{base}/v1/affiliate-job/portal/"))
        .await
        .unwrap();
    assert!(text_of(&browser, "first-request")
        .await
        .contains("First request"));
    driver
        .assert_no_console_error(&browser, "portal", |_| false)
        .await;
    screenshot(&browser, "portal").await;
    browser
        .goto(&format!("{base}/v1/affiliate-job/docs/"))
        .await
        .unwrap();
    let title = browser
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(".swagger-ui .info .title"))
        .await
        .expect("Swagger UI renders the document");
    assert!(title.text().await.unwrap().contains("Affiliate Job Intake"));
    browser
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("[id^='operations-jobs-createJob']"))
        .await
        .expect("the reference lists POST /jobs");
    driver
        .assert_no_console_error(&browser, "docs", |_| false)
        .await;
    screenshot(&browser, "reference").await;

    // The playground against SIGNATURES.md's vectors.
    browser
        .goto(&format!("{base}/v1/affiliate-job/portal/playground"))
        .await
        .unwrap();
    wait_for_text(&browser, "signingString", |text| !text.is_empty()).await;
    driver
        .assert_no_console_error(&browser, "playground", |_| false)
        .await;
    let vector_a = |algorithm: &'static str, covered: &'static str, extra: &'static str| {
        vec![
            ("keyId", "test-hmac"),
            ("secret", "secret"),
            ("algorithm", algorithm),
            ("covered", covered),
            ("method", "POST"),
            ("path", "/foo?param=value&pet=dog"),
            ("host", "example.com"),
            ("date", VECTOR_A_DATE),
            ("extra", extra),
            ("body", r#"{"hello": "world"}"#),
        ]
    };
    let json_type = "Content-Type: application/json";
    let a = [
        ("hmac-sha256", "", "5il23dFFZ/+0aoRFA3m7RYsXQR1w/F7SpSv1sxyRcbQ="),
        ("hmac-sha256", "(request-target) host date", "w0konuLQCdwz0wFK92EUjJgt/KiswVm3NjEwmyQI0CU="),
        ("hmac-sha256", "(request-target) host date content-type digest content-length", "kJOoMK+AuLAtTm5U69hAAOrpl8iF/VUhDJu7bcZp+f4="),
        ("hmac-sha256", "(request-target) host date digest content-length", "Qfm9JillOwbBtBefawkTCWdrihUMnR5QmeoLXAjVB2k="),
        ("hmac-sha1", "(request-target) host date digest content-length", "6AdxFZw9iXuZfpJCQnBSYcRH55g="),
        ("hmac-sha512", "(request-target) host date digest content-length", "gPTGT4wGnHotvBBjUfeCdkW6kg6X4QWJKka1vBW6hR2O+TUNa5TQo1LS7sTO4Nx7D0mKnwf+wSapgsWnjXz9GQ=="),
    ];
    for (algorithm, covered, expected) in a {
        let signature = signature_for(&browser, &vector_a(algorithm, covered, json_type)).await;
        assert_eq!(
            signature, expected,
            "vector A, {algorithm}, headers {covered:?}"
        );
    }
    assert_eq!(
        text_of(&browser, "digest").await,
        "Digest: SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=",
        "vector D"
    );
    let b = [
        ("hmac-sha1", "don't tell", true, "DMP1G2BKLf1o9iKg0NvPZo8RigY="),
        ("hmac-sha1", "another key", true, "P6FNqBvdGQcaNTecru8KR1ObHLY="),
        ("hmac-sha1", "don't tell", false, "VPEKHCIXUlAqXNCmoB+aSelBZkU="),
        ("hmac-sha1", "another key", false, "mhWHbBqk3ArpoYlT60VING3P1gQ="),
        ("hmac-sha256", "don't tell", true, "yT/NrPI9mKB5R7FTLRyFWvB+QLQOEAvbGmauC0tI+Jg="),
        ("hmac-sha256", "another key", true, "sr+ungXeJjxCEJvJSFS0o+P9deafROte/1n3q+Ig6mg="),
        ("hmac-sha256", "don't tell", false, "R6gbUcVfoGGkCy//JjBSF7jkD9wIQA4DKruUgtv/P1M="),
        ("hmac-sha256", "another key", false, "KrB+54zf29LFZrkwgVTUlJOyOeBtl0BzOp6FdjbDo70="),
        ("hmac-sha512", "don't tell", true, "HKObooU+mlMdFoxn29Yk0U8JZlFMXlpLqdcVd4OyJHInyjbJNTtkSoVFU4EgogzGTQRLed9Ja8+SxwGS8Lw2UQ=="),
        ("hmac-sha512", "another key", true, "qxy0NC6BelTV0O8eVWYyyptgsVx/UjAorCLDjirznEEC6ay4orgGvmCFHlz1O1uYEY7t2xTCk5Dw5Rhnf20bEA=="),
        ("hmac-sha512", "don't tell", false, "WHVT+7KsEIzmJ69ujXuRXPzRvb4yfrZZSXlxnnnuRR5r3H9MyJ7y1t1xWgu9pEmj41gzdogF4pF3hR0Z7f62Jw=="),
        ("hmac-sha512", "another key", false, "+w0a5Sw0+pOzA0OHXiVD5DDx2xdOqZcebhFtaXINUPWFhf68pVdWSzOPjGGHa/zIhsE152FT4E1mHbrPZO71Eg=="),
    ];
    for (algorithm, secret, s1, expected) in b {
        let covered = if s1 {
            "content-length host date (request-target)"
        } else {
            "content-length host date"
        };
        let fields = [
            ("secret", secret),
            ("algorithm", algorithm),
            ("covered", covered),
            ("method", "GET"),
            ("path", "/foo/Bar"),
            ("host", "example.org"),
            ("date", VECTOR_B_DATE),
            ("extra", "Content-Length: 18"),
            ("body", ""),
        ];
        let signature = signature_for(&browser, &fields).await;
        assert_eq!(
            signature, expected,
            "vector B, {algorithm}, {secret:?}, S1 {s1}"
        );
    }
    let c = [
        ("secret", "secret"),
        ("algorithm", "hmac-sha256"),
        ("covered", "(request-target) host date cache-control x-emptyheader x-example"),
        ("method", "GET"),
        ("path", "/foo?a=1&b=%2F"),
        ("host", "example.org"),
        ("date", VECTOR_B_DATE),
        ("extra", "Cache-Control: max-age=60\nCache-Control:    must-revalidate\nX-EmptyHeader:\nX-Example:    Example header with some whitespace.   "),
        ("body", ""),
    ];
    assert_eq!(
        signature_for(&browser, &c).await,
        "EOtAkrUiMbRG/zXAYBtZGs9Q35/d5MsUiB+uJUckCHU=",
        "vector C"
    );
    assert_eq!(
        text_of(&browser, "signingString").await,
        "(request-target): get /foo?a=1&b=%2F\nhost: example.org\ndate: Tue, 07 Jun 2014 20:51:35 GMT\ncache-control: max-age=60, must-revalidate\nx-emptyheader: \nx-example: Example header with some whitespace.",
        "vector C's signing string"
    );
    screenshot(&browser, "playground-vector-c").await;

    // Sent from the page with the real key: 201.
    let job = json!({"categoryId": 1335, "description": "Boiler not working, no hot water since Monday.",
        "email": "portal.test@example.com", "phone": "07700 900123", "firstName": "Pat", "lastName": "Portal",
        "postcode": "SW1A 1AA", "preferredStart": {"id": "URGENT"}})
    .to_string();
    let host = server.address.to_string();
    let send = [
        ("keyId", key.key_id.as_str()),
        ("secret", key.secret.as_str()),
        ("algorithm", "hmac-sha256"),
        (
            "covered",
            "(request-target) host date digest content-length",
        ),
        ("method", "POST"),
        ("path", "/v1/affiliate-job/jobs"),
        ("host", host.as_str()),
        ("extra", json_type),
        ("body", &job),
    ];
    fill(&browser, &send).await;
    click(&browser, "send").await;
    let status = wait_for_text(&browser, "status", |text| !text.is_empty()).await;
    let answer = text_of(&browser, "answer").await;
    assert!(status.starts_with("201"), "{status}: {answer}");
    let created: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(created["trades"][0]["id"], 141, "{answer}");
    let sent = text_of(&browser, "sentSigningString").await;
    assert!(
        sent.contains("(created): ") && !sent.contains("date: "),
        "{sent}"
    );
    driver
        .assert_no_console_error(&browser, "send", |_| false)
        .await;
    screenshot(&browser, "playground-sent-201").await;

    // A wrong secret: the 401 and the server's signing string beside the page's.
    fill(&browser, &[("secret", "not-the-secret")]).await;
    run(
        &browser,
        "document.getElementById('status').textContent = '';",
    )
    .await;
    click(&browser, "send").await;
    let status = wait_for_text(&browser, "status", |text| !text.is_empty()).await;
    assert!(status.starts_with("401"), "{status}");
    let page_string = text_of(&browser, "sentSigningString").await;
    let server_string = text_of(&browser, "serverSigningString").await;
    assert!(
        !server_string.is_empty(),
        "the 401's signing string is shown"
    );
    assert_eq!(
        server_string, page_string,
        "the same request: only the secret differs"
    );
    driver
        .assert_no_console_error(&browser, "the 401", |message| message.contains("401"))
        .await;
    screenshot(&browser, "playground-sent-401").await;
    browser.close().await.unwrap();
}
