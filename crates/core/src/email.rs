//! E-mail addresses, checked by the `email_address` crate (RFC 5321/5322 syntax)
//! plus what a marketplace needs: a dot in the domain and no display name.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A syntactically valid e-mail address, as given (trimmed).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Email(String);

/// The text is not an e-mail address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a valid e-mail address")]
pub struct InvalidEmail(pub String);

impl Email {
    /// Parses an address such as `jo@example.co.uk`.
    pub fn parse(text: &str) -> Result<Self, InvalidEmail> {
        let text = text.trim();
        if is_valid(text) {
            Ok(Email(text.to_owned()))
        } else {
            Err(InvalidEmail(text.chars().take(64).collect()))
        }
    }

    /// The address.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part after `@`, lowercased.
    pub fn domain(&self) -> String {
        self.0
            .rsplit_once('@')
            .map(|(_, domain)| domain.to_ascii_lowercase())
            .unwrap_or_default()
    }
}

/// Whether `text` is a plain address (`local@domain.tld`) the crate accepts.
pub fn is_valid(text: &str) -> bool {
    // The crate also accepts `Name <address>`; an API field holds the bare address.
    if text.contains(|c: char| c.is_whitespace() || c == '<' || c == '>') {
        return false;
    }
    let Ok(address) = email_address::EmailAddress::from_str(text) else {
        return false;
    };
    address.as_str() == text
        && address.domain().contains('.')
        && !address.domain().ends_with('.')
        && text.len() <= 254
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Email {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Email::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_are_accepted_and_others_refused() {
        for good in [
            "jo@example.co.uk",
            "first.last+tag@sub.example.com",
            " jo@example.com ",
        ] {
            assert!(Email::parse(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "jo",
            "jo@",
            "@example.com",
            "jo@localhost",
            "Jo <jo@example.com>",
            "jo@@example.com",
            "jo@example.",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Email::parse("Jo@Example.COM").unwrap().domain(),
            "example.com"
        );
    }
}
