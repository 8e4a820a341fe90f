//! Read replicas: a real streaming replica. The test makes a PostgreSQL cluster of its own (the
//! primary, on a free port), copies it with `pg_basebackup -R` into a hot standby on another
//! port, and serves Murmur with `--database-replica-url` naming the standby. Then: a member
//! reads what they just wrote while the standby's replay is paused, while a reader without
//! writes is served by the standby (and sees it a moment old); a standby held back too long,
//! and then stopped, is set aside and the primary serves; started again, it is used again.
//! Both clusters are stopped and removed at the end, also when the test fails.
//! Skipped, saying why, without PostgreSQL's server programs, unless MURMUR_REQUIRE_SERVICES=1.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::Connection;

use crate::common::{FreshDatabase, TestApp, json};
use crate::poolers::running_as_root;
use crate::processes::free_port;

/// The directory of PostgreSQL's server programs (`initdb`, `pg_ctl`, `pg_basebackup`).
fn programs() -> Option<PathBuf> {
    let dir = std::env::var("MURMUR_TEST_PG_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from("/usr/lib/postgresql/15/bin"));
    if dir.join("pg_basebackup").exists() {
        return Some(dir);
    }
    let hint = "install Debian's postgresql-15 or set MURMUR_TEST_PG_BIN";
    if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
        panic!("MURMUR_REQUIRE_SERVICES=1 but PostgreSQL's programs are missing in {}; {hint}", dir.display());
    }
    eprintln!("skipped: read replica test (no pg_basebackup in {}; {hint})", dir.display());
    None
}

/// A primary and its hot standby, each a cluster of the test's own; stopped and removed when
/// dropped.
struct Clusters {
    programs: PathBuf,
    dir: tempfile::TempDir,
    primary_port: u16,
    replica_port: u16,
}

impl Clusters {
    async fn start(programs: PathBuf) -> Clusters {
        let dir = tempfile::tempdir().unwrap();
        let clusters = Clusters { programs, dir, primary_port: free_port(), replica_port: free_port() };
        if running_as_root() {
            // initdb refuses root: the clusters belong to the database's own system user.
            run(std::process::Command::new("chown").arg("postgres:postgres").arg(clusters.dir.path()));
        }
        let primary = clusters.data("primary");
        clusters.program("initdb").args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"]).arg(&primary).status_ok();
        let settings = format!(
            "\nport = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{}'\n\
             wal_level = replica\nmax_wal_senders = 4\nhot_standby = on\nfsync = off\n\
             max_connections = 60\nshared_buffers = 16MB\n",
            clusters.primary_port,
            clusters.dir.path().display()
        );
        append(&primary.join("postgresql.conf"), &settings);
        clusters.pg_ctl("primary", "start");
        let replica = clusters.data("replica");
        clusters
            .program("pg_basebackup")
            .args(["-h", "127.0.0.1", "-U", "postgres", "-R", "-X", "stream", "--no-sync", "-p"])
            .arg(clusters.primary_port.to_string())
            .arg("-D")
            .arg(&replica)
            .status_ok();
        append(&replica.join("postgresql.conf"), &format!("\nport = {}\n", clusters.replica_port));
        clusters.pg_ctl("replica", "start");
        clusters
    }

    fn data(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn url(&self, port: u16, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{port}/{database}")
    }

    /// One of PostgreSQL's programs, run as the clusters' owner.
    fn program(&self, name: &str) -> std::process::Command {
        let path = self.programs.join(name);
        if running_as_root() {
            let mut command = std::process::Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            std::process::Command::new(path)
        }
    }

    fn pg_ctl(&self, cluster: &str, action: &str) {
        let log = self.dir.path().join(format!("{cluster}.log"));
        let mut command = self.program("pg_ctl");
        command.args(["-w", "-t", "60", "-D"]).arg(self.data(cluster)).arg("-l").arg(&log).arg(action);
        if action == "stop" {
            command.args(["-m", "fast"]);
        }
        if !command.status().is_ok_and(|s| s.success()) {
            panic!("pg_ctl {action} {cluster} failed; its log:\n{}", std::fs::read_to_string(&log).unwrap_or_default());
        }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        for cluster in ["replica", "primary"] {
            let _ = self
                .program("pg_ctl")
                .args(["-w", "-D"])
                .arg(self.data(cluster))
                .args(["stop", "-m", "immediate"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
        }
    }
}

trait StatusOk {
    fn status_ok(&mut self);
}

impl StatusOk for std::process::Command {
    fn status_ok(&mut self) {
        let output = self.output().expect("runs");
        assert!(
            output.status.success(),
            "{self:?} failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

fn run(command: &mut std::process::Command) {
    command.status_ok();
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
}

/// `/readyz`'s answer: its status and the one replica's state.
async fn readiness(app: &TestApp) -> (u16, Value) {
    let (status, body) = json(app.client.get(app.url("/readyz")).send().await.unwrap()).await;
    (status, body["replicas"][0].clone())
}

/// Waits until `/readyz` says the replica is in use (or is not), answering its state.
async fn until_in_use(app: &TestApp, in_use: bool) -> Value {
    let started = Instant::now();
    loop {
        let (status, replica) = readiness(app).await;
        assert_eq!(status, 200, "a replica's state never makes the process unready: {replica}");
        if replica["inUse"] == in_use {
            return replica;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the replica never became inUse={in_use}: {replica}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn thread_status(client: &reqwest::Client, app: &TestApp, post: i64) -> u16 {
    client.get(app.url(&format!("/api/posts/{post}/thread"))).send().await.unwrap().status().as_u16()
}

async fn write_post(app: &TestApp, client: &reqwest::Client, content: &str) -> i64 {
    let (status, body) =
        json(client.post(app.url("/api/posts")).json(&json!({ "content": content })).send().await.unwrap()).await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_i64().unwrap()
}

fn replica_reads(app: &TestApp) -> u64 {
    app.state.db.replicas.served()[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_go_to_a_replica_that_has_replayed_the_readers_writes() {
    let Some(programs) = programs() else { return };
    let clusters = Clusters::start(programs).await;
    let mut admin = sqlx::PgConnection::connect(&clusters.url(clusters.primary_port, "postgres")).await.unwrap();
    sqlx::raw_sql("CREATE DATABASE murmur").execute(&mut admin).await.unwrap();
    let replica_url = clusters.url(clusters.replica_port, "murmur");
    let app = TestApp::spawn_on(
        FreshDatabase::postgres_at(clusters.url(clusters.primary_port, "murmur")),
        |config: &mut murmur::Config| config.database.replica_urls = vec![replica_url.clone()],
    )
    .await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = write_post(&app, &ada.client, "before the pause").await;
    until_in_use(&app, true).await;
    // Once replayed, the post reads from the replica for a reader without writes.
    let started = Instant::now();
    while thread_status(&bob.client, &app, first).await != 200 {
        assert!(started.elapsed() < Duration::from_secs(10), "the replica never replayed the first post");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // (1) Replay paused: the author reads her new post (the primary), a reader without writes
    // is served by the replica, which has not got it.
    let mut replica = sqlx::PgConnection::connect(&replica_url).await.unwrap();
    sqlx::raw_sql("SELECT pg_wal_replay_pause()").execute(&mut replica).await.unwrap();
    let held_back = write_post(&app, &ada.client, "while the replica is held back").await;
    let served = replica_reads(&app);
    assert_eq!(thread_status(&ada.client, &app, held_back).await, 200, "the author reads her own write");
    let (status, tab) = json(ada.client.get(app.url("/api/users/ada/posts")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(tab[0]["id"], held_back, "her profile's Posts tab shows it too");
    assert_eq!(replica_reads(&app), served, "her reads did not go to the replica");
    // (2) The reader without writes went to the replica, a moment behind.
    assert_eq!(thread_status(&bob.client, &app, held_back).await, 404, "the paused replica has not got the post");
    assert!(replica_reads(&app) > served, "bob's read went to the replica");

    // Held back past the most lag allowed, the replica is set aside and the primary serves.
    let set_aside = until_in_use(&app, false).await;
    assert!(set_aside["problem"].as_str().unwrap().contains("lags"), "{set_aside}");
    assert_eq!(thread_status(&bob.client, &app, held_back).await, 200);

    // Replay resumed: in use again, and it has the post.
    sqlx::raw_sql("SELECT pg_wal_replay_resume()").execute(&mut replica).await.unwrap();
    drop(replica);
    until_in_use(&app, true).await;
    let served = replica_reads(&app);
    assert_eq!(thread_status(&bob.client, &app, held_back).await, 200);
    assert!(replica_reads(&app) > served);

    // (3) The replica's connections end under the process (as when it stops): the reads sent
    // to them, before any poll has noticed, are answered by the primary, and the replica is set
    // aside at once.
    let reads = || futures::future::join_all((0..8).map(|_| thread_status(&bob.client, &app, held_back)));
    assert!(reads().await.iter().all(|&status| status == 200));
    let mut replica_admin =
        sqlx::PgConnection::connect(&clusters.url(clusters.replica_port, "postgres")).await.unwrap();
    sqlx::raw_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'murmur'")
        .execute(&mut replica_admin)
        .await
        .unwrap();
    drop(replica_admin);
    let statuses = reads().await;
    assert!(statuses.iter().all(|&status| status == 200), "reads on the replica's ended connections: {statuses:?}");
    until_in_use(&app, true).await;

    // (4) The replica stops: set aside, the process stays ready, reads and writes go on.
    clusters.pg_ctl("replica", "stop");
    let stopped = until_in_use(&app, false).await;
    assert!(stopped["problem"].as_str().unwrap().contains("does not answer"), "{stopped}");
    assert_eq!(thread_status(&bob.client, &app, held_back).await, 200);
    let while_down = write_post(&app, &ada.client, "while the replica is down").await;
    assert_eq!(thread_status(&bob.client, &app, while_down).await, 200);

    // (5) Started again, it is used again and catches up.
    clusters.pg_ctl("replica", "start");
    until_in_use(&app, true).await;
    let served = replica_reads(&app);
    assert_eq!(thread_status(&bob.client, &app, while_down).await, 200);
    assert!(replica_reads(&app) > served, "reads went to the replica again");
    drop(app);
}

#[tokio::test]
async fn an_sqlite_database_refuses_replicas_and_poolers() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
    let options = murmur::db::DbOptions {
        replica_urls: vec!["postgres://postgres@127.0.0.1:1/murmur".into()],
        ..Default::default()
    };
    let refused = murmur::db::Db::connect_with_options(&url, murmur::db::Checkpoints::Background, options).await;
    let message = refused.err().expect("refused").to_string();
    assert!(message.contains("are for PostgreSQL"), "{message}");
    let options = murmur::db::DbOptions { pooler: murmur::db::Pooler::Pgbouncer, ..Default::default() };
    assert!(murmur::db::Db::connect_with_options(&url, murmur::db::Checkpoints::Background, options).await.is_err());
}
