//! Why a signing string could not be built.

use std::fmt;

/// A covered name the request cannot supply. Messages use the header's usual capitalisation
/// (`Content-Length`) so they read like the request the integrator wrote.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SigningStringError {
    /// No names to sign.
    #[error("no headers are listed to sign; list at least date, e.g. headers=\"(request-target) host date\"")]
    NothingCovered,
    /// A name listed twice.
    #[error("the headers parameter lists `{name}` more than once; list each header once")]
    DuplicateCovered {
        /// The repeated name, lowercased.
        name: String,
    },
    /// A listed header the request does not carry.
    #[error(
        "the Signature header lists `{name}` but the request has no {} header; \
         send that header or remove it from the headers parameter",
        Canonical(.name)
    )]
    MissingHeader {
        /// The missing header, lowercased.
        name: String,
    },
    /// No `headers` parameter, so `date` is signed by default, and the request has no Date
    /// header. Told apart from [`MissingHeader`](Self::MissingHeader) because the client's
    /// header lists nothing.
    #[error(
        "the Signature header has no `headers` parameter, so it signs `date` by default, but \
         the request has no Date header; send a Date header or list the headers you sign in a \
         headers parameter"
    )]
    DefaultDateMissing,
    /// A single-valued header sent more than once.
    #[error(
        "the request has {count} {} headers but `{name}` is signed and must appear exactly once; \
         send a single {} header",
        Canonical(.name),
        Canonical(.name)
    )]
    RepeatedHeader {
        /// The repeated header, lowercased.
        name: String,
        /// How many fields were sent.
        count: usize,
    },
    /// `(created)` or `(expires)` listed without its parameter.
    #[error(
        "the Signature header lists `{name}` but has no `{parameter}` parameter; \
         add {parameter}=<Unix time in seconds> or remove `{name}` from the headers parameter"
    )]
    MissingParameter {
        /// `(created)` or `(expires)`.
        name: String,
        /// `created` or `expires`.
        parameter: &'static str,
    },
    /// A parenthesised name other than the three pseudo-headers.
    #[error(
        "the headers parameter lists `{name}`, which is not a pseudo-header this server knows; \
         use (request-target), (created) or (expires)"
    )]
    UnknownPseudoHeader {
        /// The name as listed, lowercased.
        name: String,
    },
}

/// Displays `content-length` as `Content-Length`.
struct Canonical<'a>(&'a str);

impl fmt::Display for Canonical<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.split('-').enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            let mut chars = part.chars();
            if let Some(first) = chars.next() {
                write!(f, "{}{}", first.to_ascii_uppercase(), chars.as_str())?;
            }
        }
        Ok(())
    }
}
