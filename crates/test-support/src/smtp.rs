//! A real SMTP server for the e-mail lead tests.

use std::time::Duration;

/// A real SMTP server: Python `aiosmtpd` on a free port, writing each message
/// into a Maildir (tests/interop/install.sh installs it).
pub struct SmtpSink {
    port: u16,
    dir: tempfile::TempDir,
    _process: tokio::process::Child,
}

const SMTP_SINK: &str = r#"
import asyncio, sys
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP

async def main():
    handler = Mailbox(sys.argv[1])
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler, hostname="localhost"), "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()

asyncio.run(main())
"#;

impl SmtpSink {
    /// Starts the sink, or `None` (with a note) when Python or aiosmtpd is
    /// missing, unless `INTAKE_REQUIRE_INTEROP=1` demands it.
    pub async fn start() -> Option<SmtpSink> {
        use tokio::io::AsyncBufReadExt;
        let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned());
        let present = std::process::Command::new(&python)
            .args(["-c", "import aiosmtpd"])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !present {
            let note = "Python aiosmtpd is not installed (bash tests/interop/install.sh)";
            assert!(
                std::env::var("INTAKE_REQUIRE_INTEROP").as_deref() != Ok("1"),
                "{note}"
            );
            eprintln!("skipped: {note}");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut process = tokio::process::Command::new(&python)
            .arg("-c")
            .arg(SMTP_SINK)
            // A folder that does not exist yet: Maildir makes it with its subfolders.
            .arg(dir.path().join("maildir"))
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdout = process.stdout.take().unwrap();
        let mut line = String::new();
        tokio::time::timeout(
            Duration::from_secs(20),
            tokio::io::BufReader::new(stdout).read_line(&mut line),
        )
        .await
        .expect("the SMTP sink starts")
        .unwrap();
        Some(SmtpSink {
            port: line.trim().parse().expect("the SMTP sink prints its port"),
            dir,
            _process: process,
        })
    }

    /// `smtp://127.0.0.1:PORT` (plain, as on a local relay).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received, as raw text.
    pub fn messages(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.dir.path().join("maildir").join("new")) else {
            return Vec::new();
        };
        entries
            .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
            .collect()
    }
}
