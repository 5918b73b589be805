//! schemathesis, an independent API fuzzer, against the OpenAPI document the
//! server serves: requests generated from the document (valid and invalid),
//! each signed by `tests/interop/python/schemathesis_signing.py`, must never
//! get a 5xx, and every answer must be one the document describes (status,
//! content type, headers, body schema).
//!
//! schemathesis is installed by `tests/interop/install.sh`. Without it the
//! test is skipped, unless `INTAKE_REQUIRE_INTEROP=1` (CI) makes its absence
//! a failure.

use crate::helpers::{create_key, data_dir, run_ok, Server};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The version `tests/interop/install.sh` pins.
const VERSION: &str = "4.32.5";

/// Test cases per operation in the fuzzing phase (the examples and coverage
/// phases add their own): about 1,100 requests in all, about 20 s in a debug
/// build on two busy cores.
const MAX_EXAMPLES: &str = "100";

/// The checks run on every answer: no server error, and conformance to the
/// document. (Not schemathesis's guesses about what a valid or invalid
/// request should get, which the document does not promise.)
const CHECKS: &str = "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether python3 can run the pinned schemathesis, or why not.
fn installed() -> Result<(), String> {
    let check = format!(
        "import importlib.metadata, sys, schemathesis; sys.exit(importlib.metadata.version('schemathesis') != '{VERSION}')"
    );
    let status = Command::new("python3")
        .args(["-c", &check])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        _ => Err(format!("python3 cannot import schemathesis {VERSION}")),
    }
}

#[test]
fn schemathesis_finds_no_server_error_and_no_answer_the_openapi_document_does_not_describe() {
    if let Err(why) = installed() {
        if std::env::var("INTAKE_REQUIRE_INTEROP").as_deref() == Ok("1") {
            panic!("{why}; run tests/interop/install.sh");
        }
        eprintln!("skipped: {why}; run tests/interop/install.sh");
        return;
    }
    let (tmp, dir) = data_dir();
    run_ok(&dir, &["demo-data", "--trades", "1000"]);
    let key = create_key(&dir, "staging");
    let server = Server::start(
        &dir,
        &[],
        &[
            // `signature verified` shows that the hook signs as the server checks.
            ("RUST_LOG", "info,intake_server::auth=debug"),
            ("INTAKE_RATE_LIMIT_PER_SECOND", "0"),
            ("INTAKE_MAX_IN_FLIGHT_PER_KEY", "0"),
        ],
    );
    let document = format!("{}/v1/affiliate-job/openapi.json", server.base_url());
    let hooks = repo_root().join("tests/interop/python/schemathesis_signing.py");
    let run = Command::new("python3")
        .args(["-m", "schemathesis.cli", "run", &document])
        .args(["--url", &server.base_url()])
        .args(["--checks", CHECKS])
        .args(["--max-examples", MAX_EXAMPLES])
        .args(["--phases", "examples,coverage,fuzzing"])
        // The same cases every run, so that a failure can be run again.
        .args(["--seed", "13", "--generation-database", "none"])
        .args(["--request-timeout", "30", "--workers", "2", "--no-color"])
        .env("SCHEMATHESIS_HOOKS", &hooks)
        .env("INTAKE_KEY_ID", &key.key_id)
        .env("INTAKE_KEY_SECRET", &key.secret)
        // Reports and caches go to the test's directory, not the repository.
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .output()
        .expect("run python3 -m schemathesis.cli");
    let stdout = String::from_utf8_lossy(&run.stdout);
    for line in stdout.lines() {
        eprintln!("  [schemathesis] {line}");
    }
    for line in String::from_utf8_lossy(&run.stderr).lines() {
        eprintln!("  [schemathesis stderr] {line}");
    }
    assert!(
        run.status.success(),
        "schemathesis found answers outside the document (see above); server log:\n{}",
        server.log()
    );
    let verified = server.log().matches("signature verified").count();
    assert!(
        verified >= 100,
        "only {verified} generated requests passed the signature check: the hook does not sign as the server checks"
    );
}
