//! A PostgreSQL cluster of a test's own that accepts TLS connections only:
//! a CA and a server certificate made for it (`rcgen`), `initdb` in a
//! temporary folder, `ssl = on` and a `pg_hba.conf` whose one line is
//! `hostssl`, so a plain connection has no entry. The shared test server
//! cannot be used for this: its TLS settings are not the test's to change.
//!
//! PostgreSQL refuses to run as root, so under root (CI, these machines) the
//! cluster runs as the `postgres` user, which owns its folder.

use super::{REQUIRE_VARIABLE, URL_VARIABLE};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
use sqlx::{Connection, PgConnection};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// Where PostgreSQL's programs are, when not under `/usr/lib/postgresql/*/bin`.
pub const BIN_VARIABLE: &str = "INTAKE_TEST_POSTGRES_BIN";

/// The one host name on the server's certificate: a URL that names
/// `127.0.0.1` reaches the same server under a name the certificate lacks.
pub const CERTIFICATE_HOST: &str = "localhost";

/// How long a new cluster may take to accept a connection.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running TLS-only cluster; stopped and deleted with this value.
#[derive(Debug)]
pub struct TlsCluster {
    server: Child,
    port: u16,
    folder: TempDir,
}

impl TlsCluster {
    /// Starts a cluster, or returns `None` (with a note on standard error)
    /// when PostgreSQL tests are not asked for: neither
    /// `INTAKE_TEST_POSTGRES_URL` nor `INTAKE_REQUIRE_POSTGRES=1` is set, or
    /// only the URL is and PostgreSQL's programs are not installed. Panics
    /// when they are required and missing, or when the cluster fails.
    pub async fn start() -> Option<TlsCluster> {
        let required = std::env::var(REQUIRE_VARIABLE).as_deref() == Ok("1");
        let asked = std::env::var(URL_VARIABLE).is_ok_and(|url| !url.is_empty());
        if !required && !asked {
            eprintln!("note: neither {URL_VARIABLE} nor {REQUIRE_VARIABLE}=1 is set; skipping a test that starts a TLS-only PostgreSQL cluster");
            return None;
        }
        let Some(bin) = binaries() else {
            let missing = format!("PostgreSQL's initdb and postgres were found neither under /usr/lib/postgresql/*/bin nor in {BIN_VARIABLE}");
            assert!(!required, "{REQUIRE_VARIABLE}=1 but {missing}");
            eprintln!("note: {missing}; skipping a test that starts a TLS-only PostgreSQL cluster");
            return None;
        };
        Some(Self::start_with(&bin).await)
    }

    async fn start_with(bin: &Path) -> TlsCluster {
        let folder = tempfile::Builder::new()
            .prefix("intake-tls-pg-")
            .tempdir()
            .expect("a temporary folder");
        let owner = Owner::for_postgres();
        owner.give(folder.path());
        let certificates = Certificates::write(folder.path(), &owner);

        let data = folder.path().join("data");
        let initdb = owner
            .command(&bin.join("initdb"), folder.path())
            .arg("--pgdata")
            .arg(&data)
            .args([
                "--username=postgres",
                "--auth=trust",
                "--no-sync",
                "--no-locale",
                "--encoding=UTF8",
            ])
            .output()
            .expect("initdb runs");
        assert!(
            initdb.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&initdb.stderr)
        );

        let port = free_port();
        std::fs::write(
            data.join("pg_hba.conf"),
            "# TLS only: no `local` or `host` line, so a plain connection has no entry.\n\
             hostssl all all 127.0.0.1/32 trust\n",
        )
        .expect("pg_hba.conf written");
        let settings = format!(
            "\nlisten_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = ''\n\
             ssl = on\nssl_cert_file = '{}'\nssl_key_file = '{}'\n\
             fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n\
             max_connections = 20\nshared_buffers = 16MB\n",
            certificates.server_certificate.display(),
            certificates.server_key.display(),
        );
        let mut conf = std::fs::OpenOptions::new()
            .append(true)
            .open(data.join("postgresql.conf"))
            .expect("postgresql.conf opens");
        std::io::Write::write_all(&mut conf, settings.as_bytes()).expect("postgresql.conf written");

        let log = std::fs::File::create(folder.path().join("postgres.log")).expect("a log file");
        let server = owner
            .command(&bin.join("postgres"), folder.path())
            .arg("-D")
            .arg(&data)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the log file"))
            .stderr(log)
            .spawn()
            .expect("postgres starts");
        let mut cluster = TlsCluster {
            server,
            port,
            folder,
        };
        cluster.wait_until_ready().await;
        cluster
    }

    /// Waits until a TLS connection succeeds, failing with the server's log
    /// if the server exits or takes too long.
    async fn wait_until_ready(&mut self) {
        let url = self.url(CERTIFICATE_HOST, "sslmode=require");
        let started = Instant::now();
        loop {
            if let Ok(connection) = PgConnection::connect(&url).await {
                let _ = connection.close().await;
                return;
            }
            let exited = self.server.try_wait().expect("the server's status");
            if exited.is_some() || started.elapsed() > START_TIMEOUT {
                panic!(
                    "the TLS-only PostgreSQL cluster did not start ({exited:?}):\n{}",
                    self.log()
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// `postgres://postgres@HOST:PORT/postgres?QUERY`: `host` is
    /// [`CERTIFICATE_HOST`] or `127.0.0.1`; `query` names the `sslmode` and
    /// any `sslrootcert`.
    pub fn url(&self, host: &str, query: &str) -> String {
        format!("postgres://postgres@{host}:{}/postgres?{query}", self.port)
    }

    /// The port the cluster listens on, on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The certificate of the CA that signed the server's certificate.
    pub fn ca_certificate(&self) -> PathBuf {
        self.folder.path().join(Certificates::CA)
    }

    /// The certificate of a CA that signed nothing this server presents.
    pub fn other_ca_certificate(&self) -> PathBuf {
        self.folder.path().join(Certificates::OTHER_CA)
    }

    /// What the server has written to its log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.folder.path().join("postgres.log")).unwrap_or_default()
    }
}

impl Drop for TlsCluster {
    fn drop(&mut self) {
        // SIGINT is PostgreSQL's fast shutdown: sessions are ended, not waited for.
        let pid = rustix::process::Pid::from_child(&self.server);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::INT);
        let asked = Instant::now();
        while asked.elapsed() < Duration::from_secs(10) {
            if !matches!(self.server.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// The folder of `initdb` and `postgres`: `INTAKE_TEST_POSTGRES_BIN`, else
/// the newest `/usr/lib/postgresql/*/bin` (Debian's layout).
fn binaries() -> Option<PathBuf> {
    let has_both = |bin: &Path| bin.join("initdb").is_file() && bin.join("postgres").is_file();
    if let Some(bin) = std::env::var_os(BIN_VARIABLE) {
        return Some(PathBuf::from(bin)).filter(|bin| has_both(bin));
    }
    let versions = std::fs::read_dir("/usr/lib/postgresql").ok()?;
    versions
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, bin)| has_both(bin))
        .max_by_key(|(version, _)| *version)
        .map(|(_, bin)| bin)
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// The user the cluster runs as: `postgres` under root, else the test's own.
struct Owner {
    ids: Option<(u32, u32)>,
}

impl Owner {
    fn for_postgres() -> Owner {
        if !rustix::process::geteuid().is_root() {
            return Owner { ids: None };
        }
        let passwd = std::fs::read_to_string("/etc/passwd").expect("/etc/passwd");
        let ids = passwd
            .lines()
            .map(|line| line.split(':').collect::<Vec<_>>())
            .find(|fields| fields.first() == Some(&"postgres"))
            .and_then(|fields| Some((fields.get(2)?.parse().ok()?, fields.get(3)?.parse().ok()?)))
            .expect("tests run as root, and PostgreSQL refuses root: a `postgres` user is needed");
        Owner { ids: Some(ids) }
    }

    /// Makes `path` the cluster user's.
    fn give(&self, path: &Path) {
        if let Some((uid, gid)) = self.ids {
            std::os::unix::fs::chown(path, Some(uid), Some(gid)).expect("chown");
        }
    }

    /// `program` to run as the cluster user, in `folder`.
    fn command(&self, program: &Path, folder: &Path) -> Command {
        let mut command = Command::new(program);
        command.current_dir(folder).env_remove("PGDATA");
        if let Some((uid, gid)) = self.ids {
            command.uid(uid).gid(gid);
        }
        command
    }
}

/// The PEM files of one cluster, in its folder.
struct Certificates {
    server_certificate: PathBuf,
    server_key: PathBuf,
}

impl Certificates {
    const CA: &'static str = "ca.crt";
    const OTHER_CA: &'static str = "other-ca.crt";

    /// A CA, a server certificate it signs for [`CERTIFICATE_HOST`] only,
    /// and a second CA that signs nothing.
    fn write(folder: &Path, owner: &Owner) -> Certificates {
        let (ca, ca_key) = certificate_authority("intake test CA");
        let (other_ca, _) = certificate_authority("intake test CA that signed nothing here");
        let server_key = KeyPair::generate().expect("a key pair");
        let mut params =
            CertificateParams::new(vec![CERTIFICATE_HOST.to_owned()]).expect("server names");
        params
            .distinguished_name
            .push(DnType::CommonName, CERTIFICATE_HOST);
        let server = params
            .signed_by(&server_key, &ca, &ca_key)
            .expect("a server certificate");

        let written = Certificates {
            server_certificate: folder.join("server.crt"),
            server_key: folder.join("server.key"),
        };
        std::fs::write(folder.join(Self::CA), ca.pem()).expect("ca.crt written");
        std::fs::write(folder.join(Self::OTHER_CA), other_ca.pem()).expect("other-ca.crt written");
        std::fs::write(&written.server_certificate, server.pem()).expect("server.crt written");
        // PostgreSQL refuses a key file that others may read.
        write_private(&written.server_key, &server_key.serialize_pem());
        owner.give(&written.server_certificate);
        owner.give(&written.server_key);
        written
    }
}

fn certificate_authority(name: &str) -> (rcgen::Certificate, KeyPair) {
    let key = KeyPair::generate().expect("a key pair");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let certificate = params.self_signed(&key).expect("a CA certificate");
    (certificate, key)
}

fn write_private(path: &Path, text: &str) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .expect("a private file");
    file.write_all(text.as_bytes())
        .expect("a private file written");
}
