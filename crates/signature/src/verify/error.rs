//! Why a request failed verification, worded for the integrator who sent it.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::VerifyOptions;
use crate::{DateError, DigestError, HeaderError, SigningStringError};

/// Which clock value was outside the allowed skew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSource {
    /// The `Date` header.
    Date,
    /// The `created` signature parameter.
    Created,
}

/// A request that failed verification. `Display` is meant for a 401 problem `detail`; it never
/// contains the signature the server expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The signature header could not be parsed.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// Names the policy requires are not in `headers`.
    #[error(
        "the signature does not cover {}, which this server requires; add {} to the headers \
         parameter of the Signature header and sign again",
        quoted_list(.missing),
        if .missing.len() == 1 { "it" } else { "them" }
    )]
    MissingCoverage {
        /// The uncovered names, lowercased.
        missing: Vec<String>,
    },
    /// A covered header is absent or repeated.
    #[error(transparent)]
    SigningString(#[from] SigningStringError),
    /// The covered `Date` header could not be parsed.
    #[error(transparent)]
    Date(#[from] DateError),
    /// The `Date` header or `created` parameter is too far from the server's clock.
    #[error(
        "the {} is {} seconds {} the server time {}; the allowed skew is {max_skew_secs} seconds \
         either way; sign with the current time and check the client's clock",
        describe(*.what, .received),
        .offset_secs.unsigned_abs(),
        if *.offset_secs > 0 { "ahead of" } else { "behind" },
        rfc3339(*.server_time)
    )]
    DateSkew {
        /// Which value was checked.
        what: TimeSource,
        /// The value received, as sent.
        received: String,
        /// The server's clock.
        server_time: OffsetDateTime,
        /// The allowed skew.
        max_skew_secs: u64,
        /// Received minus server time, in whole seconds.
        offset_secs: i64,
    },
    /// The covered `expires` parameter is in the past.
    #[error(
        "the signature expired at {} (expires={expires}) and the server time is {}; \
         sign the request again with a later expires",
        unix_rfc3339(*.expires),
        rfc3339(*.server_time)
    )]
    Expired {
        /// The `expires` parameter.
        expires: i64,
        /// The server's clock.
        server_time: OffsetDateTime,
    },
    /// A covered body digest is malformed, unsupported or does not match.
    #[error(transparent)]
    Digest(#[from] DigestError),
    /// The MAC does not match: wrong secret, unknown key, or a different signing string.
    #[error(
        "the signature does not match; the server built this signing string from your request \
         (lines separated by \\n): {}{}; sign exactly these lines with your key's secret and \
         the algorithm you name",
        .signing_string.replace('\n', "\\n"),
        match .base_path {
            Some(base) => format!("; the (request-target) may also be relative to {base}"),
            None => String::new(),
        }
    )]
    MacMismatch {
        /// The signing string the server built for the full target.
        signing_string: String,
        /// The base path a relative `(request-target)` was also tried against.
        base_path: Option<String>,
    },
}

impl VerifyError {
    /// A short, stable category for logs and metrics.
    pub fn summary(&self) -> &'static str {
        match self {
            VerifyError::Header(_) => "malformed signature header",
            VerifyError::MissingCoverage { .. } => "required headers not signed",
            VerifyError::SigningString(_) => "signed header missing or repeated",
            VerifyError::Date(_) => "unparsable date",
            VerifyError::DateSkew { .. } => "date outside allowed skew",
            VerifyError::Expired { .. } => "signature expired",
            VerifyError::Digest(_) => "body digest mismatch",
            VerifyError::MacMismatch { .. } => "signature mismatch",
        }
    }

    /// The reason as a short machine name (`snake_case`), stable for
    /// metrics and dashboards; [`VerifyError::summary`] is for people.
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::Header(_) => "malformed",
            VerifyError::MissingCoverage { .. } => "not_covered",
            VerifyError::SigningString(_) => "signed_header_missing",
            VerifyError::Date(_) => "bad_date",
            VerifyError::DateSkew { .. } => "date_skew",
            VerifyError::Expired { .. } => "expired",
            VerifyError::Digest(_) => "digest_mismatch",
            VerifyError::MacMismatch { .. } => "mac_mismatch",
        }
    }

    pub(super) fn date_skew(received: &str, date: OffsetDateTime, opts: &VerifyOptions) -> Self {
        VerifyError::DateSkew {
            what: TimeSource::Date,
            received: received.to_owned(),
            server_time: opts.now,
            max_skew_secs: opts.max_skew.as_secs(),
            offset_secs: (date - opts.now).whole_seconds(),
        }
    }

    pub(super) fn created_skew(created: i64, opts: &VerifyOptions) -> Self {
        VerifyError::DateSkew {
            what: TimeSource::Created,
            received: created.to_string(),
            server_time: opts.now,
            max_skew_secs: opts.max_skew.as_secs(),
            offset_secs: created.saturating_sub(opts.now.unix_timestamp()),
        }
    }
}

fn describe(what: TimeSource, received: &str) -> String {
    match what {
        TimeSource::Date => format!("Date header `{received}`"),
        TimeSource::Created => format!("`created` parameter {received}"),
    }
}

fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn rfc3339(t: OffsetDateTime) -> String {
    let t = t.replace_nanosecond(0).unwrap_or(t);
    t.format(&Rfc3339).unwrap_or_else(|_| t.to_string())
}

fn unix_rfc3339(secs: i64) -> String {
    OffsetDateTime::from_unix_timestamp(secs).map_or_else(|_| secs.to_string(), rfc3339)
}
