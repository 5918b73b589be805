//! What one spam assessment costs (issue 6 asks for at most 50 µs a job):
//! `cargo bench -p intake-spam --bench spam`.

use criterion::{criterion_group, criterion_main, Criterion};
use intake_spam::SpamScreen;

#[path = "common/six_jobs.rs"]
mod six_jobs;
use six_jobs::{input, DESCRIPTIONS};
use std::hint::black_box;

fn assess(c: &mut Criterion) {
    for (name, screen) in [
        ("first_rules", SpamScreen::default()),
        (
            "standard",
            SpamScreen::standard(SpamScreen::DEFAULT_THRESHOLD),
        ),
    ] {
        c.bench_function(&format!("spam/{name}/six mixed jobs"), |b| {
            b.iter(|| {
                for description in DESCRIPTIONS {
                    black_box(screen.assess(&input(black_box(description))));
                }
            })
        });
    }
}

criterion_group!(benches, assess);
criterion_main!(benches);
