//! Unsolicited offers: a description that sells to its reader instead of
//! asking for work. Pitches to the trade ("we help plumbing firms get more
//! leads, worth a 15 minute call?") and to the homeowner ("we buy any house
//! for cash, call today") often carry no link and few marketing words, but
//! they speak as a seller: the writer offers ("we offer", "our team"), talks
//! to the reader about the reader ("your business", "you could be owed"),
//! asks for a response ("reply YES", "book a free survey") and sets terms
//! ("no obligation", "£49 a month", "limited places").
//!
//! A homeowner writes some of these too ("free quote please", "call me on
//! ...", "our café needs ..."), so each kind of cue is a narrow phrase list,
//! and the signal weighs how many *kinds* agree: one kind is a hint, three or
//! four are a pitch.

use std::sync::LazyLock;

use regex::Regex;

use super::{Reason, Signal, SpamInput, SpamScreen};

// One kind of cue never rejects; three do.
const _: () = assert!(UnsolicitedOffer::WEIGHTS[1] < SpamScreen::DEFAULT_THRESHOLD / 2.0);
const _: () = assert!(UnsolicitedOffer::WEIGHTS[3] >= SpamScreen::DEFAULT_THRESHOLD);

/// Prices of a subscription or a deal, which start with a symbol and so sit
/// outside the word boundaries of the other phrases; only the `terms` kind
/// uses them (the others match nothing here).
const PRICES_TERMS: &str = r"(?:£|\$)\d[\d,.]*k?\ ?(?:pm|p/m|pcm|a\ month|per\ month|/\ ?month|monthly|per\ lead|a\ lead|per\ year|a\ year|\+\ ?vat\ a\ month|\ upfront)(?-u:\b)";

/// The kinds of cue, each a pattern of whole phrases ignoring case.
static CUES: LazyLock<[(&str, Regex); 4]> = LazyLock::new(|| {
    let with = |body: &str, prices: &str| {
        Regex::new(&format!(r"(?xi) (?-u:\b) (?: {body} ) (?-u:\b) {prices}"))
            .expect("an offer pattern compiles")
    };
    let pattern = |body: &str| with(body, "");
    [
        (
            "seller",
            pattern(
                r"we(?:'ll|\ will)?\ (?:offer|provide|supply|specialise|specialize|install|buy|pay|help|work\ with|deliver|guarantee|handle|check|do\ the|clean|coat|treat|cover|recover|remove|match|beat|arrange)
                | we\ can\ (?:help|get|save|cut|buy|build|boost|handle|take|put|increase|double|remove|fit|offer)
                | we(?:'re|\ are)\ (?:offering|currently\ offering|looking\ for\ (?:homeowners|properties|partners)|in\ your\ area|running\ a)
                | we(?:'re|\ are)\ (?:a|an|the)\ (?:[\w-]+\ ){0,3}?(?:company|agency|firm|business|provider|specialists?|consultancy|accountants?|brokers?|installers?|platform|network|lettings)
                | our\ (?:services?|team|company|agency|clients|customers|engineers?|assessors?|experts|specialists|platform|software|app|product|prices|rates|packages?|offers?|promotion|showroom)
                | i\ (?:help|work\ with)\ (?:trade|trades|tradespeople|builders|businesses|companies|firms|homeowners|landlords|plumbers|electricians|roofers)
                | i(?:'m|\ am)\ (?:reaching\ out|writing\ to\ (?:offer|introduce|let\ you)|a\ (?:freelance|qualified\ )?(?:bookkeeper|consultant|accountant|marketer|developer|designer|broker|manager|specialist|representative|recruiter))
                | (?:reaching\ out|get\ in\ touch)\ (?:from|on\ behalf\ of)
                | just\ a\ quick\ (?:intro|note|message\ to\ introduce)
                | (?:introduce|introducing)\ (?:myself|ourselves|our)
                | we(?:'re|\ are)\ (?:treating|working\ on|doing|fitting|installing)\ (?:[\w-]+\ ){0,3}?(?:on\ your|in\ your|near\ you|nearby|homes|houses|properties)
                | our\ (?:lads|fitters|installers|surveyors?|scaffold(?:ing)?|van)\ (?:are|is)
                | i(?:'m|\ am)\ a\ (?:cash\ buyer|private\ buyer|local\ investor)",
            ),
        ),
        (
            "reader",
            pattern(
                r"your\ (?:business|company|firm|website|site|brand|customers|clients|team|staff|van|vans|bills?|ranking|listing|reviews|leads|profile|competitors|postcode\ area|council\ area|address\ has|home\ could|property\ could)
                | (?:are|do|did|have)\ you\ (?:struggling|struggle|losing|missing|tired|paying\ too|looking\ for\ (?:more|new)\ (?:customers|clients|leads|work)|the\ (?:owner|homeowner|business\ owner)|ever\ (?:had|taken|been\ sold))
                | you\ (?:could|may|might)\ (?:be\ (?:owed|due|eligible|entitled)|qualify|claim|save|earn|get\ (?:a\ )?(?:free|up\ to))
                | you\ (?:are|have\ been|were)\ (?:owed|eligible|selected|pre-?selected|approved)
                | (?:homeowners|landlords|business\ owners|trades(?:people)?)\ (?:like\ you|in\ your\ area)
                | your\ (?:house|home|roof|street|road|drive|driveway|postcode|area|property|properties|windows|boiler|loft|garden|land|energy\ bills?)
                | (?:hello|hi|dear|attention|calling\ all|for|to\ all)\ (?:homeowners?|landlords|property\ owners|business\ owners?)
                | (?:would|could|do|are)\ you\ (?:sell|like\ to\ (?:sell|save|earn|claim|try)|want\ to\ (?:sell|save|earn))
                | (?:thinking\ of|looking\ to)\ sell(?:ing)?",
            ),
        ),
        (
            "call_to_action",
            pattern(
                r"call\ (?:us|now|today|our|free)
                | (?:book|claim|arrange|get)\ (?:your|a|my)\ (?:free|no-obligation|complimentary|instant|fifteen|15|10|20|30)
                | book\ (?:now|today|before|online|a\ (?:call|demo|slot|chat))
                | reply\ (?:to\ (?:this|claim|get|find|book|opt)|with\ (?:yes|your\ (?:details|bank|card|address|date))|yes|now|stop|and\ i'?ll|\W*(?:yes|interested|info|refund|go))
                | (?:click|tap)\ (?:here|the\ link|below|to)
                | (?:can|shall|may)\ i\ (?:send\ you|show\ you|book\ you|call\ you\ (?:back|to\ discuss))
                | (?:worth|fancy)\ a\ (?:quick\ )?(?:chat|call|look)
                | let'?s\ (?:chat|talk|compare|discuss)
                | (?:contact|message|text|whatsapp)\ us
                | get\ (?:started|in\ touch\ today|your\ free)
                | sign\ up | apply\ now | act\ now | don'?t\ miss | visit\ (?:our|us|www)
                | (?:open\ to|interested\ in)\ a\ (?:quick\ )?(?:chat|call|partnership)
                | would\ you\ be\ interested",
            ),
        ),
        (
            "terms",
            with(
                r"no[\ -]obligation | no\ win,?\ no\ fee | no\ upfront | risk[\ -]free | money[\ -]back
                | free\ (?:survey|assessment|trial|check|consultation|valuation|audit|demo|installation|report|eligibility|case\ check|cash\ offer|of\ charge)
                | limited\ (?:time|spaces|places|offer|slots|availability|funded)
                | \d+\ ?%\ off | \d+\ ?%\ discount | special\ offer | exclusive\ offer | promotion
                | cancel\ any\ ?time | no\ contract | guaranteed\ (?:results|pass|rent|rankings?|leads|approval|income|return)
                | (?:pre-?selected|congratulations) | 0%\ finance | buy\ now,?\ pay\ later
                | (?:book|order|sign\ up)\ (?:by|before)\ (?:sunday|monday|tuesday|wednesday|thursday|friday|saturday|the\ deadline|midnight|friday)
                | this\ week\ only | while\ (?:stocks|places)\ last | first\ (?:\d+|month|lead|consultation|quote)s?\ (?:\w+\ )?free
                | (?:offer|deal|grant|funding|promotion|quote)\ (?:ends|expires|runs\ out|valid)
                | (?:special|exclusive|limited)\ (?:deal|price|rate) | half\ price | heavily\ discounted | reduced\ (?:group\ )?rate
                | only\ \d+\ (?:slots|places|spaces|installations?)\ left
                | (?:from|only|just)\ (?:£|\$)\d[\d,.]*(?:\ fitted|\ installed|\ a\ month|\ per)? | top\ price | cash\ (?:buyer|offer|price\ for)
                | no\ (?:chain|agents?|fees|viewings)",
                &format!("| {PRICES_TERMS}"),
            ),
        ),
    ]
});

/// Adds one reason naming the kinds of cue found and the first phrase of
/// each, weighing [`UnsolicitedOffer::WEIGHTS`] by how many kinds agree.
#[derive(Debug, Clone, Copy, Default)]
pub struct UnsolicitedOffer;

impl UnsolicitedOffer {
    /// The weight for 0, 1, 2, 3 and 4 kinds of cue: a homeowner's "free
    /// quote" or "call me" is one kind at most; a pitch speaks as a seller,
    /// to the reader, with a call to action or terms, and three kinds reject.
    pub const WEIGHTS: [f64; 5] = [0.0, 0.25, 0.6, 1.0, 1.2];
}

impl Signal for UnsolicitedOffer {
    fn name(&self) -> &'static str {
        "unsolicited_offer"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let mut found: Vec<String> = Vec::new();
        for (kind, pattern) in CUES.iter() {
            if let Some(cue) = pattern.find(input.description) {
                found.push(format!("{kind} {:?}", cue.as_str()));
            }
        }
        if found.is_empty() {
            return;
        }
        reasons.push(Reason {
            signal: self.name(),
            weight: Self::WEIGHTS[found.len()],
            detail: format!("offer cues: {}", found.join(", ")),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(description: &str) -> Option<Reason> {
        crate::reasons_of(&UnsolicitedOffer, description).pop()
    }

    #[test]
    fn a_pitch_without_a_link_names_every_kind_of_cue() {
        let found = reason(
            "Hi, we help plumbing firms win more work. Your business could double its leads: \
             no obligation, £49 a month. Worth a quick chat?",
        )
        .unwrap();
        assert_eq!(found.weight, UnsolicitedOffer::WEIGHTS[4], "{found:?}");
        assert_eq!(
            found.detail,
            "offer cues: seller \"we help\", reader \"Your business\", call_to_action \"Worth a quick chat\", terms \"no obligation\""
        );
        let cash =
            reason("We buy any house for cash! Call us today for your free cash offer").unwrap();
        assert!(cash.weight >= 1.0, "{cash:?}");
    }

    #[test]
    fn a_homeowners_own_words_are_at_most_one_kind() {
        for job in [
            "Free quote please for a new boiler, call me on 07700 900123 after 5",
            "Our café needs a new extractor fan over the range, please send your rates",
            "Looking for a guaranteed job on the roof, last roofer left it leaking. Cash or bank transfer",
            "Can you reply with your availability next week? Need 3 sockets in the kitchen",
            "We are a family of four and need the bathroom refitted, budget £6k",
        ] {
            let weight = reason(job).map_or(0.0, |r| r.weight);
            assert!(weight <= UnsolicitedOffer::WEIGHTS[1], "{job}: {weight}");
        }
    }
}
