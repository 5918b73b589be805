//! Property: a submission that fails validation (a control character in a
//! member included) or authentication leaves the store exactly as it was.

use crate::helpers::{job_body, spawn_app, trade, TestApp, TestKey};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Bad values for each member; at least one is always used.
fn bad_values(field: &str) -> Vec<Value> {
    match field {
        "categoryId" => vec![
            json!(0),
            json!(-5),
            json!("12a"),
            json!(1.5),
            json!(999_999),
            json!(null),
            json!([20]),
            json!("13\u{85}35"),
        ],
        "description" => vec![
            json!(""),
            json!("too short"),
            json!(42),
            json!(null),
            json!("x".repeat(5001)),
            json!("Boiler not working,\u{0} no hot water since Monday."),
        ],
        "email" => vec![
            json!("nope"),
            json!("a@b"),
            json!(""),
            json!(7),
            json!("Sam <sam@example.com>"),
            json!("sam@example.com\r\nBcc: all@example.com"),
        ],
        "phone" => vec![
            json!("1234"),
            json!("phone"),
            json!("+1234567890123456"),
            json!(7900000000u64),
            json!("07900\t000000"),
        ],
        "firstName" | "lastName" => vec![
            json!(""),
            json!("   "),
            json!(null),
            json!({}),
            json!("Sam\u{1b}[31m"),
        ],
        "postcode" => vec![
            json!("XYZ"),
            json!("SW1A 1AAX"),
            json!(""),
            json!(12345),
            json!("Z\nZ FORGED-LINE\u{1b}[31m"),
        ],
        "address" => vec![
            json!("10 Downing St"),
            json!({"line1": "x"}),
            json!({"line1": "x", "city": "y", "postcode": "bad"}),
            json!({"line1": "x\u{7f}", "city": "y", "postcode": "SW1A 2AA"}),
        ],
        _ => vec![
            json!({"id": "SOON"}),
            json!("URGENT"),
            json!({"id": "URGENT", "date": "tomorrow"}),
            json!({"id": "URGENT\n"}),
        ],
    }
}

const FIELDS: [&str; 9] = [
    "categoryId",
    "description",
    "email",
    "phone",
    "firstName",
    "lastName",
    "postcode",
    "address",
    "preferredStart",
];

fn invalid_body() -> impl Strategy<Value = Value> {
    (
        proptest::sample::subsequence(FIELDS.to_vec(), 1..=FIELDS.len()),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(broken, seed, drop)| {
            let mut body = job_body();
            for (n, field) in broken.iter().enumerate() {
                let values = bad_values(field);
                if drop && n == 0 && !matches!(*field, "address" | "preferredStart") {
                    body.as_object_mut().unwrap().remove(*field);
                } else {
                    body[*field] = values[(seed as usize + n) % values.len()].clone();
                }
            }
            body
        })
}

async fn setup() -> (TestApp, TestKey) {
    let app = spawn_app().await;
    let key = app.staging_key().await;
    app.import(vec![trade(1, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0)])
        .await;
    (app, key)
}

#[test]
fn an_invalid_body_leaves_the_store_unchanged() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (app, key) = runtime.block_on(setup());
    let before = runtime.block_on(app.counts());
    proptest!(ProptestConfig::with_cases(64), |(body in invalid_body())| {
        let status = runtime.block_on(async { app.post_json(&key, "/jobs", &body, &[("idempotency-key", "prop")]).await.status().as_u16() });
        prop_assert_eq!(status, 400, "{}", body);
        prop_assert_eq!(runtime.block_on(app.counts()), before);
    });
}

#[test]
fn a_failed_signature_leaves_the_store_unchanged() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (app, key) = runtime.block_on(setup());
    let before = runtime.block_on(app.counts());
    proptest!(ProptestConfig::with_cases(32), |(tamper in 0usize..5, byte in any::<u8>())| {
        let status = runtime.block_on(async {
            let bytes = serde_json::to_vec(&job_body()).unwrap();
            let mut request = app.client(&key).signed_request(reqwest::Method::POST, "/jobs", Some(("application/json", bytes.clone()))).unwrap();
            let headers = request.headers_mut();
            match tamper {
                // Body changed after signing (the digest is covered).
                0 => {
                    let mut changed = bytes;
                    let at = changed.len() / 2;
                    changed[at] = if changed[at] == byte { byte.wrapping_add(1) } else { byte };
                    *request.body_mut() = Some(changed.into());
                }
                // Signature bytes changed.
                1 => {
                    let value = headers["authorization"].to_str().unwrap().replacen("signature=\"", "signature=\"AAAA", 1);
                    headers.insert("authorization", value.parse().unwrap());
                }
                // Signed by a key that does not exist.
                2 => {
                    let value = headers["authorization"].to_str().unwrap().replace(&key.key_id, "stg_unknown");
                    headers.insert("authorization", value.parse().unwrap());
                }
                // A stale date.
                3 => {
                    headers.insert("date", httpdate::fmt_http_date(std::time::SystemTime::now() - std::time::Duration::from_secs(3600)).parse().unwrap());
                }
                // No signature at all.
                _ => {
                    headers.remove("authorization");
                }
            }
            app.http.execute(request).await.unwrap().status().as_u16()
        });
        prop_assert_eq!(status, 401);
        prop_assert_eq!(runtime.block_on(app.counts()), before);
    });
}
