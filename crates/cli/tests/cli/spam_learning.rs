//! Operators' decisions feed training: `intake spam confirm` and `release`
//! keep the text (without contact details) with the model version that
//! judged it, `intake spam train --with-decisions` stores a model trained
//! with them, and a running server screens with it (docs/spam.md).

use crate::helpers::{intake, run_ok, submit, with_one_trade, Server};
use serde_json::{json, Value};
use sqlx::Connection;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn corpus() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/spam/corpus")
        .to_string_lossy()
        .into_owned()
}

#[tokio::test]
async fn decisions_are_kept_without_contact_details_and_a_model_trained_with_them_is_used() {
    let (tmp, dir, key) = with_one_trade();
    let server = Server::start(&dir, &[], &[("INTAKE_DIRECTORY_REFRESH_SECONDS", "1")]);
    let submit = |description: &str| {
        let body = json!({"description": description, "categoryId": 1335, "email": "sam@example.com",
            "phone": "07900000000", "firstName": "Sam", "lastName": "Jones", "postcode": "SW1A 1AA"});
        submit(tmp.path(), &server, &key, &body, &[]).status.code()
    };
    let pitch = "Glitter wizardry for your taps at www.glitter.example, call 07700 900456 or mail deals@glitter.example";
    assert_eq!(submit(pitch), Some(5), "spam: 5");
    assert_eq!(submit("Visit www.cheap-watches.ru for deals"), Some(5));
    let review = |all: bool| -> Value {
        let mut args = vec!["spam", "review", "--json"];
        if all {
            args.push("--all");
        }
        serde_json::from_slice(&run_ok(&dir, &args).stdout).unwrap()
    };
    let kept = review(false);
    let id_of = |description: &str| {
        kept.as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["submission"]["description"] == description)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (pitch_id, watches_id) = (id_of(pitch), id_of("Visit www.cheap-watches.ru for deals"));
    let embedded = kept[0]["modelVersion"].as_str().unwrap().to_owned();
    assert_eq!(embedded.len(), 12, "{kept}");
    let listed = String::from_utf8_lossy(&run_ok(&dir, &["spam", "review"]).stdout).into_owned();
    assert!(listed.contains(&format!("model: {embedded}")), "{listed}");

    let confirmed: Value =
        serde_json::from_slice(&run_ok(&dir, &["spam", "confirm", &pitch_id]).stdout).unwrap();
    assert_eq!(confirmed, json!({"confirmed": pitch_id, "verdict": "spam"}));
    let again = intake()
        .args(["spam", "confirm", &pitch_id, "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2), "decided once only");
    run_ok(&dir, &["spam", "release", &watches_id]);
    assert_eq!(review(false), json!([]));
    let all = review(true);
    let decisions: Vec<_> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["decision"].clone())
        .collect();
    assert!(
        decisions.contains(&json!("spam")) && decisions.contains(&json!("ham")),
        "{all}"
    );

    // The decisions as stored: text without contact details, the verdict, the version.
    let mut db =
        sqlx::SqliteConnection::connect(&format!("sqlite://{}", dir.join("intake.db").display()))
            .await
            .unwrap();
    let rows: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT verdict, description, model_version FROM spam_decisions ORDER BY verdict",
    )
    .fetch_all(&mut db)
    .await
    .unwrap();
    db.close().await.unwrap();
    assert_eq!(
        rows,
        vec![
            ("ham".to_owned(), "Visit www.cheap-watches.ru for deals".to_owned(), Some(embedded.clone())),
            (
                "spam".to_owned(),
                "Glitter wizardry for your taps at www.glitter.example, call [phone] or mail [email]".to_owned(),
                Some(embedded.clone())
            ),
        ]
    );

    let eval = run_ok(
        &dir,
        &["spam", "eval", "--data", &corpus(), "--with-decisions"],
    );
    let eval = String::from_utf8_lossy(&eval.stdout).into_owned();
    assert!(
        eval.contains("with 2 operators' decisions added to training:"),
        "{eval}"
    );

    let train_with_decisions = || {
        intake()
            .args([
                "spam",
                "train",
                "--with-decisions",
                "--data",
                &corpus(),
                "--data-dir",
            ])
            .arg(&dir)
            .output()
            .unwrap()
    };
    let trained = train_with_decisions();
    let said = String::from_utf8_lossy(&trained.stdout).into_owned();
    assert_eq!(
        trained.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&trained.stderr)
    );
    let version = said
        .split("stored model ")
        .nth(1)
        .and_then(|rest| rest.get(..12))
        .unwrap_or_else(|| panic!("{said}"))
        .to_owned();
    assert_ne!(version, embedded);

    // The running server takes it within its refresh interval.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !server.log().contains(&format!("version={version}")) {
        assert!(
            Instant::now() < deadline,
            "the server never took model {version}:\n{}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(server
        .log()
        .contains("screening with the spam model from the store"));

    let repeated = train_with_decisions();
    assert_eq!(
        repeated.status.code(),
        Some(3),
        "the same model is stored once"
    );
}
