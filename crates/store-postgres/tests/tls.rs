//! TLS to PostgreSQL (rustls), against a cluster of each test's own that
//! accepts TLS connections only and presents a certificate for `localhost`
//! issued by a CA the test made (`intake_test_support::postgres::TlsCluster`).
//! Skipped with a note unless `INTAKE_TEST_POSTGRES_URL` is set or
//! `INTAKE_REQUIRE_POSTGRES=1` (which makes missing PostgreSQL programs a failure).

use intake_core::store::prelude::*;
use intake_store_postgres::PostgresStore;
use intake_test_support::postgres::{TlsCluster, CERTIFICATE_HOST};
use sqlx::{Connection, PgConnection};
use std::path::Path;

/// The query of a URL that verifies the server against `ca`.
fn verifying(mode: &str, ca: &Path) -> String {
    format!("sslmode={mode}&sslrootcert={}", ca.display())
}

/// Whether the server sees the connection of `url` as encrypted.
async fn encrypted(url: &str) -> bool {
    let mut connection = PgConnection::connect(url)
        .await
        .unwrap_or_else(|error| panic!("{url}: {error}"));
    let ssl: bool = sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    connection.close().await.unwrap();
    ssl
}

/// The error of opening the store on `url`, as `intake` prints it after
/// "opening the PostgreSQL database: ".
async fn refusal(url: &str) -> String {
    match PostgresStore::open(url).await {
        Ok(_) => panic!("{url} was accepted"),
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn require_verify_ca_and_verify_full_with_the_right_ca_connect_encrypted() {
    let Some(cluster) = TlsCluster::start().await else {
        return;
    };
    let ca = cluster.ca_certificate();
    let verify_full = cluster.url(CERTIFICATE_HOST, &verifying("verify-full", &ca));

    let store = PostgresStore::open(&verify_full)
        .await
        .unwrap_or_else(|error| panic!("verify-full with the right CA: {error}"));
    store.ping().await.unwrap();
    assert_eq!(store.list_keys().await.unwrap().len(), 0);
    store.close().await;

    assert!(encrypted(&verify_full).await);
    assert!(encrypted(&cluster.url(CERTIFICATE_HOST, &verifying("verify-ca", &ca))).await);
    // require encrypts without checking the certificate, so any name will do.
    assert!(encrypted(&cluster.url("127.0.0.1", "sslmode=require")).await);
}

#[tokio::test]
async fn a_server_certificate_from_an_untrusted_ca_is_refused_with_a_clear_error() {
    let Some(cluster) = TlsCluster::start().await else {
        return;
    };
    let server = format!("{CERTIFICATE_HOST}:{}", cluster.port());
    let other_ca = cluster.other_ca_certificate();
    let untrusted = [
        verifying("verify-full", &other_ca),
        verifying("verify-ca", &other_ca),
        // Without sslrootcert only the system's CAs are trusted.
        "sslmode=verify-full".to_owned(),
    ];
    for query in untrusted {
        let error = refusal(&cluster.url(CERTIFICATE_HOST, &query)).await;
        assert_eq!(
            error,
            format!("store error: the TLS handshake with PostgreSQL at {server} failed: invalid peer certificate: UnknownIssuer. The server's certificate was not issued by a CA this process trusts (the system's CA certificates and the file named by sslrootcert): set sslrootcert in the database URL to the certificate of the CA that issued it."),
            "{query}"
        );
    }

    let missing = verifying("verify-full", Path::new("/nonexistent/ca.crt"));
    let error = refusal(&cluster.url(CERTIFICATE_HOST, &missing)).await;
    assert!(
        error.contains("the CA certificate file named by sslrootcert cannot be read"),
        "{error}"
    );
}

#[tokio::test]
async fn a_certificate_for_another_host_name_is_refused_under_verify_full_and_verify_ca() {
    let Some(cluster) = TlsCluster::start().await else {
        return;
    };
    let ca = cluster.ca_certificate();
    // libpq's verify-ca would accept this connection; sqlx 0.8 (with rustls
    // from 0.23.24) checks the name as verify-full does (transact-rs/sqlx#3793,
    // fixed in 0.9). When this starts to connect under verify-ca, update
    // "TLS to PostgreSQL" in docs/operations.md.
    for mode in ["verify-full", "verify-ca"] {
        let error = refusal(&cluster.url("127.0.0.1", &verifying(mode, &ca))).await;
        assert!(
            error.contains("certificate not valid for name \"127.0.0.1\""),
            "{mode}: {error}"
        );
        assert!(
            error.contains("The server's certificate does not name the host in the database URL"),
            "{mode}: {error}"
        );
    }
}

#[tokio::test]
async fn a_connection_without_tls_is_refused_by_the_server() {
    let Some(cluster) = TlsCluster::start().await else {
        return;
    };
    let error = refusal(&cluster.url(CERTIFICATE_HOST, "sslmode=disable")).await;
    assert!(
        error.contains("no pg_hba.conf entry for host \"127.0.0.1\"")
            && error.contains("no encryption"),
        "{error}"
    );
}
