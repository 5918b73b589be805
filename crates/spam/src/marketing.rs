//! The vocabulary of pitches: SEO, marketing, crypto, loans, recruitment,
//! adult offers and health products. Homeowners describing a leak do not write "backlinks".

use std::sync::LazyLock;

use regex::Regex;

use super::words::push_terms;
use super::{Reason, Signal, SpamInput, SpamScreen};

// One term never rejects alone: "leads" or "offer" can appear in a real job.
const _: () = assert!(Marketing::PER_TERM < SpamScreen::DEFAULT_THRESHOLD);

/// Terms of pitches, matched as whole words ignoring case. Each is specific
/// enough that a homeowner rarely writes it; generic words ("offer", "free",
/// "apply") are left to the trained model, which weighs them by evidence.
static TERMS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi) (?-u:\b) (?:
            seo | search\ engine | backlinks? | link\ building | guest\ posts?
          | first\ page\ of\ google | page\ 1 | google\ (?:ads|maps|ranking) | rankings?
          | digital\ marketing | marketing\ (?:agency|services|automation) | social\ media
          | web\ ?design | website\ traffic | organic\ traffic | domain\ authority
          | lead\ generation | more\ (?:leads|customers|sales) | followers
          | bitcoin | btc | crypto(?:currency)? | ethereum | forex | nft | invest(?:ment|ors?)?
          | payday | loans? | credit\ check | bad\ credit | debt\ consolidation
          | earn\ (?:money|\$|£) | make\ money | work(?:ing)?\ from\ home | guaranteed
          | casino | free\ spins | prize | gift\ card
          | we\ are\ hiring | hiring | vacanc(?:y|ies) | send\ (?:your|me\ your)?\ ?cv | salary
          | recruitment | job\ portal
          | viagra | cialis | singles | dating | webcam | discreet | hook\ ?ups? | sugar\ daddy
          | lonely\ (?:women|ladies|wives|housewives|housewife|girls|single) | my\ (?:profile|pics|photos\ are)
          | weight\ loss | lose\ weight | slimming | diet\ pills | keto | gummies | cbd | detox
          | fat\ (?:burn(?:ing|er)?|loss) | belly\ fat | supplements? | capsules | miracle
          | erectile | testosterone | hair\ loss | anti-?ageing | anti-?aging | doctors\ hate
        ) (?-u:\b)",
    )
    .expect("the marketing pattern compiles")
});

/// Most distinct terms counted: three already make a pitch.
const MAX_TERMS: usize = 3;

/// Adds one reason listing the distinct pitch terms found, weighing
/// [`Marketing::PER_TERM`] each, up to [`MAX_TERMS`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Marketing;

impl Marketing {
    /// Weight per distinct term: two terms and anything else reject.
    pub const PER_TERM: f64 = 0.4;
}

impl Signal for Marketing {
    fn name(&self) -> &'static str {
        "marketing"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let vocabulary = (&*TERMS, MAX_TERMS, Self::PER_TERM);
        push_terms(
            reasons,
            self.name(),
            vocabulary,
            input.description,
            "pitch terms",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(description: &str) -> Option<Reason> {
        let input = SpamInput {
            description,
            first_name: "Ruth",
            last_name: "Price",
            email: "ruth@example.co.uk",
            phone: "07700 900444",
            postcode: "PL4 8AA",
            history: Default::default(),
        };
        let mut reasons = Vec::new();
        Marketing.assess(&input, &mut reasons);
        reasons.pop()
    }

    #[test]
    fn pitches_name_their_terms_and_weigh_per_term_up_to_three() {
        let found = reason("Cheap SEO and backlinks for more leads, guaranteed").unwrap();
        assert_eq!(found.detail, "pitch terms seo, backlinks, more leads");
        assert!((found.weight - 1.2).abs() < 1e-9);
        let one = reason("Invest in Bitcoin today").unwrap();
        assert_eq!(one.detail, "pitch terms invest, bitcoin");
    }

    #[test]
    fn one_term_is_below_the_threshold() {
        assert_eq!(reason("Loans approved today").unwrap().weight, 0.4);
    }

    #[test]
    fn real_jobs_have_no_pitch_terms() {
        for job in [
            "Boiler not working, no hot water",
            "Lead flashing on the chimney needs replacing",
            "Loft insulation, offer accepted on the house so need it done before we move",
            "Fit laminate in the lounge, 5.2m x 3.8m",
            "uPVC back door won't lock, free from 14 Apr",
        ] {
            assert_eq!(reason(job), None, "{job}");
        }
    }
}
