//! The verification policy: coverage, clock, digest headers and a constant-time MAC check on the
//! request's head, then the body against the covered digests.

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

use crate::{parse_date, DigestCheck, Message, SignatureHeader, SigningStringError};

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
/// policy in order: required coverage, signing string, clock, body digest headers, MAC, then
/// the body against the covered digests.
///
/// `secret` None means "no such key": everything is checked the same way and the result is the
/// same [`VerifyError::MacMismatch`] a wrong secret gives, so callers cannot tell the two apart.
///
/// A server that reads the body only once the signature is known to be good calls
/// [`verify_head`] instead, then feeds the body to the [`VerifiedHead`] as it arrives; this
/// function is exactly that with the whole body at once.
pub fn verify(
    message: &Message,
    body: &[u8],
    sig: &SignatureHeader,
    secret: Option<&[u8]>,
    opts: &VerifyOptions,
) -> Result<Verified, VerifyError> {
    let mut head = verify_head(message, sig, secret, opts)?;
    head.update(body);
    head.finish()
}

/// Verifies everything of `sig` that the request's head decides, before any body byte is read:
/// required coverage, signing string, clock, the syntax and algorithms of covered `Digest` and
/// `Content-Digest` headers, and the MAC (the signing string holds a digest header's value, not
/// the body). What is left, the body against those digests, is checked by the returned
/// [`VerifiedHead`].
///
/// `secret` None means "no such key", as for [`verify`]: the MAC is computed all the same and
/// the result is the [`VerifyError::MacMismatch`] a wrong secret gives.
pub fn verify_head(
    message: &Message,
    sig: &SignatureHeader,
    secret: Option<&[u8]>,
    opts: &VerifyOptions,
) -> Result<VerifiedHead, VerifyError> {
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
    check_clock(message, sig, opts, covers)?;

    // The signing string was built, so each covered digest header exists exactly once.
    let mut digests = Vec::new();
    if covers("digest") {
        digests.push(DigestCheck::digest(message.values("digest")[0])?);
    }
    if covers("content-digest") {
        digests.push(DigestCheck::content_digest(
            message.values("content-digest")[0],
        )?);
    }

    let verified = check_mac(message, sig, secret, opts, full, covers)?;
    Ok(VerifiedHead { verified, digests })
}

/// A request whose head verified: its signature is good, and what is left is to check its body
/// against the digest headers the signature covers. Feed the body with [`VerifiedHead::update`]
/// as it arrives, then call [`VerifiedHead::finish`].
#[derive(Clone, Debug)]
pub struct VerifiedHead {
    verified: Verified,
    digests: Vec<DigestCheck>,
}

impl VerifiedHead {
    /// What matched: the signing string and the form of `(request-target)`.
    pub fn verified(&self) -> &Verified {
        &self.verified
    }

    /// Whether the signature covers a digest of the body (`digest` or `content-digest`), so that
    /// [`VerifiedHead::finish`] checks the body.
    pub fn covers_body(&self) -> bool {
        !self.digests.is_empty()
    }

    /// Hashes the next piece of the body for every covered digest.
    pub fn update(&mut self, piece: &[u8]) {
        for digest in &mut self.digests {
            digest.update(piece);
        }
    }

    /// Checks the body given so far against every covered digest: a
    /// [`VerifyError::Digest`] with [`crate::DigestError::Mismatch`] when one differs.
    pub fn finish(self) -> Result<Verified, VerifyError> {
        for digest in self.digests {
            digest.finish()?;
        }
        Ok(self.verified)
    }
}

/// The `Date`, `(created)` and `(expires)` checks against the server's clock.
fn check_clock(
    message: &Message,
    sig: &SignatureHeader,
    opts: &VerifyOptions,
    covers: impl Fn(&str) -> bool,
) -> Result<(), VerifyError> {
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
    Ok(())
}

/// The constant-time MAC comparison, over the full `(request-target)` and then, when a base path
/// is configured, the relative one.
fn check_mac(
    message: &Message,
    sig: &SignatureHeader,
    secret: Option<&[u8]>,
    opts: &VerifyOptions,
    full: String,
    covers: impl Fn(&str) -> bool,
) -> Result<Verified, VerifyError> {
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
