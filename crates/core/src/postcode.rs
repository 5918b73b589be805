//! UK postcodes: a [`Postcode`] can only hold a valid, normalised postcode.
//!
//! Validation follows the UK government's published pattern (the "later",
//! case-insensitive form), with one correction: the published regex anchors
//! `^` to the `GIR 0AA` alternative only and `$` to the other only, so
//! `XSW1A 1AA` or `GIR 0AAjunk` would pass. Here the whole alternation is
//! anchored. The pattern is deliberately no stricter than the published one:
//! it allows any letter first (so `QA1 1AA` passes) and forbids only `I` and
//! `Z` in second position.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

#[cfg(test)]
mod tests;

/// The published pattern, anchored as a whole and matched after upper-casing.
/// `\s*` replaces the published `\s?` so `SW1A  1AA` is accepted as well.
static PATTERN: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"^(?:GIR\s*0AA|(?:[A-Z][0-9]{1,2}|[A-Z][A-HJ-Y][0-9]{1,2}|[A-Z][0-9][A-Z]|[A-Z][A-HJ-Y][0-9][A-Z]?)\s*[0-9][A-Z]{2})$",
    )
    .expect("the postcode pattern compiles")
});

/// Longest part of a rejected input echoed back in an error message.
const MAX_ECHOED_CHARS: usize = 32;

/// A valid UK postcode in normal form: upper case, one space before the
/// three-character inward code (`SW1A 1AA`, `GIR 0AA`).
///
/// Northern Ireland (`BT`), the Channel Islands (`GY`, `JE`) and the Isle of
/// Man (`IM`) are valid postcodes, though they have no coordinates in the
/// embedded geography.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Postcode(String);

/// Why some text is not a [`Postcode`]. The message is meant for API users.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PostcodeError {
    /// Nothing but whitespace was given.
    #[error("a postcode is required (e.g. SW1A 1AA)")]
    Empty,
    /// The text does not match the UK postcode pattern.
    #[error("`{input}` is not a UK postcode (expected e.g. SW1A 1AA)")]
    Invalid {
        /// The trimmed input, shortened to a few dozen characters.
        input: String,
    },
}

impl Postcode {
    /// Parses a postcode in any case, with surrounding whitespace and with
    /// zero or more spaces between the outward and inward codes.
    pub fn parse(input: &str) -> Result<Self, PostcodeError> {
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Err(PostcodeError::Empty);
        }
        let upper = trimmed.to_ascii_uppercase();
        if !PATTERN.is_match(&upper) {
            return Err(PostcodeError::Invalid {
                input: echo(trimmed),
            });
        }
        // A match holds only ASCII letters, digits and whitespace, and the
        // inward code is always the last three of the non-space characters.
        let compact: String = upper.chars().filter(|c| !c.is_whitespace()).collect();
        let (outward, inward) = compact.split_at(compact.len() - 3);
        Ok(Postcode(format!("{outward} {inward}")))
    }

    /// The normal form, e.g. `SW1A 1AA`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The outward code (the district), e.g. `SW1A`.
    pub fn outward(&self) -> &str {
        &self.0[..self.0.len() - 4]
    }

    /// The inward code, e.g. `1AA`.
    pub fn inward(&self) -> &str {
        &self.0[self.0.len() - 3..]
    }

    /// The postcode district, the same as the outward code, e.g. `SW1A`.
    pub fn district(&self) -> &str {
        self.outward()
    }

    /// The postcode sector: outward code, a space and the inward digit, e.g. `SW1A 1`.
    pub fn sector(&self) -> &str {
        &self.0[..self.0.len() - 2]
    }

    /// The postcode area: the leading letters of the outward code, e.g. `SW`.
    pub fn area(&self) -> &str {
        let outward = self.outward();
        let end = outward
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(outward.len());
        &outward[..end]
    }

    /// Consumes the postcode and returns its normal form.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// The rejected input as shown in an error: trimmed and shortened so a huge
/// field cannot blow up a problem body.
fn echo(trimmed: &str) -> String {
    let mut chars = trimmed.chars();
    let mut shown: String = chars.by_ref().take(MAX_ECHOED_CHARS).collect();
    if chars.next().is_some() {
        shown.push('…');
    }
    shown
}

impl fmt::Display for Postcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Postcode {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl FromStr for Postcode {
    type Err = PostcodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Postcode::parse(s)
    }
}

impl TryFrom<&str> for Postcode {
    type Error = PostcodeError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        Postcode::parse(value)
    }
}

impl From<Postcode> for String {
    fn from(postcode: Postcode) -> Self {
        postcode.0
    }
}

impl Serialize for Postcode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Postcode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Postcode::parse(&text).map_err(serde::de::Error::custom)
    }
}
