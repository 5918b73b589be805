//! Why opening the store failed at TLS, in words an operator can act on.
//!
//! sqlx reports a refused server certificate as an I/O error ("error
//! communicating with database: invalid peer certificate: UnknownIssuer"),
//! which reads like an outage and names neither the server nor the setting
//! to change. The URL's `sslmode` and `sslrootcert` are what decide it
//! (docs/operations.md, "TLS to PostgreSQL").

use intake_core::store::StoreError;
use rustls::CertificateError;
use sqlx::postgres::{PgConnectOptions, PgSslMode};

/// The error of connecting with `options`: a TLS failure explained, any
/// other as the store reports it.
pub(crate) fn connect_error(error: sqlx::Error, options: &PgConnectOptions) -> StoreError {
    let server = format!("{}:{}", options.get_host(), options.get_port());
    match &error {
        sqlx::Error::Io(io) => {
            let refused = io
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<rustls::Error>());
            if let Some(refused) = refused {
                return StoreError::Other(format!(
                    "the TLS handshake with PostgreSQL at {server} failed: {refused}. {}",
                    hint(refused)
                ));
            }
            // Connecting never fails as "not found": reading sslrootcert does.
            if io.kind() == std::io::ErrorKind::NotFound && verifies(options.get_ssl_mode()) {
                return StoreError::Other(format!(
                    "the CA certificate file named by sslrootcert cannot be read ({io}): give its path as this process sees it."
                ));
            }
        }
        sqlx::Error::Tls(reason) => {
            return StoreError::Other(format!(
                "TLS to PostgreSQL at {server} failed: {reason}. Check sslmode and sslrootcert in the database URL (docs/operations.md, \"TLS to PostgreSQL\")."
            ));
        }
        _ => {}
    }
    error.into()
}

fn verifies(mode: PgSslMode) -> bool {
    matches!(mode, PgSslMode::VerifyCa | PgSslMode::VerifyFull)
}

/// What to change for a refused handshake.
fn hint(error: &rustls::Error) -> &'static str {
    match error {
        rustls::Error::InvalidCertificate(
            CertificateError::UnknownIssuer | CertificateError::BadSignature,
        ) => "The server's certificate was not issued by a CA this process trusts (the system's CA certificates and the file named by sslrootcert): set sslrootcert in the database URL to the certificate of the CA that issued it.",
        rustls::Error::InvalidCertificate(
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
        ) => "The server's certificate does not name the host in the database URL: connect by a host name or address the certificate lists. With this build sslmode=verify-ca checks the name as verify-full does (docs/operations.md).",
        rustls::Error::InvalidCertificate(
            CertificateError::Expired
            | CertificateError::ExpiredContext { .. }
            | CertificateError::NotValidYet
            | CertificateError::NotValidYetContext { .. },
        ) => "The server's certificate is outside its validity period: renew it, or check this machine's clock.",
        _ => "Check sslmode and sslrootcert in the database URL (docs/operations.md, \"TLS to PostgreSQL\").",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn options(url: &str) -> PgConnectOptions {
        PgConnectOptions::from_str(url).unwrap()
    }

    fn refused(certificate: CertificateError) -> sqlx::Error {
        sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(certificate),
        ))
    }

    #[test]
    fn an_unknown_issuer_names_the_server_and_sslrootcert() {
        let error = connect_error(
            refused(CertificateError::UnknownIssuer),
            &options("postgres://u:secret@db.example:5433/intake?sslmode=verify-full"),
        );
        let text = error.to_string();
        assert!(matches!(error, StoreError::Other(_)), "{text}");
        assert!(text.contains("db.example:5433"), "{text}");
        assert!(text.contains("UnknownIssuer"), "{text}");
        assert!(text.contains("set sslrootcert"), "{text}");
        assert!(!text.contains("secret"), "{text}");
    }

    #[test]
    fn a_missing_sslrootcert_file_is_named_as_such() {
        let error = connect_error(
            sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::NotFound)),
            &options("postgres://u@db/intake?sslmode=verify-ca&sslrootcert=/nowhere/ca.crt"),
        );
        assert!(
            error.to_string().contains("sslrootcert cannot be read"),
            "{error}"
        );
    }

    #[test]
    fn an_error_that_is_not_tls_is_left_as_the_store_reports_it() {
        let error = connect_error(
            sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused)),
            &options("postgres://u@db/intake?sslmode=require"),
        );
        assert!(matches!(error, StoreError::Unavailable(_)), "{error}");
    }
}
