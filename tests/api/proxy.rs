//! Behind a real reverse proxy: Debian's Caddy in front of a real `murmur serve` that trusts it
//! (`--trusted-proxies 127.0.0.1`), with visitors on different loopback addresses (each client
//! binds its own socket). Skipped, saying why, without Caddy, unless MURMUR_REQUIRE_SERVICES=1.
//!
//! SQLite only: the proxy decides whose allowance a request spends, not how it is counted, and
//! the counting itself is tested on both databases elsewhere (`accounts`).

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::json;
use tokio::process::{Child, Command};

use crate::processes::{Server, free_port};

/// `caddy run` with a Caddyfile that sends everything on its port to `upstream`.
struct Caddy {
    child: Child,
    base: String,
    log: PathBuf,
}

impl Caddy {
    /// The installed Caddy; None (the test is skipped) without one, unless
    /// MURMUR_REQUIRE_SERVICES=1.
    fn binary() -> Option<PathBuf> {
        let binary =
            std::env::var("MURMUR_TEST_CADDY").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from("/usr/bin/caddy"));
        if binary.exists() {
            return Some(binary);
        }
        let hint = "install Debian's caddy (scripts/install-test-deps.sh does)";
        if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
            panic!("MURMUR_REQUIRE_SERVICES=1 but caddy is missing at {}; {hint}", binary.display());
        }
        eprintln!("skipped: reverse proxy test (caddy not found at {}; {hint})", binary.display());
        None
    }

    /// Starts Caddy on `port` and waits until a request reaches `upstream` through it.
    async fn start(binary: &Path, dir: &Path, port: u16, upstream: &str) -> Caddy {
        let caddyfile = dir.join("Caddyfile");
        // Nothing outside `dir`: no admin endpoint; its saved configuration and storage in `dir`.
        std::fs::write(
            &caddyfile,
            format!(
                "{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {}\n}}\n\n\
                 http://127.0.0.1:{port} {{\n\tbind 127.0.0.1\n\treverse_proxy {upstream}\n}}\n",
                dir.join("storage").display()
            ),
        )
        .unwrap();
        let log = dir.join("caddy.log");
        let child = Command::new(binary)
            .args(["run", "--adapter", "caddyfile", "--config"])
            .arg(&caddyfile)
            .env("HOME", dir)
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_DATA_HOME", dir.join("data"))
            .stdout(Stdio::null())
            .stderr(Stdio::from(std::fs::File::create(&log).unwrap()))
            .kill_on_drop(true)
            .spawn()
            .expect("caddy starts");
        let mut caddy = Caddy { child, base: format!("http://127.0.0.1:{port}"), log };
        let probe = reqwest::Client::new();
        for _ in 0..600 {
            if let Ok(r) = probe.get(format!("{}/healthz", caddy.base)).send().await
                && r.status() == 200
            {
                return caddy;
            }
            if caddy.child.try_wait().unwrap().is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("caddy did not pass requests on; its log:\n{}", std::fs::read_to_string(&caddy.log).unwrap_or_default());
    }
}

/// A visitor's client on its own loopback address, sending the instance's public origin.
fn visitor_at(address: &str, public_url: &str) -> reqwest::Client {
    let origin = reqwest::header::HeaderValue::from_str(public_url).unwrap();
    reqwest::Client::builder()
        .local_address(address.parse::<IpAddr>().unwrap())
        .default_headers([(reqwest::header::ORIGIN, origin)].into_iter().collect())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// Asks for a login link for an address of its own, so only the per-network limit can refuse.
async fn ask_for_a_login_link(client: &reqwest::Client, base: &str, n: usize) -> u16 {
    client
        .post(format!("{base}/api/auth/request-login-link"))
        .json(&json!({ "email": format!("visitor{n}@example.com") }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// The limits count in fixed clock hours: a test that spends an hour's allowance starts far
/// enough from the hour's end that all its requests fall in one window.
async fn not_near_the_end_of_an_hour() {
    let into_hour = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() % 3600;
    if into_hour > 3600 - 30 {
        tokio::time::sleep(Duration::from_secs(3600 - into_hour + 1)).await;
    }
}

async fn link_requests_counted(db: &murmur::db::Db) -> Vec<(String, i64)> {
    sqlx::query_as("SELECT key, CAST(count AS BIGINT) FROM rate_limits WHERE key LIKE 'link:ip:%' ORDER BY key")
        .fetch_all(&db.read)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_caddy_each_visitor_has_their_own_allowance_and_nobody_chooses_their_address() {
    let Some(caddy_binary) = Caddy::binary() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (caddy_port, murmur_port) = (free_port(), free_port());
    let public_url = format!("http://127.0.0.1:{caddy_port}");
    let database_url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
    let server = Server::start_with(dir.path(), &database_url, murmur_port, |command| {
        command
            .args(["--trusted-proxies", "127.0.0.1"])
            .env("MURMUR_PUBLIC_URL", &public_url)
            .env("RUST_LOG", "murmur=info,tower_http=debug");
    })
    .await;
    let caddy_dir = dir.path().join("caddy");
    std::fs::create_dir(&caddy_dir).unwrap();
    let caddy = Caddy::start(&caddy_binary, &caddy_dir, caddy_port, &format!("127.0.0.1:{murmur_port}")).await;
    let (ada, grace) = (visitor_at("127.0.0.2", &caddy.base), visitor_at("127.0.0.3", &caddy.base));
    not_near_the_end_of_an_hour().await;

    for n in 0..20 {
        assert_eq!(ask_for_a_login_link(&ada, &caddy.base, n).await, 200, "request {n} from 127.0.0.2");
    }
    assert_eq!(ask_for_a_login_link(&ada, &caddy.base, 20).await, 429, "the 21st from 127.0.0.2 in the hour");
    assert_eq!(ask_for_a_login_link(&grace, &caddy.base, 21).await, 200, "127.0.0.3 has an allowance of its own");

    // Straight to Murmur, not through the proxy: the header is the sender's own word.
    let spoofer = visitor_at("127.0.0.4", &caddy.base);
    let spoofed = spoofer
        .post(server.url("/api/auth/request-login-link"))
        .header("x-forwarded-for", "1.2.3.4")
        .json(&json!({ "email": "visitor22@example.com" }))
        .send()
        .await
        .unwrap();
    assert_eq!(spoofed.status(), 200);

    let db = murmur::db::Db::connect(&database_url).await.unwrap();
    let counted = link_requests_counted(&db).await;
    let expected = [("link:ip:127.0.0.2", 21), ("link:ip:127.0.0.3", 1), ("link:ip:127.0.0.4", 1)];
    assert_eq!(
        counted,
        expected.map(|(key, count)| (key.to_string(), count)),
        "nothing counted for the proxy or 1.2.3.4"
    );
    let log = server.log();
    for client in ["client=127.0.0.2", "client=127.0.0.3", "client=127.0.0.4"] {
        assert!(log.contains(client), "the request log names {client}:\n{log}");
    }
    assert!(!log.contains("client=1.2.3.4"), "{log}");
}
