//! Demo reviews: how many a trade has, when they were written, how they
//! scored and what they say.

use super::review_words::{
    jobs, GENERIC_JOBS, GENERIC_TITLES, GOOD, MIXED, MIXED_TITLES, POOR, POOR_TITLES,
};
use intake_core::categories::CategoryTree;
use intake_core::directory::record::{FourScores, ReviewRecord};
use rand::Rng;
use time::{Date, Duration};

/// How far back reviews go, in days (four years).
const HISTORY_DAYS: i64 = 4 * 365;

/// What a trade's reviews are about and where they come from.
pub(super) struct Context<'a> {
    /// The tree the categories belong to.
    pub tree: &'a CategoryTree,
    /// The trade's registered categories.
    pub categories: &'a [u32],
    /// Districts near the trade's base, its own first.
    pub districts: &'a [&'a str],
    /// Reviews are written before this day.
    pub today: Date,
}

/// Between 0 and 50 reviews, oldest first: one trade in ten has none, most
/// have 5 to 20. Most trades are good (scores of 8 to 10), a few are not.
pub(super) fn reviews(rng: &mut impl Rng, context: &Context<'_>) -> Vec<ReviewRecord> {
    let count = match rng.gen_range(0..100) {
        0..=9 => 0,
        10..=24 => rng.gen_range(1..=4),
        25..=79 => rng.gen_range(5..=20),
        _ => rng.gen_range(21..=50),
    };
    let mean = match rng.gen_range(0..100) {
        0..=79 => 9.3,
        80..=94 => 8.2,
        _ => 6.5,
    };
    let mut reviews: Vec<ReviewRecord> = (0..count).map(|_| review(rng, context, mean)).collect();
    reviews.sort_by(|a, b| {
        a.created_at
            .cmp(&b.created_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    reviews
}

fn review(rng: &mut impl Rng, context: &Context<'_>, mean: f64) -> ReviewRecord {
    let raw = if rng.gen_bool(0.04) {
        rng.gen_range(1.0..5.0)
    } else {
        mean + (rng.gen::<f64>() - rng.gen::<f64>()) * 2.0
    };
    let raw: f64 = raw.clamp(1.0, 10.0);
    let score = if rng.gen_bool(0.6) {
        raw.round()
    } else {
        (raw * 10.0).round() / 10.0
    };
    let mut dimension = || {
        (score + (rng.gen::<f64>() - 0.5) * 3.0)
            .round()
            .clamp(1.0, 10.0) as u8
    };
    let breakdown = FourScores {
        reliability: dimension(),
        tidiness: dimension(),
        courtesy: dimension(),
        workmanship: dimension(),
    };
    let (title, review) = words(rng, context, score);
    let location = if rng.gen_bool(0.5) {
        context.districts[0]
    } else {
        one(rng, context.districts)
    };
    let id = uuid_shaped(rng);
    let verified = rng.gen_bool(0.85);
    let created_at = created_at(rng, context.today);
    ReviewRecord {
        id,
        title: Some(title),
        body: Some(review),
        score,
        breakdowns: breakdown.breakdowns(),
        breakdown: None,
        location: Some(location.to_owned()),
        postcode_district: None,
        verified,
        created_at,
        trade_response: trade_response(rng, score),
    }
}

/// Trades answer one review in five, and most of those they scored poorly.
fn trade_response(rng: &mut impl Rng, score: f64) -> Option<String> {
    let answer = if score < 8.0 { 0.7 } else { 0.15 };
    rng.gen_bool(answer).then(|| {
        let replies: &[&str] = if score < 8.0 {
            POOR_REPLIES
        } else {
            GOOD_REPLIES
        };
        one(rng, replies).to_owned()
    })
}

const GOOD_REPLIES: &[&str] = &[
    "Thank you for taking the time to leave a review, it was a pleasure working for you.",
    "Thanks very much, glad you are happy with the work. Give us a call any time.",
    "Many thanks for the kind words and the cup of tea!",
    "Thank you, we appreciate the recommendation.",
];

const POOR_REPLIES: &[&str] = &[
    "Sorry to read this. We have called to arrange a visit to put things right.",
    "We are sorry the job ran late. The delay was a part on back order; we should have told you sooner.",
    "Thank you for the feedback. Please get in touch so we can look at the problem again at no charge.",
];

/// A title and a text that fit one of the trade's categories and the score.
fn words(rng: &mut impl Rng, context: &Context<'_>, score: f64) -> (String, String) {
    let category = one(rng, context.categories);
    let label = job_label(rng, context.tree, category);
    let parent = context.tree.get(category).map(|c| c.parent.unwrap_or(c.id));
    let jobs = parent.map_or(&[][..], jobs);
    let (title, job) = match jobs {
        jobs if !jobs.is_empty() && rng.gen_bool(0.7) => {
            let (title, job) = one(rng, jobs);
            (title.to_owned(), job.to_owned())
        }
        _ => (
            one(rng, GENERIC_TITLES).replace("{}", label),
            one(rng, GENERIC_JOBS).replace("{}", &label.to_lowercase()),
        ),
    };
    let (title, comments) = match score {
        s if s >= 8.0 => (title, GOOD),
        s if s >= 5.0 => (one(rng, MIXED_TITLES).to_owned(), MIXED),
        _ => (one(rng, POOR_TITLES).to_owned(), POOR),
    };
    let first = rng.gen_range(0..comments.len());
    let mut text = format!("{job}. {}", comments[first]);
    if rng.gen_bool(0.5) {
        let second = (first + rng.gen_range(1..comments.len())) % comments.len();
        text.push(' ');
        text.push_str(comments[second]);
    }
    (title, text)
}

/// A day in the four years before `today`, in working hours, second precision.
fn created_at(rng: &mut impl Rng, today: Date) -> String {
    let date = today - Duration::days(rng.gen_range(1..=HISTORY_DAYS));
    let seconds = rng.gen_range(7 * 3600..22 * 3600);
    let (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    format!(
        "{:04}-{:02}-{:02}T{hour:02}:{minute:02}:{second:02}Z",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

/// A version 4 UUID made from the generator, so it is reproducible.
fn uuid_shaped(rng: &mut impl Rng) -> String {
    let mut bytes: [u8; 16] = rng.gen();
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = hex::encode(bytes);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// What a job in `category` is called: its label, or for a parent (a trade
/// name such as "Tree Surgeon") the label of one of its sub categories.
pub(super) fn job_label<'t>(rng: &mut impl Rng, tree: &'t CategoryTree, category: u32) -> &'t str {
    let subs = tree.children(category).count();
    let named = if subs > 0 {
        tree.children(category).nth(rng.gen_range(0..subs))
    } else {
        tree.get(category)
    };
    named.map_or("Home improvement", |found| found.label.as_str())
}

/// One item of a non-empty list.
pub(super) fn one<T: Copy>(rng: &mut impl Rng, items: &[T]) -> T {
    items[rng.gen_range(0..items.len())]
}
