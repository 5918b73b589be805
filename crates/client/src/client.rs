//! The client: builds, signs and sends requests.

use crate::error::ClientError;
use crate::retry::RetryPolicy;
use crate::signing::SigningConfig;
use intake_api::options::PreferredStartOption;
use intake_api::{Problem, BASE_PATH};
use intake_signature::{digest_header, sign, Message};
use reqwest::header::{
    HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, DATE, HOST,
    RETRY_AFTER,
};
use reqwest::{Method, Response};
use serde::de::DeserializeOwned;
use std::fmt;
use std::time::{Duration, SystemTime};
use url::Url;

/// A signing client for one key.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base_url: Url,
    key_id: String,
    secret: String,
    signing: SigningConfig,
    retry: RetryPolicy,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.base_url.as_str())
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client of the service at `base_url` (e.g. `http://127.0.0.1:8080`)
    /// signing with `key_id` and `secret`, hmac-sha256 over the default headers.
    pub fn new(base_url: &str, key_id: &str, secret: &str) -> Result<Self, ClientError> {
        let base_url = Url::parse(base_url)
            .map_err(|error| ClientError::Config(format!("base URL `{base_url}`: {error}")))?;
        if base_url.host_str().is_none() {
            return Err(ClientError::Config(format!(
                "base URL `{base_url}` has no host"
            )));
        }
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|error| ClientError::Config(error.to_string()))?;
        Ok(Client {
            http,
            base_url,
            key_id: key_id.to_owned(),
            secret: secret.to_owned(),
            signing: SigningConfig::default(),
            retry: RetryPolicy::default(),
        })
    }

    /// Uses other signing choices.
    pub fn with_signing(mut self, signing: SigningConfig) -> Self {
        self.signing = signing;
        self
    }

    /// Uses another retry policy for job calls ([`RetryPolicy::none`] to never retry).
    pub fn with_retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// The retry policy of job calls.
    pub fn retry_policy(&self) -> &RetryPolicy {
        &self.retry
    }

    /// Uses a prepared `reqwest::Client` (connection pool, timeouts).
    pub fn with_http_client(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    /// `GET /preferred-start-options`.
    pub async fn preferred_start_options(&self) -> Result<Vec<PreferredStartOption>, ClientError> {
        let response = self
            .send(Method::GET, "/preferred-start-options", None)
            .await?;
        decode(response).await
    }

    /// Builds a signed request for `path` under the API base path
    /// (`/preferred-start-options`), with an optional `(content type, body)`.
    pub fn signed_request(
        &self,
        method: Method,
        path: &str,
        body: Option<(&str, Vec<u8>)>,
    ) -> Result<reqwest::Request, ClientError> {
        self.signed_request_with(method, path, body, &[])
    }

    /// [`Client::signed_request`] with `extra` headers, added before signing so
    /// that a [`SigningConfig`] may cover them (`idempotency-key`).
    pub(crate) fn signed_request_with(
        &self,
        method: Method,
        path: &str,
        body: Option<(&str, Vec<u8>)>,
        extra: &[(HeaderName, &str)],
    ) -> Result<reqwest::Request, ClientError> {
        let url = self
            .base_url
            .join(&format!("{BASE_PATH}{path}"))
            .map_err(|error| ClientError::Config(format!("path `{path}`: {error}")))?;
        let target = match url.query() {
            Some(query) => format!("{}?{query}", url.path()),
            None => url.path().to_owned(),
        };
        let host = match url.port() {
            Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
            None => url.host_str().unwrap_or_default().to_owned(),
        };
        let mut headers = vec![
            (HOST, host),
            (DATE, httpdate::fmt_http_date(SystemTime::now())),
        ];
        if let Some((content_type, bytes)) = &body {
            headers.push((CONTENT_TYPE, (*content_type).to_owned()));
            headers.push((HeaderName::from_static("digest"), digest_header(bytes)));
            headers.push((CONTENT_LENGTH, bytes.len().to_string()));
        }
        for (name, value) in extra {
            headers.push((name.clone(), (*value).to_owned()));
        }
        let mut message = Message::new(method.as_str(), target);
        for (name, value) in &headers {
            message.push_header(name.as_str(), value);
        }
        let covered = self.signing.covered(body.is_some());
        let signature = sign(
            &message,
            &self.key_id,
            self.signing.algorithm,
            self.secret.as_bytes(),
            &covered,
        )
        .map_err(|error| ClientError::Config(format!("cannot sign: {error}")))?;
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(name, header_value(&value)?);
        }
        map.insert(AUTHORIZATION, header_value(&signature.to_authorization())?);
        let mut builder = self.http.request(method, url).headers(map);
        if let Some((_, bytes)) = body {
            builder = builder.body(bytes);
        }
        builder.build().map_err(ClientError::Network)
    }

    /// Signs and sends a request; a non-2xx answer becomes [`ClientError::Problem`].
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<(&str, Vec<u8>)>,
    ) -> Result<Response, ClientError> {
        let request = self.signed_request(method, path, body)?;
        self.execute(request).await
    }

    /// Sends a built request; a non-2xx answer becomes [`ClientError::Problem`].
    pub(crate) async fn execute(&self, request: reqwest::Request) -> Result<Response, ClientError> {
        let response = self.http.execute(request).await?;
        if response.status().is_success() {
            Ok(response)
        } else {
            Err(problem_of(response).await)
        }
    }
}

fn header_value(value: &str) -> Result<HeaderValue, ClientError> {
    HeaderValue::from_str(value)
        .map_err(|_| ClientError::Config(format!("`{value}` cannot be a header value")))
}

/// Decodes a 2xx JSON body.
pub(crate) async fn decode<T: DeserializeOwned>(response: Response) -> Result<T, ClientError> {
    let bytes = response.bytes().await?;
    serde_json::from_slice(&bytes)
        .map_err(|error| ClientError::Unexpected(format!("cannot decode the answer: {error}")))
}

/// Turns an error answer into a typed problem (or `Status` when it is not one).
pub(crate) async fn problem_of(response: Response) -> ClientError {
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .and_then(retry_after_of);
    let request_id = response
        .headers()
        .get("x-request-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    match response.bytes().await {
        Ok(bytes) => match serde_json::from_slice::<Problem>(&bytes) {
            Ok(problem) => ClientError::Problem {
                problem: Box::new(problem),
                retry_after,
                request_id,
            },
            Err(_) => ClientError::Status {
                status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
                retry_after,
                request_id,
            },
        },
        Err(error) => ClientError::Network(error),
    }
}

/// `Retry-After` as delay-seconds or an HTTP date (a date in the past is no wait).
fn retry_after_of(text: &str) -> Option<Duration> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(text).ok()?;
    Some(at.duration_since(SystemTime::now()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_as_seconds_or_as_an_http_date() {
        assert_eq!(retry_after_of(" 7 "), Some(Duration::from_secs(7)));
        assert_eq!(retry_after_of("0"), Some(Duration::ZERO));
        let past = httpdate::fmt_http_date(SystemTime::UNIX_EPOCH);
        assert_eq!(retry_after_of(&past), Some(Duration::ZERO));
        let later = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(120));
        let wait = retry_after_of(&later).unwrap();
        assert!(wait > Duration::from_secs(100) && wait <= Duration::from_secs(120));
        assert_eq!(retry_after_of("soon"), None);
        assert_eq!(retry_after_of("-1"), None);
    }
}
