//! Text not in English. The service matches UK homeowners with UK trades;
//! pitches arrive in every language, jobs in English.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::words::{with_lowercase, words};
use super::{Reason, Signal, SpamInput, SpamScreen};

// Foreign words alone never reject: a name or a quoted product may be foreign.
const _: () = assert!(NotEnglish::FOREIGN_WORDS < SpamScreen::DEFAULT_THRESHOLD);
const _: () = assert!(NotEnglish::NO_ENGLISH < SpamScreen::DEFAULT_THRESHOLD);

/// Common English function words. Even terse jobs use a few ("leak in the
/// kitchen"); a long text with none of them is rarely English.
const ENGLISH: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "an", "any", "below", "got", "get",
    "keeps", "only", "over", "since", "still", "then", "too", "under", "and", "are", "as", "at",
    "be", "been", "before", "but", "by", "can", "did", "do", "does", "for", "from", "had", "has",
    "have", "he", "her", "i", "if", "in", "into", "is", "it", "it's", "its", "just", "me", "my",
    "need", "needs", "no", "not", "now", "of", "off", "on", "one", "or", "our", "out", "please",
    "she", "so", "some", "that", "the", "their", "them", "there", "they", "this", "to", "up", "us",
    "very", "was", "we", "were", "what", "when", "will", "with", "would", "you", "your",
];

/// Function words of the languages spam most often arrives in (French,
/// Spanish, German, Italian, Portuguese, Dutch, Polish, Turkish), none of
/// which is also an English word.
const FOREIGN: &[&str] = &[
    "le", "les", "des", "du", "nous", "vous", "pour", "avec", "est", "une", "votre", "el", "los",
    "las", "para", "con", "su", "por", "und", "der", "die", "das", "wir", "ihr", "für", "nicht",
    "ist", "ein", "eine", "della", "di", "per", "il", "sono", "sem", "ao", "os", "de", "het",
    "een", "van", "voor", "wij", "zonder", "dla", "bez", "jest", "się", "oraz", "ve", "için",
    "bir",
];

/// [`ENGLISH`] and [`FOREIGN`] as sets: each word of a description is looked
/// up in both, which as a scan of the lists was a fifth of the screen's time.
static ENGLISH_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| ENGLISH.iter().copied().collect());
static FOREIGN_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| FOREIGN.iter().copied().collect());

/// Foreign function words that, with no English one, make a foreign text.
const MANY_FOREIGN: usize = 4;

/// The fewest words for the stop-word measure: shorter jobs may be all nouns.
const MIN_WORDS: usize = 12;

/// Flags descriptions mostly in a non-Latin script, or in a Latin-script
/// language other than English (more foreign function words than English
/// ones, or none of either in [`MIN_WORDS`] or more words).
#[derive(Debug, Clone, Copy, Default)]
pub struct NotEnglish;

impl NotEnglish {
    /// Most letters outside the Latin script (Cyrillic, CJK, Arabic...).
    pub const OTHER_SCRIPT: f64 = 1.0;
    /// Two or more foreign function words, outnumbering English ones.
    pub const FOREIGN_WORDS: f64 = 0.8;
    /// [`MANY_FOREIGN`] or more foreign function words and no English one:
    /// a whole sentence in another language, which rejects alone.
    pub const FOREIGN_TEXT: f64 = 1.0;
    /// A long text without a single English function word.
    pub const NO_ENGLISH: f64 = 0.3;

    fn fault(description: &str) -> Option<(f64, String)> {
        let (latin, other) =
            description
                .chars()
                .filter(|c| c.is_alphabetic())
                .fold((0, 0), |(latin, other), c| match is_latin(c) {
                    true => (latin + 1, other),
                    false => (latin, other + 1),
                });
        if other > latin {
            let detail = format!("{other} of {} letters not Latin", latin + other);
            return Some((Self::OTHER_SCRIPT, detail));
        }
        let (mut total, mut english, mut foreign) = (0, 0, 0);
        for word in words(description) {
            total += 1;
            with_lowercase(word, |word| {
                english += usize::from(ENGLISH_SET.contains(word));
                foreign += usize::from(FOREIGN_SET.contains(word));
            });
        }
        if foreign >= MANY_FOREIGN && english == 0 {
            let detail = format!("{foreign} foreign and no English function words");
            return Some((Self::FOREIGN_TEXT, detail));
        }
        if foreign >= 2 && foreign > english {
            let detail = format!("{foreign} foreign and {english} English function words");
            return Some((Self::FOREIGN_WORDS, detail));
        }
        if total >= MIN_WORDS && english == 0 {
            let detail = format!("no English function word in {total} words");
            return Some((Self::NO_ENGLISH, detail));
        }
        None
    }
}

impl Signal for NotEnglish {
    fn name(&self) -> &'static str {
        "not_english"
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

/// Whether `c` is a letter of the Latin script, accented ones included.
fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(description: &str) -> Option<f64> {
        NotEnglish::fault(description).map(|(weight, _)| weight)
    }

    #[test]
    fn other_scripts_reject() {
        assert_eq!(
            weight("Здравствуйте, предлагаем услуги продвижения сайтов"),
            Some(NotEnglish::OTHER_SCRIPT)
        );
        assert_eq!(
            weight("我们提供专业的网站优化服务"),
            Some(NotEnglish::OTHER_SCRIPT)
        );
    }

    #[test]
    fn latin_script_languages_are_a_strong_hint() {
        for text in [
            "Bonjour, nous proposons des services de référencement pour votre site",
            "Hallo, wij bieden goedkope leningen aan voor iedereen zonder controle van de bank",
        ] {
            assert_eq!(weight(text), Some(NotEnglish::FOREIGN_TEXT), "{text}");
        }
        for text in [
            "Guten Tag, wir bieten Suchmaschinenoptimierung für Ihr Unternehmen an",
            "Hola, ofrecemos servicios de marketing digital para su empresa",
        ] {
            assert_eq!(weight(text), Some(NotEnglish::FOREIGN_WORDS), "{text}");
        }
    }

    #[test]
    fn english_jobs_pass_however_terse() {
        for text in [
            "Boiler not working, no hot water",
            "Combi boiler showing F28 fault code, pressure keeps dropping below 1 bar",
            "Café counter tiles cracked, café is in the front room of the house",
            "Fence panels 6ft concrete posts gravel boards supply fit",
            "Fit laminate, 5.2m x 3.8m, underlay needed, skirting too",
        ] {
            assert_eq!(weight(text), None, "{text}");
        }
    }

    #[test]
    fn a_long_text_without_english_function_words_is_a_weak_hint() {
        let text = "Lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor ut";
        assert_eq!(weight(text), Some(NotEnglish::NO_ENGLISH));
        // Why it stays weak: a list-like English job can read the same.
        let job =
            "Replace 10 fence panels 6ft x 6ft, 3 concrete posts, gravel boards, side gate access";
        assert_eq!(weight(job), Some(NotEnglish::NO_ENGLISH));
    }
}
