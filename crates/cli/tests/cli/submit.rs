use crate::helpers::{intake, run_ok, submit, with_one_trade, Server};
use serde_json::{json, Value};

#[tokio::test]
async fn intake_submit_creates_a_job_and_its_exit_code_names_each_refusal() {
    let (tmp, dir, key) = with_one_trade();
    let server = Server::start(&dir, &[], &[]);

    let job = json!({"description": "Boiler not working, no hot water", "categoryId": 1335, "email": "sam@example.com",
        "phone": "07900000000", "firstName": "Sam", "lastName": "Jones", "postcode": "SW1A 1AA"});
    let submit = |body: &Value, extra: &[&str]| submit(tmp.path(), &server, &key, body, extra);

    let created = submit(&job, &["--idempotency-key", "cli-1"]);
    assert_eq!(
        created.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let out: Value = serde_json::from_slice(&created.stdout).unwrap();
    assert_eq!(out["status"], 201);
    assert_eq!(out["replayed"], false);
    assert_eq!(out["job"]["trades"][0]["id"], 9);

    let replayed: Value =
        serde_json::from_slice(&submit(&job, &["--idempotency-key", "cli-1"]).stdout).unwrap();
    assert_eq!(
        (replayed["replayed"].clone(), replayed["job"]["id"].clone()),
        (json!(true), out["job"]["id"].clone())
    );

    let mut nowhere = job.clone();
    nowhere["postcode"] = json!("BT1 1AA");
    assert_eq!(submit(&nowhere, &[]).status.code(), Some(4), "no trade: 4");
    let mut spam = job.clone();
    spam["description"] = json!("Visit www.cheap-watches.ru for deals");
    assert_eq!(submit(&spam, &[]).status.code(), Some(5), "spam: 5");

    // The spam waits in quarantine; released, it becomes a normal job with its trades.
    let review = run_ok(&dir, &["spam", "review", "--json"]);
    let kept: Value = serde_json::from_slice(&review.stdout).unwrap();
    assert_eq!(kept.as_array().unwrap().len(), 1, "{kept}");
    assert_eq!(
        kept[0]["submission"]["description"],
        "Visit www.cheap-watches.ru for deals"
    );
    assert_eq!(kept[0]["reasons"][0]["signal"], "link");
    let id = kept[0]["id"].as_str().unwrap().to_owned();
    let released: Value =
        serde_json::from_slice(&run_ok(&dir, &["spam", "release", &id]).stdout).unwrap();
    assert_eq!(released["trades"][0]["id"], 9);
    let job_id = released["jobId"].as_str().unwrap();
    let stored = crate::helpers::client(&server, &key)
        .get_job(job_id)
        .await
        .unwrap();
    assert_eq!(stored.recipients.len(), 1);
    assert_eq!(stored.description, "Visit www.cheap-watches.ru for deals");
    let again = intake()
        .args(["spam", "release", &id, "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2), "released once only");
    let left: Value =
        serde_json::from_slice(&run_ok(&dir, &["spam", "review", "--json"]).stdout).unwrap();
    assert_eq!(left, json!([]));
    let mut invalid = job.clone();
    invalid["email"] = json!("nope");
    let refused = submit(&invalid, &[]);
    assert_eq!(refused.status.code(), Some(2), "invalid: 2");
    let out: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(out["problem"]["status"], 400);
}
