//! The request headers a verification echoes back, credentials left out.

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

/// Every header but the credentials, names lowercased, repeated values joined by `, `.
pub fn echoed(headers: &HeaderMap) -> BTreeMap<String, String> {
    let mut echoed: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in headers {
        let name = name.as_str().to_ascii_lowercase();
        if is_credential(&name) {
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
        let echoed = echoed(&headers);
        let names: Vec<_> = echoed.keys().map(String::as_str).collect();
        assert_eq!(names, ["accept", "date", "digest"]);
        assert_eq!(echoed["accept"], "application/json, text/plain");
    }
}
