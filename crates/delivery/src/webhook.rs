//! Webhook leads, signed as the Standard Webhooks specification says:
//! `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64>` of
//! HMAC-SHA256 over `{id}.{timestamp}.{body}` with the trade's derived secret.

use super::attempt::Attempt;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use reqwest::StatusCode;
use sha2::Sha256;
use std::time::Duration;

/// The `v1,<base64>` signature of one attempt.
pub fn signature(key: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac =
        <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

/// The HTTP client of webhook attempts: no redirects (a 3xx is a failure to
/// retry, so a lead is never sent somewhere its trade did not name).
pub fn client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("intake-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("the webhook HTTP client builds")
}

/// POSTs `body` to `url` once.
pub async fn send(
    client: &reqwest::Client,
    url: &str,
    id: &str,
    key: &[u8],
    body: Vec<u8>,
    timestamp: i64,
) -> Attempt {
    let signature = signature(key, id, timestamp, &body);
    let result = client
        .post(url)
        .header("content-type", "application/json")
        .header("webhook-id", id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body)
        .send()
        .await;
    match result {
        Ok(response) => classify(response.status()),
        Err(error) if error.is_timeout() => {
            Attempt::Failed("the receiver did not answer in time".into())
        }
        Err(error) => Attempt::Failed(format!("request failed: {}", chain(&error))),
    }
}

/// 2xx delivered, 410 gone, anything else to be retried.
pub fn classify(status: StatusCode) -> Attempt {
    if status.is_success() {
        Attempt::Delivered
    } else if status == StatusCode::GONE {
        Attempt::Gone(format!("the receiver answered {status}"))
    } else {
        Attempt::Failed(format!("the receiver answered {status}"))
    }
}

/// An error with its causes, for operators (network errors hide the useful part).
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_matches_the_standard_webhooks_reference_vector() {
        let key = STANDARD.decode("C2FVsBQIhrscChlQIMV+b5sSYspob7oD").unwrap();
        let body = br#"{"email":"test@example.com","username":"test_user"}"#;
        assert_eq!(
            signature(&key, "msg_27UH4WbU6Z5A5EzD8u03UvzRbpk", 1649367553, body),
            "v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw="
        );
    }

    #[test]
    fn a_derived_trade_secret_verifies_with_the_standardwebhooks_crate() {
        let master = intake_core::MasterKey::generate();
        let secret = master.webhook_secret(42);
        let body = br#"{"type":"lead.created"}"#;
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let mut headers = http::HeaderMap::new();
        headers.insert("webhook-id", "j.42.webhook".parse().unwrap());
        headers.insert("webhook-timestamp", now.to_string().parse().unwrap());
        let signed = signature(&master.webhook_key(42), "j.42.webhook", now, body);
        headers.insert("webhook-signature", signed.parse().unwrap());
        let verifier = standardwebhooks::Webhook::new(secret.expose()).unwrap();
        verifier.verify(body, &headers).unwrap();
        let other = standardwebhooks::Webhook::new(master.webhook_secret(43).expose()).unwrap();
        assert!(other.verify(body, &headers).is_err());
    }

    #[test]
    fn statuses_map_to_outcomes() {
        assert_eq!(classify(StatusCode::OK), Attempt::Delivered);
        assert_eq!(classify(StatusCode::NO_CONTENT), Attempt::Delivered);
        assert!(matches!(classify(StatusCode::GONE), Attempt::Gone(_)));
        for status in [
            StatusCode::MOVED_PERMANENTLY,
            StatusCode::NOT_FOUND,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::INTERNAL_SERVER_ERROR,
        ] {
            assert!(matches!(classify(status), Attempt::Failed(_)), "{status}");
        }
    }
}
