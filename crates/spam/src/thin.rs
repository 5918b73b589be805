//! Descriptions that say nothing a trade could act on: placeholders, one word
//! repeated, no real content, mostly symbols, or just too short.

use super::words::{distinct_content_words, words};
use super::{Reason, Signal, SpamInput, SpamScreen};

#[cfg(test)]
mod tests;

/// Text people type to get past a required field. Matched against the whole
/// description (ignoring case, punctuation and numbers, so `Test 123!` and
/// `asdf asdf` match too), never against a part of it.
const PLACEHOLDERS: &[&str] = &[
    "test",
    "testing",
    "test job",
    "asdf",
    "asdfgh",
    "asdfghjkl",
    "qwerty",
    "qwertyuiop",
    "lorem ipsum",
    "n/a",
    "na",
    "none",
    "nothing",
    "nil",
    "hello world",
    "foo",
    "foo bar",
    "blah",
    "dummy",
    "xxx",
];

/// Placeholder openings that are followed by more filler: the rest of
/// "lorem ipsum dolor sit amet…" is as empty as its start.
const PLACEHOLDER_OPENINGS: &[&str] = &["lorem ipsum"];

/// Longest phrase, in words, looked for when checking whether a description
/// is one phrase over and over. Bounds the check to a few passes per job.
const LONGEST_REPEATED_PHRASE: usize = 8;

/// A description with fewer distinct content words than this says nothing.
const MIN_CONTENT_WORDS: usize = 2;

/// A description with fewer words than this is terse, if not empty.
const MIN_WORDS: usize = 3;

// Empty text rejects alone at the default threshold; the softer faults do not.
const _: () = assert!(ThinDescription::EMPTY >= SpamScreen::DEFAULT_THRESHOLD);
const _: () = assert!(ThinDescription::MOSTLY_SYMBOLS < SpamScreen::DEFAULT_THRESHOLD);
const _: () = assert!(ThinDescription::SHORT < SpamScreen::DEFAULT_THRESHOLD);

/// Flags descriptions that carry no information about a job.
///
/// One reason at most, the strongest that applies, because the checks overlap
/// (a placeholder is also short) and counting each would weigh one fault
/// several times. Clearly empty text weighs [`ThinDescription::EMPTY`], enough
/// alone; text that names a job but is mostly symbols or very short weighs
/// less, so a terse real job ("Boiler broken") passes unless something else is
/// wrong with it too.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThinDescription;

impl ThinDescription {
    /// Placeholders, repetitions, and descriptions without two content words.
    pub const EMPTY: f64 = 1.0;
    /// Letters are fewer than the other symbols (digits aside).
    pub const MOSTLY_SYMBOLS: f64 = 0.8;
    /// Fewer than three words, though with some content.
    pub const SHORT: f64 = 0.5;

    /// The strongest fault with `description`, if any: its weight and detail.
    fn fault(description: &str) -> Option<(f64, String)> {
        if let Some(placeholder) = placeholder(description) {
            return Some((Self::EMPTY, format!("placeholder text {placeholder:?}")));
        }
        if let Some(phrase) = repeated_phrase(description) {
            let detail = format!("one {phrase}-word phrase repeated");
            return Some((Self::EMPTY, detail));
        }
        let content = distinct_content_words(description, MIN_CONTENT_WORDS);
        if content < MIN_CONTENT_WORDS {
            return Some((Self::EMPTY, format!("{content} distinct content words")));
        }
        let (letters, symbols) = letters_and_symbols(description);
        if letters < symbols {
            let detail = format!("{letters} letters among {symbols} other symbols");
            return Some((Self::MOSTLY_SYMBOLS, detail));
        }
        let count = words(description).take(MIN_WORDS).count();
        if count < MIN_WORDS {
            return Some((Self::SHORT, format!("only {count} words")));
        }
        None
    }
}

impl Signal for ThinDescription {
    fn name(&self) -> &'static str {
        "thin"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        if let Some((weight, detail)) = Self::fault(input.description) {
            reasons.push(Reason {
                signal: self.name(),
                weight,
                detail,
            });
        }
    }
}

/// The placeholder `description` consists of, if any: the placeholder once or
/// repeated whole, or one of the [`PLACEHOLDER_OPENINGS`] followed by anything.
///
/// Words are compared before they are counted: real descriptions differ from
/// every placeholder at the first word, so a long one is not walked again.
fn placeholder(description: &str) -> Option<&'static str> {
    let text = words(description);
    let whole = PLACEHOLDERS.iter().find(|placeholder| {
        let phrase = placeholder.split(' ');
        text.clone().zip(phrase.clone().cycle()).all(same_word)
            && text.clone().count().checked_rem(phrase.count()) == Some(0)
            && text.clone().next().is_some()
    });
    let opening = || {
        PLACEHOLDER_OPENINGS.iter().find(|opening| {
            let phrase = opening.split(' ');
            text.clone().zip(phrase.clone()).all(same_word)
                && text.clone().count() >= phrase.count()
        })
    };
    whole.or_else(opening).copied()
}

/// The length in words of the phrase `description` repeats from start to end
/// ("fix fix fix", "buy now buy now buy"), if it is nothing but that. As
/// above, the cheap comparison runs first and fails at once on real text.
fn repeated_phrase(description: &str) -> Option<usize> {
    let text = words(description);
    (1..=LONGEST_REPEATED_PHRASE).find(|&phrase| {
        text.clone().zip(text.clone().skip(phrase)).all(same_word)
            && text.clone().count() >= 2 * phrase
    })
}

/// Letters, and characters that are neither letters, digits nor spaces.
/// Digits count as neither: prices, sizes and phone numbers are information,
/// and "3.5m x 2m, £1500" should not read as line noise.
fn letters_and_symbols(description: &str) -> (usize, usize) {
    description
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_numeric())
        .fold((0, 0), |(letters, symbols), c| {
            if c.is_alphabetic() {
                (letters + 1, symbols)
            } else {
                (letters, symbols + 1)
            }
        })
}

fn same_word((a, b): (&str, &str)) -> bool {
    a.eq_ignore_ascii_case(b)
}
