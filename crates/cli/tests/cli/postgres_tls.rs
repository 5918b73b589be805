//! `intake` on a PostgreSQL that accepts TLS connections only (a cluster the
//! test starts, `intake_test_support::postgres::TlsCluster`): `--database`
//! with `sslmode=verify-full&sslrootcert=…` works, and a certificate from
//! another CA is refused with an error that names the server and the setting
//! to change. Skipped with a note unless `INTAKE_TEST_POSTGRES_URL` is set or
//! `INTAKE_REQUIRE_POSTGRES=1`.

use crate::helpers::{data_dir, intake, run_ok};
use intake_test_support::postgres::{TlsCluster, CERTIFICATE_HOST};
use std::path::Path;

fn verify_full(ca: &Path) -> String {
    format!("sslmode=verify-full&sslrootcert={}", ca.display())
}

#[tokio::test]
async fn keys_work_under_verify_full_and_a_wrong_ca_is_refused_naming_sslrootcert() {
    let Some(cluster) = TlsCluster::start().await else {
        return;
    };
    let (_tmp, dir) = data_dir();
    let url = cluster.url(CERTIFICATE_HOST, &verify_full(&cluster.ca_certificate()));
    run_ok(
        &dir,
        &[
            "keys",
            "create",
            "--name",
            "Acme Quotes",
            "--environment",
            "staging",
            "--database",
            &url,
        ],
    );
    let listed = run_ok(&dir, &["keys", "list", "--database", &url]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("Acme Quotes"));

    let wrong = cluster.url(
        CERTIFICATE_HOST,
        &verify_full(&cluster.other_ca_certificate()),
    );
    let refused = intake()
        .args(["keys", "list", "--database", &wrong, "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(
        stderr.lines().last(),
        Some(format!("error: opening the PostgreSQL database: store error: the TLS handshake with PostgreSQL at {CERTIFICATE_HOST}:{} failed: invalid peer certificate: UnknownIssuer. The server's certificate was not issued by a CA this process trusts (the system's CA certificates and the file named by sslrootcert): set sslrootcert in the database URL to the certificate of the CA that issued it.", cluster.port()).as_str()),
        "{stderr}"
    );
}
