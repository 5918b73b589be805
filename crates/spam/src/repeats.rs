//! Runs of one character held down: `aaaaaaa`, `!!!!!!!`, `$$$$$$`.
//!
//! Keyboard mashing and shouting are common in junk submissions, but an
//! exasperated homeowner may type `Please help!!!!!!` about a flooded kitchen,
//! so a run is a weak hint that only rejects together with another signal.

use super::{Reason, Signal, SpamInput, SpamScreen};

// A run alone never rejects at the default threshold.
const _: () = assert!(RepeatedCharacters::WEIGHT < SpamScreen::DEFAULT_THRESHOLD);

/// Flags the longest run of [`RepeatedCharacters::MIN_RUN`] or more identical
/// letters or symbols (letters compared ignoring case).
///
/// Digits never count: a price (`£1000000`), a phone number (`07000 000000`)
/// or a reference (`000000`) repeats digits for a reason, and a description
/// made only of numbers is already caught as thin. Spaces never count either:
/// they are layout, not content.
#[derive(Debug, Clone, Copy, Default)]
pub struct RepeatedCharacters;

impl RepeatedCharacters {
    /// Below the default threshold on purpose: a run alone does not reject.
    pub const WEIGHT: f64 = 0.6;
    /// The shortest run flagged. Five `!` or an `Aaaargh` stay ordinary.
    pub const MIN_RUN: usize = 6;
}

impl Signal for RepeatedCharacters {
    fn name(&self) -> &'static str {
        "repeated_characters"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        if let Some((character, length)) = longest_run(input.description) {
            if length >= Self::MIN_RUN {
                reasons.push(Reason {
                    signal: self.name(),
                    weight: Self::WEIGHT,
                    detail: format!("{length} × {character:?} in a row"),
                });
            }
        }
    }
}

/// The longest run of one letter or symbol in `text`, and its length.
fn longest_run(text: &str) -> Option<(char, usize)> {
    let mut longest: Option<(char, usize)> = None;
    let mut current: Option<(char, usize)> = None;
    for c in text.chars().map(fold_case) {
        current = match current {
            Some((previous, length)) if previous == c => Some((c, length + 1)),
            _ if c.is_numeric() || c.is_whitespace() => None,
            _ => Some((c, 1)),
        };
        if let Some((_, length)) = current {
            if longest.is_none_or(|(_, best)| length > best) {
                longest = current;
            }
        }
    }
    longest
}

/// `A` and `a` are the same key held down; other scripts are compared as is,
/// which keeps this allocation-free.
fn fold_case(c: char) -> char {
    c.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(description: &str) -> Vec<Reason> {
        crate::reasons_of(&RepeatedCharacters, description)
    }

    #[test]
    fn runs_of_six_letters_or_symbols_are_flagged_at_the_weak_weight() {
        for (text, detail) in [
            ("aaaaaaaaaaaaaaaaa", "17 × 'a' in a row"),
            ("Need help now!!!!!!!", "7 × '!' in a row"),
            ("$$$$$$ fast cash", "6 × '$' in a row"),
            ("AAAaaa", "6 × 'a' in a row"),
            ("??????????? !!!!!!!!!!!!", "12 × '!' in a row"),
        ] {
            let found = reasons(text);
            assert_eq!(found.len(), 1, "{text:?}");
            assert_eq!(found[0].signal, "repeated_characters");
            assert_eq!(found[0].weight, RepeatedCharacters::WEIGHT);
            assert_eq!(found[0].detail, detail, "{text:?}");
        }
    }

    #[test]
    fn runs_of_five_or_fewer_are_not_flagged() {
        assert_eq!(reasons("Need quote ASAP!!!!!"), []);
        assert_eq!(reasons("Aaaargh, the boiler again"), []);
    }

    #[test]
    fn digit_runs_in_prices_and_phone_numbers_are_not_flagged() {
        assert_eq!(reasons("Budget £1000000, call 07000000000, ref 000000"), []);
    }

    #[test]
    fn spaces_do_not_make_a_run() {
        assert_eq!(reasons("Boiler          broken,   no heat"), []);
    }

    #[test]
    fn digits_and_spaces_break_a_run() {
        assert_eq!(reasons("!!!1!!! aaa aaa"), []);
    }
}
