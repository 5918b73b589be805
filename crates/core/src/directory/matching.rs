//! Choosing the recipients of a job among the trades that serve it
//! (DESIGN.md §6; the weights are explained in docs/directory.md).

use super::index::Match;

/// How many recipients a job gets at most, by default.
pub const DEFAULT_MAX_RECIPIENTS: usize = 3;

/// Distance at which closeness reaches zero, in miles.
const FAR_MILES: f64 = 40.0;
/// Closeness of a trade whose distance is unknown (district listed explicitly).
const UNKNOWN_CLOSENESS: f64 = 0.5;
/// Quality of a trade with no reviews yet: neither rewarded nor buried.
const UNREVIEWED_QUALITY: f64 = 0.6;

/// A match with the figures that ranked it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The match.
    pub found: Match,
    /// Leads the trade received recently.
    pub recent_leads: u32,
    /// The composite score, 0 to 1.
    pub score: f64,
}

/// Ranks `matches` and keeps the best `max`: exact category matches first;
/// within them, by `0.45 closeness + 0.35 quality + 0.20 fairness`, where
/// fairness is `1 / (1 + recent leads)`; ties by lowest company id.
pub fn choose_recipients(
    matches: Vec<Match>,
    recent_leads: impl Fn(u64) -> u32,
    max: usize,
) -> Vec<Ranked> {
    let mut ranked: Vec<Ranked> = matches
        .into_iter()
        .map(|found| {
            let leads = recent_leads(found.company_id);
            let closeness = found
                .distance_miles
                .map_or(UNKNOWN_CLOSENESS, |d| (1.0 - d / FAR_MILES).clamp(0.0, 1.0));
            let quality = found
                .review_score
                .map_or(UNREVIEWED_QUALITY, |s| (s / 10.0).clamp(0.0, 1.0));
            let fairness = 1.0 / (1.0 + f64::from(leads));
            let score = 0.45 * closeness + 0.35 * quality + 0.20 * fairness;
            Ranked {
                found,
                recent_leads: leads,
                score,
            }
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.found
            .exact
            .cmp(&a.found.exact)
            .then_with(|| b.score.total_cmp(&a.score))
            .then_with(|| a.found.company_id.cmp(&b.found.company_id))
    });
    ranked.truncate(max);
    ranked
}
