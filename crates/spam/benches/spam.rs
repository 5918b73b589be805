//! What one spam assessment costs (issue 6 asks for at most 50 µs a job):
//! `cargo bench -p intake-core --bench spam`.

use criterion::{criterion_group, criterion_main, Criterion};
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
