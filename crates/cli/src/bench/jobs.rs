//! Realistic, distinct jobs for the `jobs` scenario: request `n` always gets
//! the same job, and no two requests of a run share one.

use intake_core::geography::Geography;
use intake_demo::COMMON_CATEGORIES;
use serde_json::{json, Value};

/// What homeowners write, by category (COMMON_CATEGORIES order).
const DESCRIPTIONS: [&str; 12] = [
    "Kitchen tap dripping constantly and the washer seems worn, need it replaced.",
    "Two double sockets in the living room stopped working after a bang.",
    "Combi boiler losing pressure every few days, radiators going cold.",
    "Looking to build a single storey rear extension, about 4m by 5m.",
    "Several slates slipped after the storm and there is a damp patch upstairs.",
    "Hallway, stairs and landing need painting, walls and woodwork.",
    "Overgrown back garden needs clearing and the hedge cut back.",
    "End of tenancy clean for a two bedroom flat next week.",
    "Fitted wardrobes needed for an alcove in the main bedroom.",
    "Shelves to put up, a door that sticks and a curtain pole to fit.",
    "Ceiling in the back bedroom is cracked and needs replastering.",
    "Locked out of the house, key snapped in the front door lock.",
];
const FIRST: [&str; 10] = [
    "Sam", "Priya", "Tom", "Aisha", "Gareth", "Chloe", "Mohammed", "Fiona", "Liam", "Grace",
];
const LAST: [&str; 10] = [
    "Jones", "Patel", "Smith", "Khan", "Evans", "Brown", "Ali", "Campbell", "Murphy", "Taylor",
];
const STARTS: [&str; 5] = [
    "FLEXIBLE",
    "URGENT",
    "WITHIN_2_WEEKS",
    "WITHIN_1_MONTH",
    "PLANNING_AND_BUDGETING",
];

/// One postcode per GB district with coordinates.
pub fn postcodes() -> Vec<String> {
    let mut codes: Vec<String> = Geography::embedded()
        .districts()
        .map(|(district, _)| format!("{district} 1AA"))
        .collect();
    codes.sort();
    codes
}

/// Job number `n`.
pub fn job(n: u64, postcodes: &[String]) -> Value {
    let pick = |items: usize, salt: u64| {
        (n.wrapping_mul(2_654_435_761).wrapping_add(salt) % items as u64) as usize
    };
    let category = pick(COMMON_CATEGORIES.len(), 0);
    let first = FIRST[pick(FIRST.len(), 3)];
    let last = LAST[pick(LAST.len(), 7)];
    json!({
        "categoryId": COMMON_CATEGORIES[category],
        "description": format!("{} Ref {n}.", DESCRIPTIONS[category]),
        "email": format!("{}.{}{n}@example.com", first.to_lowercase(), last.to_lowercase()),
        "phone": format!("07{:09}", n % 1_000_000_000),
        "firstName": first,
        "lastName": last,
        "postcode": postcodes[pick(postcodes.len(), 11)],
        "preferredStart": {"id": STARTS[pick(STARTS.len(), 13)]},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_core::categories::CategoryTree;
    use intake_spam::{SpamInput, SpamScreen};

    #[test]
    fn every_bench_job_is_valid_and_passes_the_server_spam_screen() {
        let places = postcodes();
        let screen = SpamScreen::standard(SpamScreen::DEFAULT_THRESHOLD);
        for n in 0..500 {
            let job = intake_core::jobs::validate(&job(n, &places), CategoryTree::embedded())
                .expect("a valid job");
            let assessment = screen.assess(&SpamInput {
                description: &job.description,
                first_name: &job.first_name,
                last_name: &job.last_name,
                email: job.email.as_str(),
                phone: job.phone.as_str(),
                postcode: job.postcode.as_str(),
                history: Default::default(),
            });
            assert!(
                !assessment.is_spam,
                "job {n} classified as spam: {:?}",
                assessment.reasons
            );
        }
    }
}
