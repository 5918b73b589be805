//! Retention: records removed by age, in bounded batches (`Store::expired_jobs`,
//! `delete_jobs`, `purge_quarantine`, `purge_deliveries`, and
//! `purge_idempotency` by expiry). Times are controlled: every record is
//! written at a simulated time and purged as of one.

use crate::fixtures::{directory, new_job, quarantined_at};
use intake_core::delivery::Outcome;
use intake_core::jobs::NewJob;
use intake_core::store::{ExpiredJob, Store};
use std::collections::BTreeSet;
use std::time::Duration as StdDuration;
use time::{Duration, OffsetDateTime};

/// A production job received at `at`, with one photo and a record of its
/// own scope that expires a day later.
fn job_at(id: &str, at: OffsetDateTime) -> NewJob {
    let mut job = new_job(id, &format!("k:prd_key:{id}"), Duration::days(1));
    job.received_at = at;
    job.idempotency[0].expires_at = at + Duration::days(1);
    job.images[0].object_key = format!("jobs/{id}/1.jpg");
    job
}

/// A whole second, so that every backend stores the times exactly.
fn start() -> OffsetDateTime {
    (OffsetDateTime::now_utc() - Duration::days(60))
        .replace_nanosecond(0)
        .unwrap()
}

/// Expired jobs come oldest first, at most `limit` of them, each with its
/// photos' keys; a job received exactly at the cut-off is kept. Deleting
/// them takes their recipients, photos' records and deliveries (pending ones
/// too), and ids already gone are skipped.
pub async fn old_jobs_go_oldest_first_with_everything_written_with_them(store: &dyn Store) {
    directory(store).await;
    let start = start();
    for (id, day) in [("j-c", 2), ("j-a", 0), ("j-b", 1), ("j-d", 3)] {
        store
            .create_job(&job_at(id, start + Duration::days(day)))
            .await
            .unwrap();
    }
    let before = start + Duration::days(2);
    let expired = store.expired_jobs(before, 10).await.unwrap();
    let photo = |id: &str| ExpiredJob {
        id: id.to_owned(),
        image_keys: vec![format!("jobs/{id}/1.jpg")],
    };
    assert_eq!(expired, [photo("j-a"), photo("j-b")]);
    assert_eq!(store.expired_jobs(before, 1).await.unwrap(), [photo("j-a")]);

    let counts = store.counts().await.unwrap();
    assert_eq!(
        (counts.jobs, counts.recipients, counts.deliveries),
        (4, 8, 12)
    );
    let ids = ["j-a".to_owned(), "j-b".to_owned(), "j-gone".to_owned()];
    assert_eq!(store.delete_jobs(&ids).await.unwrap(), 2);
    assert_eq!(store.delete_jobs(&ids).await.unwrap(), 0);
    assert!(store.job("j-a").await.unwrap().is_none());
    assert!(store.job("j-c").await.unwrap().is_some());
    let counts = store.counts().await.unwrap();
    assert_eq!(
        (counts.jobs, counts.recipients, counts.deliveries),
        (2, 4, 6)
    );
    assert!(store.expired_jobs(before, 10).await.unwrap().is_empty());
}

/// Forty simulated days of jobs, spam and leads, purged each day as the
/// retention task does: every table stays at what its period holds, pending
/// leads stay until their job goes, and every expired job's photo keys are
/// handed out for removal exactly once.
pub async fn every_table_stays_bounded_under_daily_purges(store: &dyn Store) {
    const JOBS: Duration = Duration::days(10);
    const QUARANTINE: Duration = Duration::days(5);
    const DELIVERIES: Duration = Duration::days(3);
    directory(store).await;
    let start = start();
    let mut photos_out = Vec::new();
    for day in 0..40_i64 {
        let now = start + Duration::days(day);
        // Two jobs a day; the first's leads are delivered at once, the
        // second's stay pending.
        let (sent, waiting) = (format!("d{day}-sent"), format!("d{day}-waiting"));
        store.create_job(&job_at(&sent, now)).await.unwrap();
        store.create_job(&job_at(&waiting, now)).await.unwrap();
        store
            .quarantine(&quarantined_at(&format!("q{day}"), now))
            .await
            .unwrap();
        let claimed = store
            .claim_deliveries(now, StdDuration::from_secs(60), 100)
            .await
            .unwrap();
        for delivery in claimed.iter().filter(|d| d.job_id == sent) {
            assert!(store
                .finish_delivery(&delivery.id, delivery.attempts, &Outcome::Delivered, now)
                .await
                .unwrap());
        }

        store.purge_idempotency(now).await.unwrap();
        loop {
            let expired = store.expired_jobs(now - JOBS, 3).await.unwrap();
            if expired.is_empty() {
                break;
            }
            let ids: Vec<String> = expired.iter().map(|job| job.id.clone()).collect();
            photos_out.extend(expired.into_iter().flat_map(|job| job.image_keys));
            store.delete_jobs(&ids).await.unwrap();
        }
        while store.purge_quarantine(now - QUARANTINE, 2).await.unwrap() > 0 {}
        while store.purge_deliveries(now - DELIVERIES, 2).await.unwrap() > 0 {}

        let kept_days = |period: Duration| (day.min(period.whole_days()) + 1) as u64;
        let counts = store.counts().await.unwrap();
        let jobs = 2 * kept_days(JOBS);
        assert_eq!(counts.jobs, jobs, "jobs on day {day}");
        assert_eq!(counts.recipients, 2 * jobs, "recipients on day {day}");
        // Records expire a day after their job: only today's are unexpired.
        assert_eq!(counts.idempotency, 2, "idempotency records on day {day}");
        // Three leads a job: the delivered ones for the deliveries' period,
        // the pending ones as long as their job.
        assert_eq!(
            counts.deliveries,
            3 * kept_days(DELIVERIES) + 3 * kept_days(JOBS),
            "deliveries on day {day}"
        );
        let quarantined = store.quarantined(true).await.unwrap().len() as u64;
        assert_eq!(
            quarantined,
            kept_days(QUARANTINE),
            "quarantine on day {day}"
        );
    }
    let expected: BTreeSet<String> = (0..40 - 11)
        .flat_map(|day| {
            [
                format!("jobs/d{day}-sent/1.jpg"),
                format!("jobs/d{day}-waiting/1.jpg"),
            ]
        })
        .collect();
    assert_eq!(
        photos_out.len(),
        expected.len(),
        "each photo key handed out once"
    );
    assert_eq!(photos_out.into_iter().collect::<BTreeSet<_>>(), expected);
}
