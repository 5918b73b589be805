//! Demo photos and videos of a trade's work: addresses on the demo image
//! host, typical camera sizes, albums, before and after pairs, and captions
//! that fit the trade's categories.

use super::reviews::{job_label, one};
use intake_core::categories::CategoryTree;
use intake_core::directory::record::{ImageKind, ImageRecord, DEFAULT_ALBUM};
use rand::Rng;
use time::macros::format_description;
use time::{Date, Duration};

/// Typical photo sizes, landscape and portrait.
const SIZES: &[(u32, u32)] = &[
    (1600, 1200),
    (1200, 1600),
    (2048, 1536),
    (1536, 2048),
    (1920, 1080),
    (1080, 1080),
    (4032, 3024),
    (3024, 4032),
];

/// Captions, `{}` standing for a category label in lower case.
const CAPTIONS: &[&str] = &[
    "Finished {}",
    "Before and after: {}",
    "Recent {} job",
    "Work in progress: {}",
    "Another happy customer: {}",
];

/// Letters of a YouTube id.
const YOUTUBE_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Between 0 and 8 images (three trades in ten have none), three in ten
/// without a caption; one trade in five shows a before and after pair in an
/// album of its own, and one image in twenty is a YouTube video.
pub(super) fn images(
    rng: &mut impl Rng,
    company_id: u64,
    tree: &CategoryTree,
    categories: &[u32],
    today: Date,
) -> Vec<ImageRecord> {
    let count = if rng.gen_bool(0.3) {
        0
    } else {
        rng.gen_range(1..=8)
    };
    let before_and_after = count >= 2 && rng.gen_bool(0.2);
    (1..=count)
        .map(|n| {
            let caption = rng.gen_bool(0.7).then(|| {
                let category = one(rng, categories);
                let label = job_label(rng, tree, category).to_lowercase();
                one(rng, CAPTIONS).replace("{}", &label)
            });
            let (width, height) = one(rng, SIZES);
            let day = today - Duration::days(rng.gen_range(1..=4 * 365));
            let date = day.format(format_description!("[year]-[month]-[day]")).ok();
            let paired = before_and_after && n <= 2;
            if !paired && rng.gen_bool(0.05) {
                return video(rng, company_id, n, caption, date);
            }
            let base = format!("https://images.example-trades.co.uk/work/{company_id}/{n}");
            ImageRecord {
                id: format!("img-{company_id}-{n}"),
                album_id: Some(
                    if paired {
                        "before-and-after"
                    } else {
                        DEFAULT_ALBUM
                    }
                    .to_owned(),
                ),
                kind: ImageKind::Photo,
                url: Some(format!("{base}.jpg")),
                thumbnail_url: Some(format!("{base}_thumb.jpg")),
                url_template: Some(format!("{base}_{{width}}x{{height}}.jpg")),
                description: caption,
                label: paired.then(|| if n == 1 { "Before" } else { "After" }.to_owned()),
                title: None,
                date,
                you_tube_id: None,
                width: Some(width),
                height: Some(height),
            }
        })
        .collect()
}

fn video(
    rng: &mut impl Rng,
    company_id: u64,
    n: u32,
    caption: Option<String>,
    date: Option<String>,
) -> ImageRecord {
    let id: String = (0..11)
        .map(|_| char::from(one(rng, YOUTUBE_ALPHABET)))
        .collect();
    ImageRecord {
        id: format!("video-{company_id}-{n}"),
        album_id: Some("videos".to_owned()),
        kind: ImageKind::Youtube,
        url: Some(intake_core::directory::record::youtube_url(&id)),
        thumbnail_url: None,
        url_template: None,
        description: caption,
        label: None,
        title: Some("A job from start to finish".to_owned()),
        date,
        you_tube_id: Some(id),
        width: None,
        height: None,
    }
}
