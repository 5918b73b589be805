//! The verification policy: coverage, clock, body digests, then a constant-time MAC check.

#[cfg(test)]
mod clock_tests;
mod error;
#[cfg(test)]
mod negative;
#[cfg(test)]
mod tests;

use std::time::Duration;

use subtle::{Choice, ConstantTimeEq};
use time::OffsetDateTime;

pub use error::{TimeSource, VerifyError};

use crate::{
    check_content_digest, check_digest, parse_date, Message, SignatureHeader, SigningStringError,
};

/// The default allowed clock difference either way, as Joyent's library and Stripe use.
pub const DEFAULT_MAX_SKEW: Duration = Duration::from_secs(300);

/// An unknown key is checked against this secret so that it costs what a wrong secret costs.
/// Its result is discarded, so signing with it gains nothing.
const DUMMY_SECRET: [u8; 32] = [0x5a; 32];

/// What the verifier requires of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// The server's current time.
    pub now: OffsetDateTime,
    /// How far the `Date` (or `created`) may be from `now`, either way; also how long after
    /// `expires` a signature is still accepted.
    pub max_skew: Duration,
    /// Names that must be covered, lowercased. `date` is always required unless `(created)` is
    /// covered.
    pub required: Vec<String>,
    /// A prefix such as `/v1/affiliate-job` that integrators may leave out of
    /// `(request-target)`.
    pub base_path: Option<String>,
}

impl VerifyOptions {
    /// Options with [`DEFAULT_MAX_SKEW`], nothing extra required and no base path.
    pub fn new(now: OffsetDateTime) -> Self {
        VerifyOptions {
            now,
            max_skew: DEFAULT_MAX_SKEW,
            required: Vec::new(),
            base_path: None,
        }
    }
}

/// A request whose signature checked out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The signing string that matched.
    pub signing_string: String,
    /// Which form of `(request-target)` the client signed.
    pub target_form: TargetForm,
}

/// The form of `(request-target)` that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetForm {
    /// The full path as on the request line (`post /v1/affiliate-job/jobs`).
    Full,
    /// The path with the base path removed (`post /jobs`).
    RelativeToBase,
    /// `(request-target)` was not signed.
    NotCovered,
}

/// Verifies `sig` against `message` and its raw `body` under `secret`, applying the whole
/// policy in order: required coverage, signing string, clock, body digests, MAC.
///
/// `secret` None means "no such key": everything is checked the same way and the result is the
/// same [`VerifyError::MacMismatch`] a wrong secret gives, so callers cannot tell the two apart.
pub fn verify(
    message: &Message,
    body: &[u8],
    sig: &SignatureHeader,
    secret: Option<&[u8]>,
    opts: &VerifyOptions,
) -> Result<Verified, VerifyError> {
    let covers = |name: &str| sig.headers.iter().any(|h| h.eq_ignore_ascii_case(name));

    let mut missing: Vec<String> = opts
        .required
        .iter()
        .map(|n| n.to_ascii_lowercase())
        .filter(|n| !covers(n))
        .collect();
    if !covers("date") && !covers("(created)") && !missing.iter().any(|n| n == "date") {
        missing.push("date".to_owned());
    }
    if !missing.is_empty() {
        return Err(VerifyError::MissingCoverage { missing });
    }

    let full = signing_string(message, sig, &message.target)?;

    if covers("date") {
        // The signing string was built, so exactly one Date field exists.
        let received = message.values("date")[0];
        let date = parse_date(received)?;
        if (opts.now - date).unsigned_abs() > opts.max_skew {
            return Err(VerifyError::date_skew(received, date, opts));
        }
    }
    if let Some(created) = sig.created.filter(|_| covers("(created)")) {
        let diff = opts
            .now
            .unix_timestamp()
            .saturating_sub(created)
            .unsigned_abs();
        if diff > opts.max_skew.as_secs() {
            return Err(VerifyError::created_skew(created, opts));
        }
    }
    if let Some(expires) = sig.expires.filter(|_| covers("(expires)")) {
        let late = opts.now.unix_timestamp().saturating_sub(expires);
        if late > 0 && late.unsigned_abs() > opts.max_skew.as_secs() {
            return Err(VerifyError::Expired {
                expires,
                server_time: opts.now,
            });
        }
    }

    if covers("digest") {
        check_digest(message.values("digest")[0], body)?;
    }
    if covers("content-digest") {
        check_content_digest(message.values("content-digest")[0], body)?;
    }

    let key = secret.unwrap_or(&DUMMY_SECRET);
    let known = Choice::from(u8::from(secret.is_some()));
    let matches = |signing_string: &str| {
        let mac = sig.algorithm.mac(key, signing_string.as_bytes());
        bool::from(mac.ct_eq(&sig.signature) & known)
    };

    let target_covered = covers("(request-target)");
    if matches(&full) {
        let target_form = if target_covered {
            TargetForm::Full
        } else {
            TargetForm::NotCovered
        };
        return Ok(Verified {
            signing_string: full,
            target_form,
        });
    }
    let relative = opts
        .base_path
        .as_deref()
        .filter(|_| target_covered)
        .and_then(|base| relative_target(&message.target, base));
    if let Some((_, target)) = relative {
        let relative = signing_string(message, sig, target)?;
        if matches(&relative) {
            return Ok(Verified {
                signing_string: relative,
                target_form: TargetForm::RelativeToBase,
            });
        }
    }
    Err(VerifyError::MacMismatch {
        signing_string: full,
        base_path: relative.map(|(base, _)| base.to_owned()),
    })
}

/// The signing string of `sig` over `message` with `target` as `(request-target)`. A missing
/// Date is blamed on the default when the header has no `headers` parameter: it names no
/// `date` the client could remove.
fn signing_string(
    message: &Message,
    sig: &SignatureHeader,
    target: &str,
) -> Result<String, SigningStringError> {
    message
        .signing_string(&sig.headers, target, sig.created, sig.expires)
        .map_err(|error| match error {
            SigningStringError::MissingHeader { name } if sig.default_headers && name == "date" => {
                SigningStringError::DefaultDateMissing
            }
            other => other,
        })
}

/// Splits `target` into the base path and the rest when it starts with the base path and a `/`.
fn relative_target<'a>(target: &'a str, base_path: &str) -> Option<(&'a str, &'a str)> {
    let base = base_path.trim_end_matches('/');
    if base.is_empty() {
        return None;
    }
    let rest = target.strip_prefix(base)?;
    rest.starts_with('/').then(|| target.split_at(base.len()))
}
