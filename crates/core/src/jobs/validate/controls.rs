//! Control characters in a job's text. A job's members reach logs, lead
//! e-mails, webhooks and the trades' own systems, where a line break, an
//! escape or a NUL could forge a line, recolour a terminal or cut a string
//! short; so none is accepted, except the line breaks and tabs of a
//! description, which are part of a text.

use intake_api::jobs::rules;
use std::borrow::Cow;

/// What to tell a client whose member holds a control character.
pub(super) const SINGLE_LINE: &str =
    "must not contain control characters (tabs and line breaks included)";
/// The same for the description.
pub(super) const DESCRIPTION: &str =
    "must not contain control characters other than line breaks and tabs";

/// A control character found in a member: which one, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Control {
    /// The character.
    pub character: char,
    /// Its position in the member, in characters from 1.
    pub at: usize,
}

impl Control {
    /// `rule` with the character and its place, without echoing the text.
    pub fn message(self, rule: &str) -> String {
        format!(
            "{rule} (found U+{:04X} at character {})",
            u32::from(self.character),
            self.at
        )
    }
}

/// The first control character (Unicode general category Cc: C0, DEL and
/// C1) in a member other than the description.
pub(super) fn first(text: &str) -> Option<Control> {
    find(text, &[])
}

/// A description as kept: CRLF and a lone CR as LF (web forms send CRLF),
/// or the first control character other than a tab or a line break.
pub(super) fn description(text: &str) -> Result<Cow<'_, str>, Control> {
    if let Some(control) = find(text, &rules::DESCRIPTION_CONTROLS) {
        return Err(control);
    }
    Ok(if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    })
}

fn find(text: &str, allowed: &[char]) -> Option<Control> {
    (1..)
        .zip(text.chars())
        .find(|(_, c)| c.is_control() && !allowed.contains(c))
        .map(|(at, character)| Control { character, at })
}
