//! The problem body (RFC 9457) every non-2xx answer carries.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Media type of every error answer.
pub const PROBLEM_CONTENT_TYPE: &str = "application/problem+json";

/// An error answer: exactly these five members, no others.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// A URI naming the HTTP status, e.g. `https://www.rfc-editor.org/rfc/rfc9110#status.400`.
    #[serde(rename = "type")]
    #[schema(example = "https://www.rfc-editor.org/rfc/rfc9110#status.401")]
    pub type_uri: String,
    /// The HTTP status code of the answer.
    #[schema(example = 401)]
    pub status: u16,
    /// The status phrase, e.g. `Unauthorized`.
    #[schema(example = "Unauthorized")]
    pub title: String,
    /// What went wrong and what to fix.
    pub detail: String,
    /// The request path, starting with `/`.
    #[schema(example = "/v1/affiliate-job/jobs")]
    pub instance: String,
}

impl Problem {
    /// Builds the problem for `status` with its standard type URI and title.
    pub fn new(status: u16, detail: impl Into<String>, instance: impl Into<String>) -> Self {
        let section = match status {
            // RFC 9110 has no sections for 429 and 431; RFC 6585 defines them.
            429 => "https://www.rfc-editor.org/rfc/rfc6585#section-4".to_owned(),
            431 => "https://www.rfc-editor.org/rfc/rfc6585#section-5".to_owned(),
            _ => format!("https://www.rfc-editor.org/rfc/rfc9110#status.{status}"),
        };
        Problem {
            type_uri: section,
            status,
            title: status_title(status).to_owned(),
            detail: detail.into(),
            instance: instance.into(),
        }
    }
}

/// The standard reason phrase of an HTTP status.
pub fn status_title(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_serialises_to_exactly_five_members() {
        let value = serde_json::to_value(Problem::new(
            422,
            "Job classified as spam",
            "/v1/affiliate-job/jobs",
        ))
        .unwrap();
        let object = value.as_object().unwrap();
        let mut keys: Vec<_> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["detail", "instance", "status", "title", "type"]);
        assert_eq!(value["title"], "Unprocessable Entity");
        assert_eq!(
            value["type"],
            "https://www.rfc-editor.org/rfc/rfc9110#status.422"
        );
    }

    #[test]
    fn a_member_added_later_is_ignored_by_the_decoder_and_never_written() {
        // A client decodes leniently (the service may add members); what the
        // service writes stays the five members the specification allows.
        let text = r#"{"type":"t","status":400,"title":"Bad Request","detail":"d","instance":"/","extra":1}"#;
        let problem: Problem = serde_json::from_str(text).unwrap();
        assert_eq!((problem.status, problem.detail.as_str()), (400, "d"));
        let written = serde_json::to_value(&problem).unwrap();
        assert_eq!(written.as_object().unwrap().len(), 5, "{written}");
    }
}
