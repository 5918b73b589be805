//! Assesses the spam benchmark's six jobs a fixed number of times, for
//! counting instructions, which unlike time repeat exactly from run to run:
//! `valgrind --tool=callgrind target/release/examples/assess_many 2000`
//! (BENCHMARKS.md, "Spam assessment").

use intake_spam::SpamScreen;

#[path = "../benches/common/six_jobs.rs"]
mod six_jobs;
use six_jobs::{input, DESCRIPTIONS};
use std::hint::black_box;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let screen = SpamScreen::standard(SpamScreen::DEFAULT_THRESHOLD);
    // Warm the lazily built patterns and tables before counting matters.
    for description in DESCRIPTIONS {
        black_box(screen.assess(&input(description)));
    }
    let mut refused = 0;
    for _ in 0..rounds {
        for description in DESCRIPTIONS {
            refused += usize::from(screen.assess(&input(black_box(description))).is_spam);
        }
    }
    println!("{rounds} rounds of six jobs, {refused} refused");
}
