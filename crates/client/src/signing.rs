//! How the client signs: the algorithm and the covered headers.

use intake_signature::Algorithm;

/// The signing choices of a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigningConfig {
    /// The HMAC algorithm.
    pub algorithm: Algorithm,
    /// Covered names in order, lowercased. `digest` and `content-length` are
    /// skipped on requests without a body (a GET has neither).
    pub headers: Vec<String>,
}

impl Default for SigningConfig {
    /// hmac-sha256 over `(request-target) host date digest content-length`.
    fn default() -> Self {
        SigningConfig {
            algorithm: Algorithm::HmacSha256,
            headers: [
                "(request-target)",
                "host",
                "date",
                "digest",
                "content-length",
            ]
            .map(String::from)
            .to_vec(),
        }
    }
}

impl SigningConfig {
    /// Parses a space-separated header list such as `(request-target) host date`.
    pub fn with_headers(mut self, list: &str) -> Self {
        self.headers = list
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        self
    }

    /// The names to cover for a request with or without a body.
    pub(crate) fn covered(&self, has_body: bool) -> Vec<&str> {
        self.headers
            .iter()
            .map(String::as_str)
            .filter(|name| {
                has_body || !matches!(*name, "digest" | "content-length" | "content-digest")
            })
            .collect()
    }
}
