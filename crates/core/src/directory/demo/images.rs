//! Demo photos of a trade's work: addresses on the demo image host, typical
//! camera sizes, and captions that fit the trade's categories.

use super::reviews::{job_label, one};
use crate::categories::CategoryTree;
use intake_api::trades::Image;
use rand::Rng;

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

/// Between 0 and 8 photos (three trades in ten have none), three in ten without a caption.
pub(super) fn images(
    rng: &mut impl Rng,
    company_id: u64,
    tree: &CategoryTree,
    categories: &[u32],
) -> Vec<Image> {
    let count = if rng.gen_bool(0.3) {
        0
    } else {
        rng.gen_range(1..=8)
    };
    (1..=count)
        .map(|n| {
            let caption = rng.gen_bool(0.7).then(|| {
                let category = one(rng, categories);
                let label = job_label(rng, tree, category).to_lowercase();
                one(rng, CAPTIONS).replace("{}", &label)
            });
            let (width, height) = one(rng, SIZES);
            let base = format!("https://images.example-trades.co.uk/work/{company_id}/{n}");
            Image {
                id: format!("img-{company_id}-{n}"),
                url: format!("{base}.jpg"),
                thumbnail_url: format!("{base}_thumb.jpg"),
                caption,
                width,
                height,
            }
        })
        .collect()
}
