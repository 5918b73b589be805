//! A stub of the intake service that answers from a script, records every
//! request, and can drop a connection after reading the request: the network
//! and the server misbehaving, on demand.

mod raw;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use intake_api::Problem;
use intake_client::{Client, RetryPolicy};
use intake_signature::{verify, Message, SignatureHeader, VerifyOptions};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

pub const KEY_ID: &str = "stg_stub";
pub const SECRET: &str = "stub-secret";

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Answer {
    /// 201 with a job body, `Idempotency-Replayed: true` when `replayed`.
    Created { replayed: bool },
    /// 200 with a `JobView`.
    Job,
    /// A problem answer, with `Retry-After` when given.
    Problem {
        status: u16,
        detail: &'static str,
        retry_after: Option<&'static str>,
    },
    /// An error status with an HTML body, as a proxy sends.
    Html { status: u16 },
    /// Any JSON body with its status and content type, and an `x-request-id`
    /// when given: a later version of the service, say.
    Json {
        status: u16,
        content_type: &'static str,
        body: serde_json::Value,
        request_id: Option<&'static str>,
    },
    /// Read the whole request, then close the connection without answering.
    Drop,
}

impl Answer {
    pub fn problem(status: u16, detail: &'static str) -> Self {
        Answer::Problem {
            status,
            detail,
            retry_after: None,
        }
    }

    pub fn problem_retry_after(status: u16, detail: &'static str, after: &'static str) -> Self {
        Answer::Problem {
            status,
            detail,
            retry_after: Some(after),
        }
    }
}

/// A request as the stub received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub target: String,
    /// Lowercased names, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Whether the stub dropped the connection instead of answering.
    pub dropped: bool,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Checks the signature as the real service would, at the current time.
    pub fn verify_signature(&self) -> Result<(), String> {
        let authorization = self.header("authorization").ok_or("no Authorization")?;
        let header = SignatureHeader::parse(authorization).map_err(|e| e.to_string())?;
        let mut message = Message::new(self.method.as_str(), self.target.as_str());
        for (name, value) in &self.headers {
            message.push_header(name, value);
        }
        let options = VerifyOptions::new(time::OffsetDateTime::now_utc());
        verify(
            &message,
            &self.body,
            &header,
            Some(SECRET.as_bytes()),
            &options,
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    }
}

#[derive(Default)]
struct Script {
    answers: VecDeque<Answer>,
    requests: Vec<Recorded>,
}

type Shared = Arc<Mutex<Script>>;

/// A running stub.
pub struct Stub {
    addr: SocketAddr,
    script: Shared,
}

impl Stub {
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A client of the stub that retries without waiting long.
    pub fn client(&self) -> Client {
        self.client_with(fast_retries(5))
    }

    pub fn client_with(&self, policy: RetryPolicy) -> Client {
        Client::new(&self.base_url(), KEY_ID, SECRET)
            .unwrap()
            .with_retry(policy)
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.script.lock().unwrap().requests.clone()
    }
}

/// The default policy with millisecond waits, so tests never sleep for long.
pub fn fast_retries(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(20),
        ..RetryPolicy::default()
    }
}

/// Starts a stub on a free port answering `answers` in order; once they run
/// out it answers 500, which the client never retries.
pub async fn spawn_stub(answers: Vec<Answer>) -> Stub {
    let script: Shared = Arc::new(Mutex::new(Script {
        answers: answers.into(),
        requests: Vec::new(),
    }));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let listener = DroppingListener {
        inner: listener,
        script: script.clone(),
    };
    let app = Router::new().fallback(answer).with_state(script.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Stub { addr, script }
}

async fn answer(
    State(script): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let next = {
        let mut script = script.lock().unwrap();
        script.requests.push(Recorded {
            method: method.to_string(),
            target: uri
                .path_and_query()
                .map(ToString::to_string)
                .unwrap_or_default(),
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or_default().to_owned()))
                .collect(),
            body: body.to_vec(),
            dropped: false,
        });
        script.answers.pop_front()
    };
    // Every connection serves one request, so the listener sees each attempt.
    let close = [("connection", "close")];
    match next {
        Some(Answer::Created { replayed }) => {
            let mut response =
                (StatusCode::CREATED, close, axum::Json(created_body())).into_response();
            if replayed {
                response
                    .headers_mut()
                    .insert("idempotency-replayed", "true".parse().unwrap());
            }
            response
        }
        Some(Answer::Job) => (close, axum::Json(job_view_body())).into_response(),
        Some(Answer::Problem {
            status,
            detail,
            retry_after,
        }) => {
            let mut response = problem(status, detail, uri.path());
            if let Some(after) = retry_after {
                response
                    .headers_mut()
                    .insert("retry-after", after.parse().unwrap());
            }
            response
        }
        Some(Answer::Html { status }) => (
            StatusCode::from_u16(status).unwrap(),
            close,
            "<html><body>Bad Gateway</body></html>",
        )
            .into_response(),
        Some(Answer::Json {
            status,
            content_type,
            body,
            request_id,
        }) => {
            let mut response = (
                StatusCode::from_u16(status).unwrap(),
                [("content-type", content_type), ("connection", "close")],
                body.to_string(),
            )
                .into_response();
            if let Some(id) = request_id {
                response
                    .headers_mut()
                    .insert("x-request-id", id.parse().unwrap());
            }
            response
        }
        Some(Answer::Drop) => unreachable!("the listener drops these connections"),
        None => problem(500, "the stub's script ran out", uri.path()),
    }
}

fn problem(status: u16, detail: &str, instance: &str) -> Response {
    let body = Problem::new(status, detail, instance);
    (
        StatusCode::from_u16(status).unwrap(),
        [
            ("content-type", "application/problem+json"),
            ("connection", "close"),
        ],
        serde_json::to_string(&body).unwrap(),
    )
        .into_response()
}

pub fn created_body() -> serde_json::Value {
    serde_json::json!({
        "id": "0193a4b2-6c1e-7d2f-9a41-3b5c6d7e8f90",
        "trades": [{"id": 104233, "name": "Sam's Plumbing", "profileURL": "https://www.example-trades.co.uk/trades/104233"}]
    })
}

pub fn job_view_body() -> serde_json::Value {
    serde_json::json!({
        "id": "0193a4b2-6c1e-7d2f-9a41-3b5c6d7e8f90",
        "environment": "staging",
        "categoryId": 1335,
        "description": "Boiler not working, no hot water since Monday.",
        "consumer": {"email": "sam.jones@example.com", "firstName": "Sam", "lastName": "Jones", "phone": "07900000000"},
        "postcode": "SW1A 1AA",
        "address": null,
        "preferredStart": null,
        "creationSource": "api",
        "receivedAt": "2026-01-05T10:00:00Z",
        "recipients": [{"id": 104233, "name": "Sam's Plumbing", "profileURL": "https://www.example-trades.co.uk/trades/104233", "rank": 1, "deliveryState": "not_sent"}],
        "images": []
    })
}

/// Accepts connections for axum, except that when the next scripted answer
/// is [`Answer::Drop`] it reads the request itself and closes the socket.
struct DroppingListener {
    inner: TcpListener,
    script: Shared,
}

impl axum::serve::Listener for DroppingListener {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            let (mut stream, addr) = self.inner.accept().await.unwrap();
            let drop_it = {
                let mut script = self.script.lock().unwrap();
                let drop_it = matches!(script.answers.front(), Some(Answer::Drop));
                if drop_it {
                    script.answers.pop_front();
                }
                drop_it
            };
            if !drop_it {
                return (stream, addr);
            }
            let recorded = raw::read_request(&mut stream).await;
            self.script.lock().unwrap().requests.push(recorded);
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}
