//! What the store knows of a consumer's earlier submissions, for the two
//! signals a single submission cannot show on its own: the same consumer and
//! description sent again (often through another affiliate's key), and too
//! many jobs from one e-mail address or phone number in a short time.

use time::OffsetDateTime;

/// The question `Store::contact_history` answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryQuery {
    /// The consumer's e-mail address, normalised as stored (`Email::as_str`).
    pub email: String,
    /// The consumer's phone, normalised as stored (`Phone::as_str`).
    pub phone: String,
    /// The description's fingerprint (`spam::fingerprint`).
    pub fingerprint: String,
    /// The key submitting now.
    pub key_id: String,
    /// Only submissions received at or after this count.
    pub since: OffsetDateTime,
}

/// Counts of earlier submissions since `HistoryQuery::since`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContactHistory {
    /// Jobs with the same e-mail address.
    pub by_email: u32,
    /// Jobs with the same phone number.
    pub by_phone: u32,
    /// Jobs with the same e-mail or phone and the same description fingerprint,
    /// submitted through a different key.
    pub same_text_other_keys: u32,
}
