//! The client's text in log fields: every control character escaped, so a
//! value can neither end its log line and start a forged one, nor drive the
//! terminal that shows the log.
//!
//! Recorded with `%`, an [`Escaped`] value reads as plain text in the text
//! log, and stays free of control characters in the JSON log too, which
//! escapes C0 by itself but writes DEL and C1 as they are. (`?` would escape
//! as well, but quote the value, and quote it again inside a JSON string.)

use std::fmt::{self, Write};

/// `text` with each control character (Unicode general category Cc: C0, DEL
/// and C1) written as its Rust escape (`\n`, `\t`, `\u{1b}`), the rest as it is.
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_debug())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        let sent = "Z\nZ FORGED\r\t\u{0}\u{1b}[31m\u{7f}\u{85}\u{9b} «café» \\n";
        assert_eq!(
            Escaped(sent).to_string(),
            r"Z\nZ FORGED\r\t\0\u{1b}[31m\u{7f}\u{85}\u{9b} «café» \n"
        );
    }
}
