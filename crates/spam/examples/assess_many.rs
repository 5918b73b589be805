//! Assesses the spam benchmark's six jobs a fixed number of times, for
//! counting instructions, which unlike time repeat exactly from run to run:
//! `valgrind --tool=callgrind target/release/examples/assess_many 2000`
//! (BENCHMARKS.md, "Spam assessment").

use intake_spam::{SpamInput, SpamScreen};
use std::hint::black_box;

const DESCRIPTIONS: [&str; 6] = [
    "Boiler not working, no hot water",
    "Kitchen tap dripping constantly and the washer seems worn, need it replaced. Ref 1234.",
    "We would like a quote to rewire a three bedroom semi in SE1, about 1930s, consumer unit is old \
     and there are still a few round-pin sockets upstairs. Flexible on dates, prefer weekdays. £ budget \
     around 4,000 to 6,000 depending on what is needed. Loft is boarded and easy to get into.",
    "Buy cheap watches at www.cheap-watches.ru best prices",
    "asdf asdf asdf",
    "Roof tiles blown off in storm!!!!!!! need someone ASAP",
];

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

fn input(description: &str) -> SpamInput<'_> {
    SpamInput {
        description,
        first_name: "Sam",
        last_name: "Jones",
        email: "sam.jones@example.com",
        phone: "07900000000",
        postcode: "SW1A 1AA",
        history: Default::default(),
    }
}
