//! A person's data: their jobs found by e-mail address (any ASCII case) or
//! by phone number (any written form of the same UK number), their
//! quarantined submissions removed by id, and the scrub after an erasure.

use crate::fixtures::{new_job, quarantined_at};
use intake_core::jobs::NewJob;
use intake_core::store::{Person, Store};
use time::{Duration, OffsetDateTime};

/// A job of `email` and `phone` (as the homeowner wrote it), received
/// `minutes` minutes after a fixed start.
fn job_of(id: &str, email: &str, phone: &str, minutes: i64) -> NewJob {
    let mut job = new_job(id, &format!("k:prd_key:{id}"), Duration::hours(1));
    let value = serde_json::json!({"categoryId": 1335, "description": "Boiler not working, no hot water",
        "email": email, "phone": phone, "firstName": "Sam", "lastName": "Jones", "postcode": "SW1A 1AA"});
    job.job =
        intake_core::jobs::validate(&value, intake_core::categories::CategoryTree::embedded())
            .expect("a valid job");
    job.received_at =
        OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap() + Duration::minutes(minutes);
    job
}

pub async fn a_persons_jobs_are_found_by_email_or_by_phone_in_any_form(store: &dyn Store) {
    for job in [
        job_of("p-2", "Sam.Jones@Example.com", "+44 7700 900123", 2),
        job_of("p-1", "sam.jones@example.com", "07700 900123", 1),
        job_of("p-3", "other@example.com", "0044 7700 900123", 3),
        job_of("p-4", "sam.jones@example.org", "07700 900124", 4),
    ] {
        store.create_job(&job).await.unwrap();
    }
    let email = Person::Email("SAM.JONES@example.COM".to_owned());
    assert_eq!(store.jobs_of(&email).await.unwrap(), ["p-1", "p-2"]);
    for written in ["07700900123", "+447700900123", "+44 (0)7700 900 123"] {
        let phone = Person::Phone(written.to_owned());
        assert_eq!(
            store.jobs_of(&phone).await.unwrap(),
            ["p-1", "p-2", "p-3"],
            "{written}"
        );
    }
    let nobody = Person::Email("nobody@example.com".to_owned());
    assert!(store.jobs_of(&nobody).await.unwrap().is_empty());
}

pub async fn quarantined_submissions_are_removed_by_id_and_the_store_scrubbed(store: &dyn Store) {
    for id in ["q-1", "q-2", "q-3"] {
        store
            .quarantine(&quarantined_at(
                id,
                OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap(),
            ))
            .await
            .unwrap();
    }
    let ids = ["q-1".to_owned(), "q-3".to_owned(), "q-gone".to_owned()];
    assert_eq!(store.delete_quarantined(&ids).await.unwrap(), 2);
    let left: Vec<String> = store
        .quarantined(true)
        .await
        .unwrap()
        .into_iter()
        .map(|entry| entry.id)
        .collect();
    assert_eq!(left, ["q-2"]);
    store.scrub().await.unwrap();
}
