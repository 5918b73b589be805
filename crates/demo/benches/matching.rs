//! What matching costs on the 100,000-trade demo directory the throughput
//! benchmarks use (issue 15): `cargo bench -p intake-demo --bench matching`.
//!
//! The jobs mix is `intake bench --scenario jobs`'s (twelve common
//! categories, half of them parents reaching up to 46 sub categories, at one
//! postcode per GB district); a search asks for a page of five of the same.

use criterion::{criterion_group, criterion_main, Criterion};
use intake_core::categories::CategoryTree;
use intake_core::directory::index::DirectoryIndex;
use intake_core::geography::{Geography, Location};
use intake_core::postcode::Postcode;
use intake_demo::{generate, DemoOptions, COMMON_CATEGORIES};
use std::hint::black_box;

fn matching(c: &mut Criterion) {
    let tree = CategoryTree::embedded();
    let geography = Geography::embedded();
    let index = DirectoryIndex::new(
        generate(&DemoOptions::new(100_000), tree, geography)
            .iter()
            .map(|record| {
                record
                    .clone()
                    .validate(tree, geography)
                    .expect("a demo trade is valid")
                    .indexed()
            })
            .collect(),
        tree,
    );
    let mut districts: Vec<&str> = geography
        .districts()
        .map(|(district, _)| district)
        .collect();
    districts.sort();
    let places: Vec<(Postcode, Option<Location>)> = districts
        .iter()
        .map(|district| {
            let postcode = Postcode::parse(&format!("{district} 1AA")).expect("a postcode");
            let location = geography.locate(&postcode);
            (postcode, location)
        })
        .collect();
    let asks: Vec<(u32, usize)> = (0..1_000u64)
        .map(|n| {
            let place = (n.wrapping_mul(2_654_435_761) % places.len() as u64) as usize;
            (
                COMMON_CATEGORIES[n as usize % COMMON_CATEGORIES.len()],
                place,
            )
        })
        .collect();
    c.bench_function("matching/100k demo trades/1,000 jobs' matches", |b| {
        b.iter(|| {
            let mut found = 0;
            for &(category, place) in &asks {
                let (postcode, location) = &places[place];
                found += index.matches(category, postcode, *location).len();
            }
            black_box(found)
        })
    });
    c.bench_function(
        "matching/100k demo trades/1,000 first pages of search",
        |b| {
            b.iter(|| {
                let mut found = 0;
                for &(category, place) in &asks {
                    let (postcode, location) = &places[place];
                    found += index.search_page(category, postcode, *location, 0, 5).0;
                }
                black_box(found)
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = matching
}
criterion_main!(benches);
