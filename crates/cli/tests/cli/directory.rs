use crate::helpers::{data_dir, intake, run_ok};
use std::io::Write;

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    path
}

const GOOD: &str = r#"{"companyId":1,"companyName":"Acme Plumbing","basePostcode":"SW1A 1AA","coverage":{"radiusMiles":10},"categories":[20],"delivery":{"email":"jobs@acme.co.uk"}}"#;

#[test]
fn a_trades_file_with_bad_lines_is_refused_whole_with_every_problem_by_line() {
    let (tmp, dir) = data_dir();
    let file = write(
        tmp.path(),
        "trades.jsonl",
        &format!(
            "{GOOD}\n{}\nnot json\n{}\n",
            r#"{"companyId":2,"companyName":" ","basePostcode":"NOPE","coverage":{},"categories":[999999],"delivery":{}}"#,
            GOOD.replace("Acme Plumbing", "Acme Again")
        ),
    );
    let output = intake()
        .args(["import", "trades"])
        .arg(&file)
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for expected in [
        "nothing was changed",
        "line 2: companyName must not be blank",
        "line 2: basePostcode",
        "line 2: coverage needs radiusMiles or districts",
        "line 2: categories: 999999 is not a known category",
        "line 2: delivery needs webhookUrl or email",
        "line 3: not a trade record",
        "line 4: companyId 1 was already given on line 1",
    ] {
        assert!(
            stderr.contains(expected),
            "missing `{expected}` in:\n{stderr}"
        );
    }
    // Nothing was written: importing the good line alone inserts it as new.
    let good = write(tmp.path(), "good.jsonl", &format!("{GOOD}\n"));
    let output = run_ok(&dir, &["import", "trades", good.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("1 new, 0 replaced"));
    let output = run_ok(&dir, &["import", "trades", good.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("0 new, 1 replaced"));
}

#[test]
fn a_category_file_is_checked_first_and_written_all_or_nothing() {
    let (tmp, dir) = data_dir();
    let bad = write(
        tmp.path(),
        "bad.json",
        r#"[{"id":1,"label":"Plumber","subcategories":[{"id":1,"label":"Taps"},{"id":3,"label":"  ","subcategories":[{"id":4,"label":"Deep"}]}]}]"#,
    );
    let output = intake()
        .args(["import", "categories"])
        .arg(&bad)
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("duplicate id 1"), "{stderr}");
    assert!(stderr.contains("label"), "{stderr}");

    let good = write(
        tmp.path(),
        "good.json",
        r#"[{"id":1,"label":"Plumber","name":"plumber","subcategories":[{"id":2,"label":"Taps","name":"taps"}]}]"#,
    );
    let output = run_ok(&dir, &["import", "categories", good.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("imported 2 categories (1 parents)"));
    // Trades are now checked against the operator's tree: 20 is no longer a category.
    let trades = write(tmp.path(), "t.jsonl", GOOD);
    let output = intake()
        .args(["import", "trades"])
        .arg(&trades)
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&output.stderr).contains("20 is not a known category"));
}

#[test]
fn demo_data_is_the_same_for_the_same_seed_and_imports_cleanly() {
    let (tmp, dir) = data_dir();
    let first = tmp.path().join("a.jsonl");
    let second = tmp.path().join("b.jsonl");
    run_ok(
        &dir,
        &[
            "demo-data",
            "--trades",
            "300",
            "--output",
            first.to_str().unwrap(),
        ],
    );
    run_ok(
        &dir,
        &[
            "demo-data",
            "--trades",
            "300",
            "--output",
            second.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&first).unwrap();
    assert_eq!(text.lines().count(), 300);
    assert_eq!(text, std::fs::read_to_string(&second).unwrap());
    let output = run_ok(&dir, &["import", "trades", first.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("300 new"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[tokio::test]
async fn the_first_serve_on_an_empty_store_loads_a_demo_directory_that_search_finds() {
    let (_tmp, dir) = data_dir();
    let key = crate::helpers::create_key(&dir, "staging");
    let server = crate::helpers::Server::start_with_demo_data(&dir, &[], &[]);
    assert!(server.log().contains("loading a demo directory"));
    let client = crate::helpers::client(&server, &key);
    // Plumbers (20) in Westminster, and in a remote Highland district.
    for postcode in ["SW1A%201AA", "IV27%204AA", "ZE1%200AA"] {
        let response = client
            .send(
                reqwest::Method::GET,
                &format!("/trades/search?postcode={postcode}&category=20"),
                None,
            )
            .await
            .unwrap();
        let body: serde_json::Value = response.json().await.unwrap();
        assert!(
            body["meta"]["totalResults"].as_u64().unwrap() >= 1,
            "{postcode}: {body}"
        );
    }
    drop(server);
    // A second start finds the directory there and loads nothing more.
    let server = crate::helpers::Server::start_with_demo_data(&dir, &[], &[]);
    assert!(!server.log().contains("loading a demo directory"));
}
