//! A person's data, for the rights to see and to erase it (UK GDPR):
//! finding the jobs that hold their e-mail address or phone number, and
//! making what is deleted unrecoverable from the store's own files. The
//! jobs themselves are removed with [`Purge::delete_jobs`](super::Purge::delete_jobs);
//! quarantined submissions are found by reading them (their contact details
//! are inside the submission) and removed here.

use super::StoreError;
use crate::jobs::Phone;
use async_trait::async_trait;

/// Whom an export or an erasure is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Person {
    /// An e-mail address, matched without regard to ASCII case.
    Email(String),
    /// A phone number, matched in any written form of the same number:
    /// separators aside, a UK number as `07900…`, `+447900…`, `447900…`
    /// or `00447900…`.
    Phone(String),
}

impl Person {
    /// The forms of this person's phone number as the store keeps them
    /// (separators taken out), or none for an e-mail address or a text that
    /// is no phone number.
    pub fn phone_forms(&self) -> Vec<String> {
        let Person::Phone(text) = self else {
            return Vec::new();
        };
        // Compacted as a submitted phone is before it is stored.
        let Some(phone) = Phone::parse(text) else {
            return Vec::new();
        };
        let compact = phone.as_str();
        let national = if let Some(rest) = compact.strip_prefix("+44") {
            rest.to_owned()
        } else if let Some(rest) = compact.strip_prefix("0044") {
            rest.to_owned()
        } else if let Some(rest) = compact.strip_prefix("44").filter(|rest| rest.len() >= 9) {
            rest.to_owned()
        } else if let Some(rest) = compact.strip_prefix('0') {
            rest.to_owned()
        } else {
            return vec![compact.to_owned()];
        };
        let national = national.strip_prefix('0').unwrap_or(&national).to_owned();
        vec![
            format!("0{national}"),
            format!("+44{national}"),
            format!("44{national}"),
            format!("0044{national}"),
        ]
    }

    /// Whether a submission's `email` or `phone` is this person's.
    pub fn matches(&self, email: Option<&str>, phone: Option<&str>) -> bool {
        match self {
            Person::Email(wanted) => email.is_some_and(|email| email.eq_ignore_ascii_case(wanted)),
            Person::Phone(_) => phone.is_some_and(|phone| {
                let theirs = Person::Phone(phone.to_owned()).phone_forms();
                self.phone_forms().iter().any(|form| theirs.contains(form))
            }),
        }
    }
}

/// A person's data in the store.
#[async_trait]
pub trait PersonalData: Send + Sync + 'static {
    /// The ids of the jobs that hold this person's e-mail address or phone
    /// number, oldest first.
    async fn jobs_of(&self, person: &Person) -> Result<Vec<String>, StoreError>;

    /// Removes these quarantined submissions; returns how many.
    async fn delete_quarantined(&self, ids: &[String]) -> Result<u64, StoreError>;

    /// Makes what was deleted unrecoverable from the store's own files where
    /// the store keeps old copies of rows (SQLite: its write-ahead log is
    /// folded back and truncated; freed content is overwritten as it is
    /// deleted). `Unavailable` if other connections kept it from finishing.
    async fn scrub(&self) -> Result<(), StoreError>;
}

#[cfg(test)]
mod tests {
    use super::Person;

    #[test]
    fn a_uk_number_matches_in_each_written_form() {
        let forms = [
            "07700 900123",
            "+44 7700 900123",
            "+44 (0)7700 900123",
            "447700900123",
            "0044 7700-900-123",
        ];
        for asked in forms {
            let person = Person::Phone(asked.to_owned());
            for stored in forms {
                assert!(person.matches(None, Some(stored)), "{asked} ~ {stored}");
            }
            assert!(!person.matches(None, Some("07700 900124")), "{asked}");
            assert!(person.phone_forms().contains(&"+447700900123".to_owned()));
        }
        let foreign = Person::Phone("+33 1 23 45 67 89".to_owned());
        assert_eq!(foreign.phone_forms(), ["+33123456789"]);
        assert!(!foreign.matches(None, Some("0123456789")));
        let email = Person::Email("Sam@Example.com".to_owned());
        assert!(email.matches(Some("sam@example.COM"), None));
        assert!(email.phone_forms().is_empty());
        assert!(Person::Phone("call me".to_owned()).phone_forms().is_empty());
    }
}
