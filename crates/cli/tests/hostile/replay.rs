//! Replayed signatures. A signature over `date` alone, taken from a read,
//! cannot carry a job; a signed job sent again, byte for byte, gets the
//! first answer again and never makes a second job.

use crate::raw::{exchange, request};
use crate::target::{job, pairs, Target, API, FULL};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_date_only_signature_taken_from_a_read_is_refused_on_post_jobs_and_no_job_is_created() {
    let target = Target::start(&[]);
    let options = format!("{API}/preferred-start-options");
    let read = target.signed("GET", &options, b"", &["date"], None);
    let answer = exchange(
        target.address(),
        &request("GET", &options, &pairs(&read), b""),
    )
    .await
    .answer();
    assert_eq!(answer.status, 200, "{answer:?}");

    // What an eavesdropper has: the read's Host, Date and Authorization;
    // the job is its own.
    let mut taken = pairs(&read);
    taken.push(("content-type", "application/json"));
    let body = serde_json::to_vec(&job()).unwrap();
    let path = format!("{API}/jobs");
    let answer = exchange(target.address(), &request("POST", &path, &taken, &body))
        .await
        .answer();
    assert_eq!(answer.status, 401, "{answer:?}");
    assert_eq!(answer.header("www-authenticate"), Some("Signature"));
    let detail = answer.detail();
    assert!(
        detail.contains("already used for another request"),
        "{detail}"
    );
    let counts = target.counts().await;
    assert_eq!((counts.jobs, counts.idempotency), (0, 0), "{counts:?}");
    target.assert_peak_rss_within_budget("a moved signature");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_signed_job_sent_twice_makes_one_job_and_the_repeat_gets_the_first_answer() {
    let target = Target::start(&[]);
    let path = format!("{API}/jobs");
    // As the Rust client signs, and with `date` alone (bound to its first request).
    for (n, covered) in [&FULL[..], &["date"][..]].into_iter().enumerate() {
        let mut body = job();
        body["email"] = json!(format!("homeowner.{n}@example.com"));
        body["phone"] = json!(format!("0790000000{n}"));
        let body = serde_json::to_vec(&body).unwrap();
        let headers = target.signed("POST", &path, &body, covered, None);
        let sent = request("POST", &path, &pairs(&headers), &body);

        let first = exchange(target.address(), &sent).await.answer();
        assert_eq!(first.status, 201, "{covered:?}: {first:?}");
        assert_eq!(first.header("idempotency-replayed"), None);
        let again = exchange(target.address(), &sent).await.answer();
        assert_eq!(again.status, 201, "{covered:?}: {again:?}");
        assert_eq!(again.header("idempotency-replayed"), Some("true"));
        assert_eq!(again.body, first.body, "{covered:?}: the first answer");
        assert_eq!(target.counts().await.jobs, n as u64 + 1, "{covered:?}");
    }
    target.assert_peak_rss_within_budget("a repeated job");
}
