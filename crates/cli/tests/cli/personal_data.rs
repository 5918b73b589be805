//! `intake jobs export` and `intake jobs erase` against a running service:
//! a person found by e-mail or by phone in any written form; erased from
//! jobs, leads, quarantine and photos, with no byte of their e-mail, phone
//! or names left in the SQLite files (database and WAL) afterwards.

use crate::helpers::{data_dir, intake, photo, Server};
use intake_test_support::postgres::TestDatabase;
use serde_json::{json, Value};
use std::path::Path;

const TRADES: &str = r#"{"companyId":9,"companyName":"Westminster Heating","basePostcode":"SW1A 2AA","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@wh.co.uk"}}"#;

/// The person the tests are about: no other record holds these.
const EMAIL: &str = "zebedee.quillfeather@example.net";
const FIRST: &str = "Zebedee";
const LAST: &str = "Quillfeather";
const PHONE_DIGITS: &str = "7700900461";

fn job(email: &str, phone: &str, first: &str, last: &str, description: &str) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"description": description, "categoryId": 1335, "email": email,
        "phone": phone, "firstName": first, "lastName": last, "postcode": "SW1A 1AA"}),
    )
    .unwrap()
}

/// Where the service keeps its data: a data dir, and a PostgreSQL database
/// when one is given.
struct Place<'a> {
    dir: &'a Path,
    database: Option<&'a str>,
}

impl Place<'_> {
    /// `intake ARGS` on this place: exit code, standard output and error.
    fn run(&self, args: &[&str]) -> (Option<i32>, String, String) {
        let mut command = intake();
        command.args(args).arg("--data-dir").arg(self.dir);
        if let Some(url) = self.database {
            command.args(["--database", url]);
        }
        let output = command.env("RUST_LOG", "warn").output().unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, Some(0), "intake {args:?}: {err}");
        out
    }

    fn jobs(&self, args: &[&str]) -> (Option<i32>, String, String) {
        let args: Vec<&str> = ["jobs"].into_iter().chain(args.iter().copied()).collect();
        self.run(&args)
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[tokio::test]
async fn a_person_is_exported_then_erased_down_to_the_bytes_of_the_database_files() {
    let (tmp, dir) = data_dir();
    export_then_erase(&tmp, &dir, None).await;
    // Nothing of the person in the database's files, while the service ran.
    let mut scanned = 0;
    for file in ["intake.db", "intake.db-wal"] {
        let Ok(bytes) = std::fs::read(dir.join(file)) else {
            continue;
        };
        scanned += 1;
        for needle in NEEDLES {
            assert!(!contains(&bytes, needle), "{needle} is still in {file}");
        }
    }
    assert!(scanned >= 1);
    // The neighbour's job is still whole, so the scan finds what is there.
    let database = std::fs::read(dir.join("intake.db")).unwrap();
    let wal = std::fs::read(dir.join("intake.db-wal")).unwrap_or_default();
    assert!(contains(&database, "Next-Door") || contains(&wal, "Next-Door"));
}

#[tokio::test]
async fn a_person_is_exported_then_erased_from_every_row_on_postgres() {
    let Some(database) = TestDatabase::from_env().await else {
        return;
    };
    let (tmp, dir) = data_dir();
    export_then_erase(&tmp, &dir, Some(&database.url)).await;
    // No row of any table holds the person, read as text whole.
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(tables.iter().any(|t| t == "jobs") && tables.iter().any(|t| t == "quarantine"));
    let holding = |needle: &'static str| {
        let pool = pool.clone();
        let tables = tables.clone();
        async move {
            let mut found = Vec::new();
            for table in tables {
                let count: i64 = sqlx::query_scalar(&format!(
                    "SELECT count(*) FROM \"{table}\" AS r WHERE r::text ILIKE '%' || $1 || '%'"
                ))
                .bind(needle)
                .fetch_one(&pool)
                .await
                .unwrap();
                if count > 0 {
                    found.push(table);
                }
            }
            found
        }
    };
    for needle in NEEDLES {
        assert!(
            holding(needle).await.is_empty(),
            "{needle} is still in {:?}",
            holding(needle).await
        );
    }
    assert_eq!(
        holding("Next-Door").await,
        ["jobs"],
        "the scan finds what is there"
    );
    pool.close().await;
    drop(database);
}

/// What must not be found after the erasure.
const NEEDLES: [&str; 5] = [EMAIL, "Zebedee.Quillfeather", FIRST, LAST, PHONE_DIGITS];

/// Writes the person's jobs and spam and a neighbour's job through a running
/// service, exports the person by phone and by e-mail, erases them by e-mail
/// and checks what is left through the commands and the photo folder.
async fn export_then_erase(tmp: &tempfile::TempDir, dir: &Path, database: Option<&str>) {
    let place = Place { dir, database };
    let key: Value = serde_json::from_str(&place.ok(&[
        "keys",
        "create",
        "--name",
        "Acme Quotes",
        "--environment",
        "staging",
        "--json",
    ]))
    .unwrap();
    let trades = tmp.path().join("trades.jsonl");
    std::fs::write(&trades, TRADES).unwrap();
    place.ok(&["import", "trades", trades.to_str().unwrap()]);
    let server = match database {
        Some(url) => Server::start(dir, &["--database", url], &[]),
        None => Server::start(dir, &[], &[]),
    };
    let signed = intake_client::Client::new(
        &server.base_url(),
        key["keyId"].as_str().unwrap(),
        key["secret"].as_str().unwrap(),
    )
    .unwrap();

    // The person's two jobs, the phone written two ways, each with a photo;
    // a neighbour's job with a photo; the person's spam, quarantined.
    let mut ids = Vec::new();
    for (n, (email, phone, first, last)) in [
        (EMAIL, "07700 900461", FIRST, LAST),
        (
            "Zebedee.Quillfeather@Example.NET",
            "+44 7700 900461",
            FIRST,
            LAST,
        ),
        ("neighbour@example.net", "07700 900999", "Nora", "Next-Door"),
    ]
    .into_iter()
    .enumerate()
    {
        let body = job(
            email,
            phone,
            first,
            last,
            "Boiler not working, no hot water since Monday",
        );
        let outcome = signed
            .create_job_with_images(body, vec![(format!("boiler-{n}.png"), photo(n + 1))], None)
            .await
            .unwrap();
        assert_eq!(outcome.status, 201);
        ids.push(outcome.created.id);
    }
    let spam = job(
        EMAIL,
        "07700900461",
        FIRST,
        LAST,
        "Visit www.cheap-watches.ru for deals",
    );
    let refused = signed
        .create_job_from_json(spam, &intake_client::new_idempotency_key())
        .await;
    assert!(refused.is_err(), "the spam is refused and quarantined");
    assert_eq!(files(&dir.join("images")).len(), 3);

    let (code, out, err) = place.jobs(&["export", "--phone", "+44 (0)7700 900 461"]);
    assert_eq!(code, Some(0), "{err}");
    let export: Value = serde_json::from_str(&out).unwrap();
    let exported: Vec<&str> = export["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|job| job["id"].as_str().unwrap())
        .collect();
    assert_eq!(exported, [ids[0].as_str(), ids[1].as_str()]);
    assert_eq!(export["jobs"][0]["consumer"]["firstName"], FIRST);
    assert_eq!(export["jobs"][0]["images"].as_array().unwrap().len(), 1);
    assert_eq!(export["quarantined"].as_array().unwrap().len(), 1);
    assert_eq!(export["quarantined"][0]["submission"]["lastName"], LAST);
    assert_eq!(
        export["quarantined"][0]["decision"],
        serde_json::Value::Null
    );
    let (_, by_email, _) = place.jobs(&["export", "--email", "ZEBEDEE.QUILLFEATHER@example.net"]);
    let by_email: Value = serde_json::from_str(&by_email).unwrap();
    assert_eq!(by_email["jobs"], export["jobs"]);
    assert_eq!(by_email["quarantined"], export["quarantined"]);

    let (code, out, err) = place.jobs(&["erase", "--email", EMAIL]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("erased 2 jobs (2 photos, 0 leads, of which 0 pending and now never sent) and 1 quarantined submissions"),
        "{out}"
    );
    let (_, after, _) = place.jobs(&["export", "--phone", "07700900461"]);
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        (after["jobs"].clone(), after["quarantined"].clone()),
        (json!([]), json!([]))
    );
    let (_, neighbour, _) = place.jobs(&["export", "--email", "neighbour@example.net"]);
    let neighbour: Value = serde_json::from_str(&neighbour).unwrap();
    assert_eq!(neighbour["jobs"][0]["id"], ids[2].as_str());
    assert_eq!(
        files(&dir.join("images")).len(),
        1,
        "only the neighbour's photo is left"
    );

    // One job alone, by id.
    let once = signed
        .create_job_from_json(
            job(
                "olga@example.net",
                "07700 900777",
                "Olga",
                "Once",
                "Leaking tap in the kitchen",
            ),
            &intake_client::new_idempotency_key(),
        )
        .await
        .unwrap();
    let (code, out, err) = place.jobs(&["erase", "--job", &once.created.id]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("erased 1 jobs (0 photos"), "{out}");
    let (_, olga, _) = place.jobs(&["export", "--email", "olga@example.net"]);
    assert_eq!(
        serde_json::from_str::<Value>(&olga).unwrap()["jobs"],
        json!([])
    );
    let (code, _, err) = place.jobs(&["erase", "--job", "no-such-job"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("there is no job `no-such-job`"), "{err}");
    let (code, _, err) = place.jobs(&["erase", "--phone", "call me"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("`call me` is not a phone number"), "{err}");
    let (code, _, err) = place.jobs(&["erase"]);
    assert_eq!(code, Some(2), "{err}");
    drop(server);
}
