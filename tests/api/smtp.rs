//! A real SMTP server for the mail tests: Python's aiosmtpd on 127.0.0.1, filing each message
//! it receives in a maildir (its built-in `Mailbox` handler), stopped when dropped.
//!
//! The Python is $MURMUR_TEST_PYTHON (default: the virtualenv `scripts/install-test-deps.sh`
//! makes in ~/.cache/murmur/test-services). Without it the tests that need the server are
//! skipped with a printed reason, unless MURMUR_REQUIRE_SERVICES=1 (CI) makes that a failure.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct SmtpServer {
    child: Child,
    pub port: u16,
    dir: tempfile::TempDir,
}

impl SmtpServer {
    /// Starts the server and waits until it accepts connections; None when it cannot run here
    /// (and that is allowed).
    pub async fn start() -> Option<SmtpServer> {
        let python = python_path();
        if let Err(reason) = check_python(&python) {
            if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
                panic!("MURMUR_REQUIRE_SERVICES=1 but the SMTP test server cannot run: {reason}");
            }
            eprintln!("skipped: this test needs a real SMTP server ({reason}); run scripts/install-test-deps.sh");
            return None;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let child = Command::new(&python)
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(dir.path().join("maildir"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", python.display()));
        let mut server = SmtpServer { child, port, dir };
        server.wait_until_listening().await;
        Some(server)
    }

    /// `smtp://127.0.0.1:<port>` (plain SMTP: the server offers no TLS).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Where received messages are filed (read them with `mailbox`).
    pub fn maildir(&self) -> PathBuf {
        self.dir.path().join("maildir")
    }

    async fn wait_until_listening(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the SMTP test server exited early with {status}");
            }
            assert!(Instant::now() < deadline, "the SMTP test server did not listen on port {} within 20 s", self.port);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn python_path() -> PathBuf {
    match std::env::var("MURMUR_TEST_PYTHON") {
        Ok(p) if !p.is_empty() => PathBuf::from(p),
        _ => {
            let home = std::env::var("HOME").unwrap_or_default();
            Path::new(&home).join(".cache/murmur/test-services/venv/bin/python")
        }
    }
}

fn check_python(python: &Path) -> Result<(), String> {
    if !python.exists() {
        return Err(format!("{} does not exist", python.display()));
    }
    let status = Command::new(python)
        .args(["-c", "import aiosmtpd"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("{} does not run: {e}", python.display()))?;
    if !status.success() {
        return Err(format!("{} has no aiosmtpd module", python.display()));
    }
    Ok(())
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}
