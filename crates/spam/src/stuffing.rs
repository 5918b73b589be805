//! Keyword stuffing: trade and place words strung together with little else
//! ("plumber leeds emergency plumber leeds cheap plumber near me"), as SEO
//! bots and fake listings write. A person describing a job, however tersely,
//! writes the little words of a sentence ("my", "the", "need", "in", "is")
//! or the verbs of a task list ("fix", "fit", "replace"); a run of keywords
//! has next to none, and often repeats its main keyword or separates the
//! keywords with `|`, `#` or `;`.

use std::collections::HashMap;

use super::words::words;
use super::{Reason, Signal, SpamInput, SpamScreen};

// A keyword list alone is a listing, not a job: it may reject alone.
const _: () = assert!(KeywordStuffing::WEIGHT >= SpamScreen::DEFAULT_THRESHOLD);
const _: () = assert!(KeywordStuffing::WEAK_WEIGHT < SpamScreen::DEFAULT_THRESHOLD / 2.0);

/// The words of a sentence or a task: pronouns, articles, prepositions,
/// auxiliaries, and the verbs people use to ask for work. Compared ignoring
/// ASCII case.
const JOB_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "anyone", "are", "as", "at", "be",
    "been", "before", "but", "by", "can", "could", "did", "do", "does", "done", "fit", "fitted",
    "fix", "fixed", "for", "from", "get", "got", "had", "has", "have", "he", "her", "his", "how",
    "i", "i'm", "i've", "if", "in", "into", "is", "isn't", "it", "it's", "its", "just", "like",
    "looking", "me", "move", "my", "need", "needed", "needs", "no", "not", "now", "of", "off",
    "on", "one", "or", "our", "out", "over", "please", "pls", "put", "remove", "replace",
    "replaced", "she", "so", "some", "someone", "take", "than", "that", "the", "their", "them",
    "then", "there", "they", "this", "to", "too", "up", "us", "very", "want", "wanted", "was",
    "we", "were", "what", "when", "which", "will", "with", "won't", "would", "you", "your",
];

fn is_job_word(word: &str) -> bool {
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    JOB_WORDS.iter().any(|job| job.eq_ignore_ascii_case(word))
}

/// Flags a description of eight or more words of which at most one in
/// twelve is a [`JOB_WORDS`] word ("near me" not counted; words with digits
/// left out), when it also repeats a keyword three times, separates keywords
/// with `|`, `#` or `;`, or runs to sixteen words with a keyword twice.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeywordStuffing;

impl KeywordStuffing {
    /// A run of keywords with a second sign of stuffing.
    pub const WEIGHT: f64 = 1.0;
    /// Few sentence words but no second sign: a hint.
    pub const WEAK_WEIGHT: f64 = 0.3;
    /// Fewer words say too little to judge.
    const MIN_WORDS: usize = 8;
}

impl Signal for KeywordStuffing {
    fn name(&self) -> &'static str {
        "keyword_stuffing"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let text = input.description;
        // Sizes, codes and postcodes ("12ft", "F28", "N16") are the details
        // of a job, not keywords: only words without digits count.
        let all: Vec<&str> = words(text)
            .filter(|word| !word.chars().any(|c| c.is_ascii_digit()))
            .collect();
        if all.len() < Self::MIN_WORDS {
            return;
        }
        let mut job_words = 0;
        let mut previous = "";
        for word in &all {
            // "near me" is the searcher's phrase, not the writer's.
            let near_me = word.eq_ignore_ascii_case("me") && previous.eq_ignore_ascii_case("near");
            if !near_me && is_job_word(word) {
                job_words += 1;
            }
            previous = word;
        }
        if job_words * 12 > all.len() {
            return;
        }
        let (top, repeats) = most_repeated(&all);
        let separators = text
            .chars()
            .filter(|c| matches!(c, '|' | '#' | ';'))
            .count();
        let strong = repeats >= 3 || separators >= 3 || (all.len() >= 16 && repeats >= 2);
        reasons.push(Reason {
            signal: self.name(),
            weight: if strong { Self::WEIGHT } else { Self::WEAK_WEIGHT },
            detail: format!(
                "{} words, {job_words} of a sentence; {top:?} {repeats} times, {separators} separators",
                all.len()
            ),
        });
    }
}

/// The word of four letters or more seen most often (ignoring case), with
/// its count; the first such word wins a tie. Counted in one pass, so that a
/// 5,000-character list of keywords costs no more than its length.
fn most_repeated<'a>(all: &[&'a str]) -> (&'a str, usize) {
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for (position, word) in all.iter().enumerate() {
        if word.chars().count() >= 4 {
            counts.entry(word.to_lowercase()).or_insert((0, position)).0 += 1;
        }
    }
    counts
        .values()
        .max_by(|(count, first), (other, other_first)| {
            count.cmp(other).then(other_first.cmp(first))
        })
        .map_or(("", 0), |&(count, first)| (all[first], count))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(description: &str) -> Option<Reason> {
        crate::reasons_of(&KeywordStuffing, description).pop()
    }

    #[test]
    fn a_run_of_keywords_is_flagged_with_its_counts() {
        let found = reason(
            "plumber croydon emergency plumber croydon cheap plumber near me 24 hour plumber leak repair",
        )
        .unwrap();
        assert_eq!(found.weight, KeywordStuffing::WEIGHT);
        assert_eq!(
            found.detail,
            "13 words, 0 of a sentence; \"plumber\" 4 times, 0 separators"
        );
        let piped = reason(
            "Plasterer Leeds | Skimming | Rendering | Artex removal | Coving | Plastering near me",
        )
        .unwrap();
        assert_eq!(piped.weight, KeywordStuffing::WEIGHT, "{piped:?}");
    }

    #[test]
    fn the_longest_list_allowed_is_counted_in_one_pass() {
        let list = "Roofer Leeds roofing ".repeat(238);
        assert!(list.len() <= 5000);
        let found = reason(&list).unwrap();
        assert_eq!(
            found.detail,
            "714 words, 0 of a sentence; \"Roofer\" 238 times, 0 separators"
        );
    }

    #[test]
    fn terse_jobs_and_task_lists_are_not_stuffing() {
        for job in [
            "sockets x3 kitchen",
            "Boiler not working, no hot water since Monday",
            "Jobs: hang 2 doors, fix the tap, replace light fitting, put up shelves, fix gate",
            "Combi boiler F28 fault, pressure drops below 1 bar overnight, Worcester 30i",
            "EICR needed for rental flat, 2 bed, tenants in, access weekdays",
        ] {
            let weight = reason(job).map_or(0.0, |r| r.weight);
            assert!(weight < KeywordStuffing::WEIGHT, "{job}: {weight}");
        }
    }
}
