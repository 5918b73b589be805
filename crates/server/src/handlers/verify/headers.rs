//! The request headers a verification echoes back, credentials left out.

use crate::request_id::REQUEST_ID;
use axum::http::HeaderMap;
use std::collections::BTreeMap;

/// Names left out whole.
const CREDENTIALS: [&str; 5] = [
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "signature",
];

/// Parts of a name that mark a credential of some other scheme
/// (`x-api-key`, `x-auth-token`, `x-amz-security-token`, `x-session-id`).
const CREDENTIAL_WORDS: [&str; 9] = [
    "auth",
    "token",
    "secret",
    "password",
    "passwd",
    "api-key",
    "apikey",
    "credential",
    "session",
];

/// Whether a (lowercase) header name may carry a credential.
pub fn is_credential(name: &str) -> bool {
    CREDENTIALS.contains(&name) || CREDENTIAL_WORDS.iter().any(|word| name.contains(word))
}

/// Every header the client sent but the credentials, names lowercased, repeated values
/// joined by `, `. `request_id_made_here` leaves out the `x-request-id` the server added.
pub fn echoed(headers: &HeaderMap, request_id_made_here: bool) -> BTreeMap<String, String> {
    let mut echoed: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in headers {
        let name = name.as_str().to_ascii_lowercase();
        if is_credential(&name) || (request_id_made_here && name == REQUEST_ID.as_str()) {
            continue;
        }
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        echoed
            .entry(name)
            .and_modify(|joined| {
                joined.push_str(", ");
                joined.push_str(&value);
            })
            .or_insert(value);
    }
    echoed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_left_out_and_the_rest_kept() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("Authorization", "Signature keyId=\"k\",signature=\"s\""),
            ("Signature", "keyId=\"k\""),
            ("Cookie", "session=1"),
            ("Proxy-Authorization", "Basic eDp5"),
            ("X-Api-Key", "k"),
            ("X-Auth-Token", "t"),
            ("X-Amz-Security-Token", "t"),
            ("Date", "Mon, 01 Jun 2026 10:00:00 GMT"),
            ("Digest", "SHA-256=abc"),
            ("Accept", "application/json"),
        ] {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        headers.append("accept", "text/plain".parse().unwrap());
        let echoed = echoed(&headers, false);
        let names: Vec<_> = echoed.keys().map(String::as_str).collect();
        assert_eq!(names, ["accept", "date", "digest"]);
        assert_eq!(echoed["accept"], "application/json, text/plain");
    }

    #[test]
    fn a_request_id_is_echoed_only_when_the_client_sent_it() {
        let mut headers = HeaderMap::new();
        headers.insert(REQUEST_ID, "trace-1".parse().unwrap());
        assert_eq!(echoed(&headers, false)["x-request-id"], "trace-1");
        assert!(echoed(&headers, true).is_empty());
    }
}
