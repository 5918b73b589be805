//! No job in the text: a description that names nothing a trade works on. A
//! homeowner's job, however short or badly spelt, names a thing (a boiler, a
//! fence, the kitchen ceiling), a trade, or a task (fix, fit, clear); a
//! chain letter, a complaint about a parcel, a slimming pill or a poem does
//! not. The words come from the marketplace's own category tree
//! (`data/categories.json`, the same tree jobs are filed under) and a short
//! list of the household words jobs use, so the signal needs no spam example
//! to know what a job talks about: it holds for spam of kinds never seen.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::words::{with_lowercase, words};
use super::{Reason, Signal, SpamInput, SpamScreen};

// A short text without a job word is a hint only; a long one is not a job.
const _: () = assert!(NoJobContent::SHORT <= SpamScreen::DEFAULT_THRESHOLD / 2.0);
const _: () = assert!(NoJobContent::LONG <= SpamScreen::DEFAULT_THRESHOLD);

const CATEGORIES: &str = include_str!("../../../data/categories.json");

/// Words of category labels that say nothing about a job on their own.
#[rustfmt::skip]
const GENERIC: &[&str] = &[
    "a", "access", "accessories", "accident", "administration", "after", "agents", "aids", "air",
    "airport", "and", "any", "applications", "appraisal", "areas", "assessment", "assistance",
    "audio", "auto", "automation", "b", "b2b", "back", "bag", "bases", "battery", "bird", "body",
    "bond", "bound", "bowls", "breakdown", "breast", "broadband", "broker", "bug", "bus",
    "calculations", "call", "car", "care", "cars", "cat", "chairs", "charging", "check", "checks",
    "chip", "cinema", "claim", "classic", "close", "colour", "communal", "computer", "condition",
    "consultancy", "consultant", "consultants", "control", "core", "corporate", "courier",
    "covers", "crown", "cutting", "cyber", "d", "data", "dealerships", "deep", "delivered",
    "deliveries", "design", "designed", "designer", "designers", "detection", "development",
    "diagnostic", "diamond", "digital", "disabled", "disaster", "distribution", "dog", "double",
    "drawing", "drawings", "drone", "drop", "dry", "dynamics", "effects", "efficient", "emergency",
    "en", "end", "engine", "entry", "equipment", "events", "features", "feed", "film", "filming",
    "finding", "for", "free", "front", "fuel", "general", "golf", "grab", "graphic", "green",
    "greens", "guards", "habitation", "hand", "hard", "heavy", "holiday", "home", "homes", "hour",
    "household", "hybrid", "improvement", "improvements", "in", "input", "insurance",
    "international", "internet", "investigation", "it", "jobs", "land", "laptop", "lawful", "lead",
    "leaf", "leather", "leisure", "let", "level", "license", "lines", "liquid", "listed", "load",
    "logs", "low", "machine", "made", "magnetic", "man", "management", "manual", "marketing",
    "markings", "matters", "measure", "measures", "media", "merchants", "micro", "mid", "mini",
    "miscellaneous", "mobile", "mobility", "models", "mot", "mots", "natural", "network",
    "networks", "new", "non", "nut", "odd", "of", "office", "offices", "on", "online", "opened",
    "opening", "order", "organic", "other", "out", "packaging", "packs", "party", "pat",
    "performance", "personal", "pet", "phone", "picker", "picture", "plain", "planner", "play",
    "points", "positive", "post", "power", "printer", "printing", "professional", "project",
    "protection", "quantity", "range", "recovery", "reduction", "regular", "regulations",
    "relocation", "remote", "report", "reports", "response", "restriction", "retailer", "reverse",
    "rise", "risk", "road", "rough", "rules", "safe", "safety", "sales", "scooter", "scooters",
    "screens", "sensory", "service", "services", "setting", "shop", "shot", "showroom", "sign",
    "signal", "single", "site", "smart", "snap", "social", "soda", "soft", "software", "solutions",
    "sound", "source", "spas", "specialist", "specialists", "staging", "structures", "studios",
    "summer", "supplied", "supplier", "suppliers", "supplies", "supply", "support", "surface",
    "sustainable", "system", "systems", "tape", "tariff", "taxi", "technical", "technician",
    "technicians", "technology", "telecommunication", "telecommunications", "telephone",
    "telephony", "television", "temporary", "testing", "the", "through", "tie", "to", "tool",
    "towing", "tracks", "trade", "training", "transfers", "transport", "transportation", "trauma",
    "tuning", "turning", "under", "units", "upgrades", "vehicle", "vehicles", "video", "virus",
    "visual", "void", "voip", "walk", "warm", "weather", "web", "website", "wheel", "wheels",
    "wifi", "wind", "with", "work", "works", "worldwide", "writers",
];

/// Household words and tasks that jobs use beyond the category labels.
#[rustfmt::skip]
const HOUSEHOLD: &[&str] = &[
    "attic", "bath", "bathroom", "baxi", "bedroom", "bin", "blocked", "boiler", "bracket", "brick",
    "broken", "burst", "cable", "carpet", "ceiling", "chimney", "cistern", "combi", "conifer",
    "conifers", "conservatory", "cooker", "crack", "cracked", "cupboard", "damp", "decking",
    "dishwasher", "door", "drain", "drip", "dripping", "drive", "driveway", "electrics",
    "extension", "fan", "fence", "fit", "fitted", "fix", "fixed", "fixing", "flat", "floor",
    "flooring", "flue", "flush", "fridge", "fuse", "garage", "garden", "gate", "glass", "grass",
    "gutter", "gutters", "hallway", "heating", "hedge", "hob", "house", "install", "installed",
    "installing", "kitchen", "ladder", "landing", "lawn", "leak", "leaking", "leaks", "light",
    "lights", "lock", "locked", "lockout", "loft", "lounge", "mattress", "mattresses", "mice",
    "mould", "move", "moving", "oven", "paint", "painting", "patio", "pipe", "pipes", "plaster",
    "plug", "pressure", "property", "radiator", "rads", "rats", "rcd", "removal", "remove",
    "renovate", "renovation", "rent", "rental", "repair", "repaired", "repairs", "replace",
    "replaced", "replacing", "rewire", "roof", "room", "rooms", "rubbish", "shed", "shelf",
    "shelves", "shower", "sink", "skirting", "socket", "sockets", "sofa", "stairs", "switch",
    "tank", "tap", "taps", "tenant", "tenants", "tile", "tiles", "toilet", "tree", "trees", "trip",
    "tripping", "trips", "tv", "vaillant", "valve", "valves", "wall", "walls", "wardrobe",
    "washing", "water", "window", "windows", "wiring", "wood", "worcester", "worktop",
];

/// The job words: every word of four letters or more of the category labels
/// (and names) except [`GENERIC`] ones, and [`HOUSEHOLD`], lowercased.
static JOB_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let tree: serde_json::Value =
        serde_json::from_str(CATEGORIES).expect("the category tree is JSON");
    let mut labels = Vec::new();
    collect_labels(&tree, &mut labels);
    let mut set: HashSet<String> = labels
        .iter()
        .flat_map(|label| label.split(|c: char| !c.is_alphanumeric()))
        .map(str::to_lowercase)
        .filter(|word| word.len() >= 3 && !GENERIC.contains(&word.as_str()))
        .collect();
    set.extend(HOUSEHOLD.iter().map(|word| (*word).to_owned()));
    set
});

fn collect_labels<'a>(node: &'a serde_json::Value, labels: &mut Vec<&'a str>) {
    match node {
        serde_json::Value::Array(items) => {
            items.iter().for_each(|item| collect_labels(item, labels))
        }
        serde_json::Value::Object(fields) => {
            if let Some(label) = fields.get("label").and_then(serde_json::Value::as_str) {
                labels.push(label);
            }
            if let Some(children) = fields.get("subcategories") {
                collect_labels(children, labels);
            }
        }
        _ => {}
    }
}

/// Whether `word` is a job word, in any case, also with a plural `s`, an
/// `-ing` or `-ed` ending or a `re-` prefix taken off ("refitting" is "fit").
fn is_job_word(word: &str) -> bool {
    with_lowercase(word, is_job_word_lowercase)
}

/// [`is_job_word`] of a lowercase word.
fn is_job_word_lowercase(lower: &str) -> bool {
    let known = |stem: &str| JOB_WORDS.contains(stem);
    let endings = |word: &str| {
        known(word)
            || word.strip_suffix('s').is_some_and(known)
            || [word.strip_suffix("ing"), word.strip_suffix("ed")]
                .into_iter()
                .flatten()
                .any(|stem| {
                    known(stem)
                        // fitting, fitted: the consonant doubled.
                        || (stem.len() > 2
                            && stem.as_bytes()[stem.len() - 1] == stem.as_bytes()[stem.len() - 2]
                            && known(&stem[..stem.len() - 1]))
                        // tiling, tiled: the `e` dropped.
                        || (stem.len() < 23 && {
                            let mut with_e = [0u8; 24];
                            with_e[..stem.len()].copy_from_slice(stem.as_bytes());
                            with_e[stem.len()] = b'e';
                            std::str::from_utf8(&with_e[..=stem.len()]).is_ok_and(known)
                        })
                })
    };
    endings(lower)
        || lower
            .strip_prefix("re")
            .is_some_and(|rest| rest.len() >= 3 && endings(rest))
}

/// Whether `text` names something a trade works on.
pub(crate) fn names_job(text: &str) -> bool {
    words(text).any(is_job_word)
}

/// Flags a description of [`NoJobContent::MIN_WORDS`] words or more none of
/// which is a job word: [`NoJobContent::SHORT`] under
/// [`NoJobContent::LONG_WORDS`] words, [`NoJobContent::LONG`] from there.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoJobContent;

impl NoJobContent {
    /// Fewer words are judged by the thin rule.
    pub const MIN_WORDS: usize = 5;
    /// From this many words, a text without a job word weighs [`NoJobContent::LONG`].
    pub const LONG_WORDS: usize = 12;
    /// A short text naming no job.
    pub const SHORT: f64 = 0.5;
    /// A long text naming no job: rejected with any other doubt.
    pub const LONG: f64 = 1.0;
    /// From this many words, a text with a single job word weighs
    /// [`NoJobContent::SPARSE`]: a job told at length names more than one
    /// thing (the boiler and the radiators, the roof and the gutter).
    pub const SPARSE_WORDS: usize = 15;
    /// A long text with a single job word: a hint.
    pub const SPARSE: f64 = 0.4;
}

impl Signal for NoJobContent {
    fn name(&self) -> &'static str {
        "no_job_content"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let mut count = 0;
        let mut job_word = None;
        for word in words(input.description) {
            if is_job_word(word) {
                if job_word.is_some() {
                    return;
                }
                job_word = Some(word);
            }
            count += 1;
        }
        let (weight, detail) = match job_word {
            None if count >= Self::LONG_WORDS => {
                (Self::LONG, format!("{count} words, none naming a job"))
            }
            None if count >= Self::MIN_WORDS => {
                (Self::SHORT, format!("{count} words, none naming a job"))
            }
            Some(word) if count >= Self::SPARSE_WORDS => (
                Self::SPARSE,
                format!("{count} words, one naming a job ({word:?})"),
            ),
            _ => return,
        };
        reasons.push(Reason {
            signal: self.name(),
            weight,
            detail,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(description: &str) -> f64 {
        crate::reasons_of(&NoJobContent, description)
            .pop()
            .map_or(0.0, |reason| reason.weight)
    }

    #[test]
    fn the_words_come_from_the_category_tree_and_the_household_list() {
        // From category labels alone:
        for word in [
            "plasterer",
            "guttering",
            "asbestos",
            "chimneys",
            "Boilers",
            "refitting",
            "tiled",
            "repainted",
        ] {
            assert!(is_job_word(word), "{word}");
        }
        for word in ["the", "digital", "marketing", "winner", "gummies"] {
            assert!(!is_job_word(word), "{word}");
        }
    }

    #[test]
    fn texts_that_name_no_job_weigh_by_length() {
        assert_eq!(
            weight("What time does the match kick off tonight and what channel is it on?"),
            NoJobContent::LONG
        );
        assert_eq!(weight("how many calories in a banana"), NoJobContent::SHORT);
        assert_eq!(weight("hi there"), 0.0, "too short to judge");
        for job in [
            "Boiler not working, no hot water",
            "need someone to come and sort the damp patch upstairs asap",
            "hiya need a joiner 4 internal door",
            "Can someone take away an old sofa and two mattresses this week",
        ] {
            assert_eq!(weight(job), 0.0, "{job}");
        }
    }
}
