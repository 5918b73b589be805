//! Throwaway PostgreSQL databases for test suites (the store's, the
//! server's, the CLI's): each test gets its own, created through an admin
//! connection to `INTAKE_TEST_POSTGRES_URL` and dropped when the test ends,
//! pass or fail; a proxy that takes the server away and gives it back; and a
//! TLS-only cluster of a test's own.

mod outage;
mod tls_cluster;

pub use outage::OutageProxy;
pub use tls_cluster::{TlsCluster, BIN_VARIABLE, CERTIFICATE_HOST};

use sqlx::{Connection, Executor, PgConnection};

/// The server to test against.
pub const URL_VARIABLE: &str = "INTAKE_TEST_POSTGRES_URL";
/// Set to `1` to make a missing server a failure instead of a skip (CI).
pub const REQUIRE_VARIABLE: &str = "INTAKE_REQUIRE_POSTGRES";

/// The admin URL of the test server, or `None` (with a note on standard
/// error) when none is configured. Panics when none is configured but
/// `INTAKE_REQUIRE_POSTGRES=1`.
pub fn admin_url() -> Option<String> {
    match std::env::var(URL_VARIABLE) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var(REQUIRE_VARIABLE).as_deref() == Ok("1") => {
            panic!("{REQUIRE_VARIABLE}=1 but {URL_VARIABLE} is not set")
        }
        _ => {
            eprintln!("note: {URL_VARIABLE} is not set; skipping a PostgreSQL test");
            None
        }
    }
}

/// A database of its own, dropped with this value.
#[derive(Debug)]
pub struct TestDatabase {
    admin_url: String,
    name: String,
    /// The URL of the new database.
    pub url: String,
}

impl TestDatabase {
    /// Creates `intake_t_<uuid>` on the server of `admin_url`.
    pub async fn create(admin_url: &str) -> Result<Self, sqlx::Error> {
        let name = format!("intake_t_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(admin_url).await?;
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await?;
        let _ = admin.close().await;
        Ok(TestDatabase {
            url: with_database(admin_url, &name)?,
            admin_url: admin_url.to_owned(),
            name,
        })
    }

    /// The `host:port` of the server, for an [`OutageProxy`].
    pub fn server_address(&self) -> String {
        use std::str::FromStr;
        let options = sqlx::postgres::PgConnectOptions::from_str(&self.url)
            .expect("the test database has a PostgreSQL URL");
        format!("{}:{}", options.get_host(), options.get_port())
    }

    /// A fresh database on the configured test server, or `None` to skip.
    pub async fn from_env() -> Option<Self> {
        let admin_url = admin_url()?;
        Some(
            Self::create(&admin_url)
                .await
                .unwrap_or_else(|error| panic!("creating a test database failed: {error}")),
        )
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop runs inside the test's runtime, which cannot be blocked on:
        // the database is dropped from a thread with a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime for dropping a test database");
            runtime.block_on(async move {
                let mut admin = PgConnection::connect(&admin_url).await?;
                admin
                    .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await?;
                admin.close().await
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("note: test database {} was not dropped", self.name);
        }
    }
}

/// `admin_url` with its database replaced by `name`.
fn with_database(admin_url: &str, name: &str) -> Result<String, sqlx::Error> {
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (admin_url, String::new()),
    };
    let authority_start = base.find("://").map(|i| i + 3).ok_or_else(|| {
        sqlx::Error::Configuration(format!("not a PostgreSQL URL: {admin_url}").into())
    })?;
    let host_end = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    Ok(format!("{}/{name}{query}", &base[..host_end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_of_a_url_is_replaced() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "x").unwrap(),
            "postgres://postgres@127.0.0.1:5432/x"
        );
        assert_eq!(
            with_database("postgresql://u:p@h/db?sslmode=disable", "x").unwrap(),
            "postgresql://u:p@h/x?sslmode=disable"
        );
        assert_eq!(
            with_database("postgres://h:5433", "x").unwrap(),
            "postgres://h:5433/x"
        );
    }
}
