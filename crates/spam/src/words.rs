//! Words as the text rules count them, without allocating: the screen runs on
//! every job, so words are borrowed slices compared case-insensitively instead
//! of lowercased copies.

/// Words that carry no information about the job on their own. A description
/// made only of these ("hi, please help, need job") says nothing a trade could
/// quote for. Kept short on purpose: every word added here makes a real but
/// terse job more likely to look empty.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "any", "anyone", "are", "asap", "at", "be", "can", "do", "for", "get",
    "hello", "help", "hi", "i", "in", "is", "it", "job", "me", "my", "need", "needed", "needs",
    "of", "on", "please", "pls", "someone", "test", "thank", "thanks", "the", "this", "to", "we",
    "work", "you",
];

/// The words of `text` that contain a letter, with surrounding punctuation
/// trimmed (`door!!` is `door`, `n/a` stays `n/a`). Numbers, prices and
/// symbols are not words: they say how much, never what.
pub(super) fn words(text: &str) -> impl Iterator<Item = &str> + Clone {
    text.split_whitespace()
        .map(|token| token.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| word.chars().any(char::is_alphabetic))
}

/// Whether `word` is in [`STOP_WORDS`], ignoring case.
pub(super) fn is_stop_word(word: &str) -> bool {
    STOP_WORDS
        .iter()
        .any(|stop| stop.eq_ignore_ascii_case(word))
}

/// How many distinct non-stop words `text` has, counting no further than
/// `enough`: the rules only ask whether there are "at least so many", so the
/// count stops early and needs no set.
pub(super) fn distinct_content_words(text: &str, enough: usize) -> usize {
    let mut seen: [&str; 4] = [""; 4];
    let enough = enough.min(seen.len());
    let mut count = 0;
    for word in words(text).filter(|word| !is_stop_word(word)) {
        if count == enough {
            break;
        }
        if !seen[..count]
            .iter()
            .any(|earlier| earlier.eq_ignore_ascii_case(word))
        {
            seen[count] = word;
            count += 1;
        }
    }
    count
}

/// Calls `f` with `word` lowercased, without allocating when the word is
/// ASCII and short (almost every word of a description); other words are
/// lowercased by Unicode's rules on the heap.
pub(super) fn with_lowercase<T>(word: &str, f: impl FnOnce(&str) -> T) -> T {
    let mut buffer = [0u8; 32];
    if word.len() <= buffer.len() && word.is_ascii() {
        let lower = &mut buffer[..word.len()];
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        f(std::str::from_utf8(lower).expect("ASCII is UTF-8"))
    } else {
        f(&word.to_lowercase())
    }
}

/// A vocabulary signal's one reason: the distinct matches of `terms` in
/// `text` (at most `most`), weighing `per_term` each, described as `what`
/// and the terms. Nothing when none matches.
pub(super) fn push_terms(
    reasons: &mut Vec<super::Reason>,
    signal: &'static str,
    (terms, most, per_term): (&regex::Regex, usize, f64),
    text: &str,
    what: &str,
) {
    let found = distinct_terms(terms, text, most);
    if found.is_empty() {
        return;
    }
    reasons.push(super::Reason {
        signal,
        weight: per_term * found.len() as f64,
        detail: format!("{what} {}", found.join(", ")),
    });
}

/// The distinct matches of `terms` in `text`, lowercased, in order, at most
/// `most` of them.
fn distinct_terms(terms: &regex::Regex, text: &str, most: usize) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for term in terms.find_iter(text) {
        if found.len() == most {
            break;
        }
        let term = term.as_str().to_lowercase();
        if !found.contains(&term) {
            found.push(term);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_drop_surrounding_punctuation_and_tokens_without_letters() {
        let found: Vec<&str> = words("Lock snapped, can't open door!! £1500 3.5m n/a").collect();
        assert_eq!(
            found,
            ["Lock", "snapped", "can't", "open", "door", "3.5m", "n/a"]
        );
    }

    #[test]
    fn stop_words_match_in_any_case() {
        assert!(is_stop_word("Please"));
        assert!(is_stop_word("HELLO"));
        assert!(!is_stop_word("boiler"));
    }

    #[test]
    fn content_words_are_counted_once_each_and_without_stop_words() {
        assert_eq!(distinct_content_words("Hi please help, need a job", 2), 0);
        assert_eq!(distinct_content_words("boiler Boiler BOILER please", 2), 1);
        assert_eq!(distinct_content_words("Boiler not working", 2), 2);
    }

    #[test]
    fn content_words_stop_counting_at_enough() {
        assert_eq!(distinct_content_words("one two three four five", 3), 3);
    }
}
