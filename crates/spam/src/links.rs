//! Links in the description. Homeowners describe a leak or a fence to a trade;
//! they have no reason to send a link through this form, while advertising
//! spam exists to deliver one.

use std::sync::LazyLock;

use regex::{Match, Regex};

use super::{Reason, Signal, SpamInput, SpamScreen};

/// Anything a reader or a mail client would treat as a link:
///
/// - an explicit scheme or a `www.` host, in any case;
/// - a known link shortener, with or without a path;
/// - a bare domain on a TLD common in spam, e.g. `cheap-watches.ru` or
///   `example.com/offer`, or on the reserved `.example`, which the spam
///   corpus writes in place of real domains (data/spam/corpus/README.md).
///
/// Shorteners and bare domains must end the word (a `/`, a space, closing
/// punctuation or the end), and the TLD must be lower case, so that a missing
/// space after a full stop ("the garden.Top panel") is not read as a domain.
///
/// Word boundaries are ASCII (`(?-u:\b)`): a Unicode `\b` makes the regex
/// engine give up its fast DFA on any text with a `£` or an accent, which
/// made screening a long description a hundred times slower.
static LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?x)
          (?-u:\b) (?i: https?:// | www\. ) \S*
        | (?: (?-u:\b) (?i: bit\.ly | tinyurl\.com | goo\.gl | ow\.ly | buff\.ly | cutt\.ly
                     | rb\.gy | tiny\.cc | shorturl\.at | is\.gd | t\.co )
            | (?-u:\b) [\w-]+ (?: \.[\w-]+ )* \.
              (?: com | net | org | info | biz | ru | cn | xyz | top | online | site | co\.uk | example )
          )
          (?: / \S* )? [.,;:!?)'"]* (?: \s | $ )
        "#,
    )
    .expect("the link pattern compiles")
});

/// Closing punctuation and spaces the pattern may take after a link; not part
/// of the link when quoting it.
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')', '\'', '"'];

// A link alone rejects at the default threshold.
const _: () = assert!(Links::WEIGHT >= SpamScreen::DEFAULT_THRESHOLD);

/// Longest part of a link copied into a reason, so a hostile description cannot
/// fill the quarantine with one huge "link".
const MAX_QUOTED_CHARS: usize = 60;

/// Flags descriptions containing a link. One reason per description however
/// many links it holds: one link already shows the intent, more add nothing.
/// E-mail addresses are not links (`me@example.com` is left to an e-mail
/// signal): a homeowner writing their address is normal.
#[derive(Debug, Clone, Copy, Default)]
pub struct Links;

impl Links {
    /// A link alone reaches the default threshold.
    pub const WEIGHT: f64 = 1.0;
    /// A link in a described job ([`Links::DESCRIBED_WORDS`] words or more,
    /// naming a job): homeowners share photos this way ("pics of the crack:
    /// https://..."), so the link needs one more doubt to reject.
    pub const IN_DESCRIBED_JOB: f64 = 0.6;
    /// How many words make a described job.
    pub const DESCRIBED_WORDS: usize = 15;
}

impl Signal for Links {
    fn name(&self) -> &'static str {
        "link"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let text = input.description;
        let mut links = LINK
            .find_iter(text)
            .filter(|link| !in_email_address(text, link))
            .map(|link| link.as_str().trim_end().trim_end_matches(TRAILING));
        let Some(first) = links.next() else {
            return;
        };
        let others = links.count();
        let quoted: String = first.chars().take(MAX_QUOTED_CHARS).collect();
        let mut detail = match others {
            0 => format!("link {quoted:?}"),
            _ => format!("link {quoted:?} and {others} more"),
        };
        let described = crate::words::words(text).count() >= Self::DESCRIBED_WORDS
            && crate::job_content::names_job(text);
        if described {
            detail.push_str(" in a described job");
        }
        reasons.push(Reason {
            signal: self.name(),
            weight: if described {
                Self::IN_DESCRIBED_JOB
            } else {
                Self::WEIGHT
            },
            detail,
        });
    }
}

/// Whether `link` is the domain of an e-mail address, i.e. the word it sits in
/// has an `@` before it.
fn in_email_address(text: &str, link: &Match<'_>) -> bool {
    let before = &text[..link.start()];
    let word_start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    before[word_start..].contains('@')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(description: &str) -> Vec<Reason> {
        crate::reasons_of(&Links, description)
    }

    fn link(description: &str) -> Option<String> {
        reasons(description).pop().map(|reason| reason.detail)
    }

    #[test]
    fn schemes_www_shorteners_and_bare_domains_are_links() {
        for (text, quoted) in [
            (
                "see http://spam.example.com/offer now",
                "http://spam.example.com/offer",
            ),
            ("HTTPS://Example.org", "HTTPS://Example.org"),
            ("Buy at www.cheap-watches.ru", "www.cheap-watches.ru"),
            ("go to bit.ly/3xYz", "bit.ly/3xYz"),
            ("tinyurl.com", "tinyurl.com"),
            ("best prices on cheap-watches.ru.", "cheap-watches.ru"),
            ("example.com/offer?id=1", "example.com/offer?id=1"),
            ("something.xyz", "something.xyz"),
            ("rank first (seo-boost.online)", "seo-boost.online"),
            ("loans.co.uk/apply today", "loans.co.uk/apply"),
        ] {
            assert_eq!(link(text), Some(format!("link {quoted:?}")), "{text:?}");
        }
    }

    #[test]
    fn a_link_alone_weighs_the_default_threshold() {
        let found = reasons("www.example.com");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].signal, "link");
        assert_eq!(found[0].weight, 1.0);
    }

    #[test]
    fn several_links_make_one_reason() {
        let found = reasons("www.a.com and http://b.net and c.ru");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].detail, "link \"www.a.com\" and 2 more");
    }

    #[test]
    fn email_addresses_are_not_links() {
        assert_eq!(link("Email photos to me@example.com please"), None);
        assert_eq!(link("jo.bloggs@mail.example.co.uk"), None);
        assert_eq!(link("Contact: sales@www.example.com"), None);
    }

    #[test]
    fn ordinary_job_text_is_not_a_link() {
        for text in [
            "Fence panels 1.8m x 1.8m, about £45 each.",
            "Boiler is a Worcester Bosch 30i.Combi, about 10 years old",
            "Tiles on the garden wall.Top course is loose",
            "Replace 2 radiators (one leaking).",
            "Rewire 3 bed semi, approx. £4,500 budget",
            "Worktop is 3.0m long; needs 2.5 days?",
        ] {
            assert_eq!(link(text), None, "{text:?}");
        }
    }

    #[test]
    fn a_long_link_is_quoted_shortened() {
        let long = format!("https://example.com/{}", "a".repeat(500));
        let detail = link(&long).expect("a link");
        assert!(detail.len() < 80, "{detail}");
    }
}
