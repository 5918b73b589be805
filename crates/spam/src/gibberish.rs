//! Keyboard mashing: words no language has, such as `sdfkjh` or `qwrtpl`.

use super::words::{with_lowercase, words};
use super::{Reason, Signal, SpamInput, SpamScreen};

// Mashing alone rejects only when most of the text is mashed; a stray
// abbreviation in a real job weighs less than the threshold.
const _: () = assert!(Gibberish::SOME < SpamScreen::DEFAULT_THRESHOLD);

/// The rows of a QWERTY keyboard, for spotting runs along a row.
const ROWS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

/// Three-key runs along a row that no English word contains ("wer", "rty"
/// and "poi" are left out: "power", "party", "point").
const RUNS: &[&str] = &[
    "qwe", "asd", "sdf", "dfg", "fgh", "ghj", "hjk", "jkl", "zxc", "xcv", "cvb", "vbn", "bnm",
    "lkj", "kjh", "jhg", "hgf", "gfd", "fds", "dsa", "mnb", "nbv", "bvc", "vcx", "yui", "iop",
];

/// Shortest word judged: shorter ones ("rcd", "pls", "thx") are abbreviations.
const MIN_LETTERS: usize = 4;

/// Flags descriptions whose words look mashed. A word is mashed when it has
/// [`MIN_LETTERS`] or more letters and either no vowel (`y` counts), a run of
/// six consonants ("Cwmbran" and "strengths" have five), or, from five letters, four in five of its letter pairs
/// neighbours on one keyboard row (`kjhasd`, `poiuyt`), or one of the
/// [`RUNS`] (`asdf`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Gibberish;

impl Gibberish {
    /// Half or more of the words (and at least two, or a single word
    /// description) are mashed: the text is noise.
    pub const MOSTLY: f64 = 1.0;
    /// Some mashed word, but a quarter of the words or fewer: a hint only.
    pub const SOME: f64 = 0.4;
}

impl Signal for Gibberish {
    fn name(&self) -> &'static str {
        "gibberish"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let (total, mashed, first) =
            words(input.description).fold((0, 0, None), |(total, mashed, first), word| {
                match is_mashed(word) {
                    true => (total + 1, mashed + 1, first.or(Some(word))),
                    false => (total + 1, mashed, first),
                }
            });
        let Some(first) = first else {
            return;
        };
        let weight = if 2 * mashed >= total {
            Self::MOSTLY
        } else if 4 * mashed >= total {
            Self::SOME
        } else {
            return;
        };
        reasons.push(Reason {
            signal: self.name(),
            weight,
            detail: format!("{mashed} of {total} words mashed, e.g. {first:?}"),
        });
    }
}

/// Whether `word` looks like keyboard mashing. Judged on the ASCII bytes,
/// lowercased on the stack ([`with_lowercase`]): allocating a copy of each
/// word twice was a tenth of the screen's time.
fn is_mashed(word: &str) -> bool {
    if word.len() < MIN_LETTERS || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    with_lowercase(word, |lower| mashed_letters(lower.as_bytes()))
}

/// [`is_mashed`] of a word's lowercase ASCII letters.
fn mashed_letters(letters: &[u8]) -> bool {
    let vowel = |c: &u8| b"aeiouy".contains(c);
    let longest_consonant_run = letters.split(vowel).map(<[u8]>::len).max().unwrap_or(0);
    let along_a_row = letters
        .windows(2)
        .filter(|pair| neighbours(pair[0], pair[1]))
        .count();
    !letters.iter().any(vowel)
        || letters
            .windows(3)
            .any(|three| RUNS.iter().any(|run| run.as_bytes() == three))
        || longest_consonant_run >= 6
        || (letters.len() >= 5 && 5 * along_a_row >= 4 * (letters.len() - 1))
}

/// Whether lowercase ASCII letters `a` and `b` sit side by side on one
/// keyboard row.
fn neighbours(a: u8, b: u8) -> bool {
    let (Some((row_a, a)), Some((row_b, b))) = (key(a), key(b)) else {
        return false;
    };
    row_a == row_b && a.abs_diff(b) == 1
}

/// The row and column of a lowercase letter on the keyboard.
fn key(letter: u8) -> Option<(usize, usize)> {
    ROWS.iter().enumerate().find_map(|(row, keys)| {
        keys.bytes()
            .position(|key| key == letter)
            .map(|column| (row, column))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(description: &str) -> Option<f64> {
        let input = SpamInput {
            description,
            first_name: "Tom",
            last_name: "Reid",
            email: "tom.reid@example.co.uk",
            phone: "07700 900222",
            postcode: "EH6 5JL",
            history: Default::default(),
        };
        let mut reasons = Vec::new();
        Gibberish.assess(&input, &mut reasons);
        reasons.pop().map(|reason| reason.weight)
    }

    #[test]
    fn mashed_words_are_spotted() {
        for word in [
            "asdf", "sdfkjh", "qwrtpl", "kjhasd", "poiuyt", "zxcvbnm", "fghjkl",
        ] {
            assert!(is_mashed(word), "{word}");
        }
    }

    #[test]
    fn real_words_and_abbreviations_are_not_mashed() {
        for word in [
            "power",
            "rhythm",
            "strength",
            "Worcester",
            "rcd",
            "thx",
            "upvc",
            "EICR",
            "Llwyn",
            "Cwmbran",
            "tyre",
            "poured",
            "3.5m",
            "point",
            "party",
            "alert",
        ] {
            assert!(!is_mashed(word), "{word}");
        }
    }

    #[test]
    fn mostly_mashed_text_rejects_alone() {
        assert_eq!(weight("sdfkjh kjhasd qwrtpl"), Some(Gibberish::MOSTLY));
        assert_eq!(weight("fghjkl"), Some(Gibberish::MOSTLY));
    }

    #[test]
    fn a_little_mashing_is_a_hint_and_real_jobs_pass() {
        assert_eq!(weight("boiler broken sdfkjh"), Some(Gibberish::SOME));
        assert_eq!(weight("Combi boiler showing F28 fault code"), None);
        assert_eq!(weight("Upgrade consumer unit, old rewirable fuses"), None);
    }
}
