#![allow(dead_code)] // helpers for every area's tests; not each module uses all of them
//! The test harness: the real application on a random port, on a fresh database.
//!
//! Every API test runs twice, on SQLite (a temporary data dir) and on PostgreSQL (a fresh
//! database on the server named by MURMUR_TEST_POSTGRES_URL, dropped afterwards). Without that
//! variable the PostgreSQL run is skipped, unless MURMUR_REQUIRE_POSTGRES=1 makes it a failure.

use std::net::SocketAddr;
use std::time::Duration;

use murmur::clock::Clock;
use murmur::{AppState, Application, Config};
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::Value;
use tokio::sync::oneshot;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub base: String,
    pub state: AppState,
    pub clock: Clock,
    /// A visitor's client: keeps cookies, sends a same-origin Origin header.
    pub client: reqwest::Client,
    pub data_dir: tempfile::TempDir,
    pub backend: Backend,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    pg: Option<PgDatabase>,
    /// What the database is reached through (a PgBouncer, `poolers`), stopped after the server.
    pub(crate) between: Option<Box<dyn std::any::Any + Send + Sync>>,
}

/// A member created for a test, with a client that is logged in as them.
pub struct Member {
    pub id: i64,
    pub username: String,
    pub email: String,
    pub client: reqwest::Client,
}

/// Spawns the app for each backend and runs the test body with it:
/// `both_databases!(a_used_invite_cannot_sign_up_twice);` runs
/// `async fn a_used_invite_cannot_sign_up_twice(app: TestApp)` on SQLite and PostgreSQL.
#[macro_export]
macro_rules! both_databases {
    ($($name:ident),+ $(,)?) => {$(
        $crate::both_databases_with!($name, |_: &mut murmur::Config| {});
    )+};
}

/// `both_databases!` with a change to the configuration first, e.g. an SMTP server:
/// `both_databases_with!(name, |c: &mut murmur::Config| c.smtp_url = Some(..));`
#[macro_export]
macro_rules! both_databases_with {
    ($name:ident, $adjust:expr) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let app = $crate::common::TestApp::spawn_with($crate::common::Backend::Sqlite, $adjust)
                    .await
                    .expect("SQLite is always available");
                super::$name(app).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(app) = $crate::common::TestApp::spawn_with($crate::common::Backend::Postgres, $adjust).await
                {
                    super::$name(app).await;
                }
            }
        }
    };
}

impl TestApp {
    /// The app on a fresh database; None when PostgreSQL is asked for but not configured.
    pub async fn spawn(backend: Backend) -> Option<TestApp> {
        Self::spawn_with(backend, |_| {}).await
    }

    /// Like `spawn`, with a chance to change the configuration first.
    pub async fn spawn_with(backend: Backend, adjust: impl FnOnce(&mut Config)) -> Option<TestApp> {
        let database = FreshDatabase::migrated(backend).await?;
        Some(Self::spawn_on(database, adjust).await)
    }

    /// The app on a database a test has prepared itself (e.g. one at an old schema, which
    /// `Application::build` migrates as `murmur serve` does).
    pub async fn spawn_on(database: FreshDatabase, adjust: impl FnOnce(&mut Config)) -> TestApp {
        let FreshDatabase { backend, data_dir, url: database_url, pg } = database;
        let mut config = Config {
            data_dir: data_dir.path().to_path_buf(),
            database_url,
            public_url: "http://127.0.0.1:0".parse().unwrap(),
            smtp_url: None,
            mail_from: "Murmur <no-reply@murmur.test>".into(),
            storage_url: None,
            secret: None,
            s3: Default::default(),
            addr: "127.0.0.1:0".parse().unwrap(),
            feed_cache: Default::default(),
            trusted_proxies: Default::default(),
            metrics_addr: None,
            outbound_allow: Default::default(),
            vapid_private_key: None,
            database: Default::default(),
            link_previews: Default::default(),
            legal: Default::default(),
        };
        // The port is known only once bound; bind first, then set the public URL to match. The
        // app serves on this very socket (`build_on`): a port let go could be taken meanwhile.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        config.addr = format!("127.0.0.1:{port}").parse().unwrap();
        config.public_url = format!("http://127.0.0.1:{port}").parse().unwrap();
        adjust(&mut config);

        // Every test starts at the beginning of an hour on its own clock: the rate limits count
        // in fixed windows of a minute or an hour (`rate_limit`), and a test that spends a
        // limit's allowance must not see a window end in the middle of it (a burst of 60
        // follows that crossed a minute's end was once let through).
        let clock = Clock::default();
        to_start_of_window(&clock, murmur::clock::HOUR);
        let app = Application::build_on(listener, config, clock.clone()).await.expect("the application builds");
        let addr = app.local_addr();
        let state = app.state().clone();
        let (tx, rx) = oneshot::channel::<()>();
        let server = tokio::spawn(app.run_until(async move {
            let _ = rx.await;
        }));
        let base = format!("http://{addr}");
        let client = client_for(&base, None);
        TestApp {
            addr,
            base,
            state,
            clock,
            client,
            data_dir,
            backend,
            shutdown: Some(tx),
            server: Some(server),
            pg,
            between: None,
        }
    }

    /// Moves the test clock to just after the start of a rate-limit window, so a test's
    /// requests from here on all fall in one window however long they take.
    pub fn at_start_of_window(&self, window: murmur::clock::Millis) {
        to_start_of_window(&self.clock, window);
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Starts graceful shutdown and waits for the server to finish.
    pub async fn stop(&mut self) -> anyhow::Result<()> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            return tokio::time::timeout(Duration::from_secs(30), server).await??;
        }
        Ok(())
    }

    /// Sends the shutdown signal without waiting.
    pub fn begin_shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    pub fn take_server(&mut self) -> Option<tokio::task::JoinHandle<anyhow::Result<()>>> {
        self.server.take()
    }

    /// Creates a member directly in the database and answers a client logged in as them.
    pub async fn member(&self, username: &str) -> Member {
        let (id, token) = insert_member(&self.state.db, self.clock.now(), username).await;
        let cookie = format!("{}={token}", murmur::session_cookie::name(&self.state.config));
        Member {
            id,
            username: username.to_string(),
            email: format!("{username}@example.com"),
            client: client_for(&self.base, Some(&cookie)),
        }
    }
}

/// Inserts a member `<username>@example.com` with a session; answers its id and session token
/// (the value of the `murmur_session` cookie over http).
/// A Murmur being served: in this test's process (`TestApp`) or its own (`processes::Server`).
pub trait Served {
    fn url(&self, path: &str) -> String;
}

impl<T: Served + ?Sized> Served for &T {
    fn url(&self, path: &str) -> String {
        (**self).url(path)
    }
}

impl Served for TestApp {
    fn url(&self, path: &str) -> String {
        TestApp::url(self, path)
    }
}

/// Suspends member `id` until lifted, straight in the database: unlike the moderators' action,
/// nothing else happens (their sessions and tokens stay).
pub async fn suspend_in_database(app: &TestApp, id: i64) {
    sqlx::query("UPDATE users SET suspended_until = $1 WHERE id = $2")
        .bind(i64::MAX)
        .bind(id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
}

/// Makes `member` a moderator, as `murmur role set` would.
pub async fn make_moderator(app: &TestApp, member: &Member) {
    sqlx::query("UPDATE users SET role = 'moderator' WHERE id = $1")
        .bind(member.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
}

pub async fn insert_member(db: &murmur::db::Db, now: i64, username: &str) -> (i64, String) {
    // The look-alike keys as every writer of a name stores them (`text`).
    let display_name = capitalise(username);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, username, display_name, created_at, invites_month, username_skeleton, name_skeleton) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(format!("{username}@example.com"))
    .bind(username)
    .bind(&display_name)
    .bind(now)
    .bind(murmur::invites::month_of(now))
    .bind(murmur::text::look_alike_key(username))
    .bind(murmur::text::look_alike_key(&display_name))
    .fetch_one(&db.write)
    .await
    .expect("insert member");
    let token = murmur::sessions::create(&db.write, id, now).await.expect("session");
    (id, token)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A client that keeps cookies and sends this origin (as a browser on the page would).
pub fn client_for(base: &str, cookie: Option<&str>) -> reqwest::Client {
    let mut headers = HeaderMap::new();
    headers.insert(reqwest::header::ORIGIN, HeaderValue::from_str(base).unwrap());
    if let Some(cookie) = cookie {
        headers.insert(reqwest::header::COOKIE, HeaderValue::from_str(cookie).unwrap());
    }
    reqwest::Client::builder()
        .cookie_store(cookie.is_none())
        .default_headers(headers)
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// Reads an answer as JSON, with its status. An error body's `requestId` must be the answer's
/// `x-request-id`; it is checked here and taken out, so tests compare the rest of the body.
pub async fn json(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let request_id = response.headers().get("x-request-id").map(|v| v.to_str().unwrap().to_string());
    let text = response.text().await.unwrap_or_default();
    let mut value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    if let Some(body) = value.as_object_mut()
        && let Some(id) = body.remove("requestId")
    {
        assert!(status >= 400, "only error bodies carry a requestId: {status}");
        assert_eq!(id.as_str(), request_id.as_deref(), "the body's requestId is the answer's x-request-id");
    }
    (status, value)
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            server.abort();
        }
        // The server stops first; then what stands before the database; then the database.
        drop(self.between.take());
        drop(self.pg.take());
    }
}

/// An empty database for one test, not migrated yet: a file in a temporary data dir (SQLite) or
/// a throwaway PostgreSQL database, both removed with this value.
pub struct FreshDatabase {
    pub backend: Backend,
    pub data_dir: tempfile::TempDir,
    /// What `DATABASE_URL` would say.
    pub url: String,
    pg: Option<PgDatabase>,
}

/// With `MURMUR_TEST_TIMES` set (scripts/test.sh), a test that makes a database appends its
/// seconds and name to that file when its thread ends, for the list of the slowest.
struct TestTime {
    name: String,
    started: std::time::Instant,
}

impl Drop for TestTime {
    fn drop(&mut self) {
        use std::io::Write;
        let Ok(path) = std::env::var("MURMUR_TEST_TIMES") else { return };
        let line = format!("{:.2}\t{}\n", self.started.elapsed().as_secs_f64(), self.name);
        // One short write of an appended file: lines of tests ending at once do not mix.
        if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = file.write_all(line.as_bytes());
        }
    }
}

thread_local! {
    static TEST_TIME: std::cell::RefCell<Option<TestTime>> = const { std::cell::RefCell::new(None) };
}

/// Starts timing the test running on this thread (libtest names the thread after the test).
fn time_this_test() {
    if std::env::var_os("MURMUR_TEST_TIMES").is_none() {
        return;
    }
    let name = std::thread::current().name().unwrap_or("unnamed").to_string();
    TEST_TIME.with(|time| {
        time.borrow_mut().get_or_insert_with(|| TestTime { name, started: std::time::Instant::now() });
    });
}

impl FreshDatabase {
    /// None when PostgreSQL is asked for but not configured.
    pub async fn create(backend: Backend) -> Option<FreshDatabase> {
        time_this_test();
        let data_dir = tempfile::tempdir().expect("temp dir");
        let (url, pg) = match backend {
            Backend::Sqlite => (format!("sqlite://{}?mode=rwc", data_dir.path().join("murmur.db").display()), None),
            Backend::Postgres => {
                let pg = PgDatabase::create().await?;
                (pg.url.clone(), Some(pg))
            }
        };
        Some(FreshDatabase { backend, data_dir, url, pg })
    }

    /// A database at the current schema, copied from one migrated once per schema: the same
    /// start as migrating it, without running every migration for every test.
    pub async fn migrated(backend: Backend) -> Option<FreshDatabase> {
        time_this_test();
        match backend {
            Backend::Sqlite => {
                let database = FreshDatabase::create(backend).await?;
                std::fs::copy(templates::sqlite(), database.data_dir.path().join("murmur.db"))
                    .expect("copy the template");
                Some(database)
            }
            Backend::Postgres => {
                let pg = PgDatabase::create_from(Some(templates::postgres()?)).await?;
                let url = pg.url.clone();
                Some(FreshDatabase { backend, data_dir: tempfile::tempdir().expect("temp dir"), url, pg: Some(pg) })
            }
        }
    }

    /// This database reached at another URL (e.g. through a pooler before it).
    pub fn reached_at(self, url: String) -> FreshDatabase {
        FreshDatabase { url, ..self }
    }

    /// The PostgreSQL database, which is then dropped with what this answers rather than with
    /// this value (a check that outlives the app: `poolers::Carried`).
    pub fn keep_postgres(&mut self) -> Option<PgDatabase> {
        self.pg.take()
    }

    /// A PostgreSQL database the test made itself at `url` (e.g. on a cluster of its own),
    /// left to the test to remove.
    pub fn postgres_at(url: String) -> FreshDatabase {
        FreshDatabase { backend: Backend::Postgres, data_dir: tempfile::tempdir().expect("temp dir"), url, pg: None }
    }
}

/// A throwaway PostgreSQL database for one test, dropped with this value.
pub struct PgDatabase {
    admin_url: String,
    name: String,
    pub url: String,
}

impl PgDatabase {
    /// None when MURMUR_TEST_POSTGRES_URL is unset (and not required).
    pub async fn create() -> Option<PgDatabase> {
        Self::create_from(None).await
    }

    /// An empty database, or a copy of the database `template`.
    async fn create_from(template: Option<&str>) -> Option<PgDatabase> {
        let admin_url = postgres_admin_url()?;
        let name = format!("murmur_t_{}", hex::encode(murmur::secrets::random_bytes::<8>()));
        sqlx::any::install_default_drivers();
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("PostgreSQL at MURMUR_TEST_POSTGRES_URL is not reachable: {e}"));
        // The names are ours (hex), not input.
        let create = match template {
            Some(template) => format!("CREATE DATABASE {name} TEMPLATE {template}"),
            None => format!("CREATE DATABASE {name}"),
        };
        sqlx::query(sqlx::AssertSqlSafe(create)).execute(&mut conn).await.expect("create database");
        Some(PgDatabase { url: database_url(&admin_url, &name), admin_url, name })
    }
}

/// MURMUR_TEST_POSTGRES_URL; None when unset (and not required).
fn postgres_admin_url() -> Option<String> {
    match std::env::var("MURMUR_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            if std::env::var("MURMUR_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!("MURMUR_REQUIRE_POSTGRES=1 but MURMUR_TEST_POSTGRES_URL is not set");
            }
            eprintln!("skipped: PostgreSQL run (set MURMUR_TEST_POSTGRES_URL to run it)");
            None
        }
    }
}

/// The URL of database `name` on the server of `admin_url`.
fn database_url(admin_url: &str, name: &str) -> String {
    let mut url = url::Url::parse(admin_url).expect("MURMUR_TEST_POSTGRES_URL is a URL");
    url.set_path(name);
    url.to_string()
}

/// Databases migrated once per schema, which each test's database copies (`FreshDatabase::migrated`).
/// Named by a hash of the migrations, so a changed migration makes a new one; made under a
/// name of their own and then renamed, so a test never copies one half made.
mod templates {
    use std::sync::OnceLock;

    use murmur::db::Db;

    /// A hash of one backend's migrations.
    fn schema_of(backend: &str) -> String {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        files.sort();
        let mut all = String::new();
        for file in files {
            all.push_str(&file.file_name().unwrap().to_string_lossy());
            all.push_str(&std::fs::read_to_string(&file).unwrap());
        }
        murmur::secrets::hash_token(&all)[..16].to_string()
    }

    /// Runs `work` to its end on a runtime of its own: tests each have their own runtime, and
    /// the template outlives the one that happened to make it.
    fn on_own_runtime<T: Send + 'static>(work: impl std::future::Future<Output = T> + Send + 'static) -> T {
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(work)
        })
        .join()
        .expect("the template is made")
    }

    /// The path of the SQLite template, in the system's temporary folder.
    pub fn sqlite() -> &'static std::path::Path {
        static PATH: OnceLock<std::path::PathBuf> = OnceLock::new();
        PATH.get_or_init(|| {
            let path = std::env::temp_dir().join(format!("murmur-template-{}.db", schema_of("sqlite")));
            if !path.exists() {
                let dir = tempfile::tempdir().unwrap();
                let made = dir.path().join("murmur.db");
                let url = format!("sqlite://{}?mode=rwc", made.display());
                on_own_runtime(async move {
                    let db = Db::connect(&url).await.unwrap();
                    db.migrate().await.unwrap();
                    db.close().await;
                });
                // Closed, its log is in the file; a rename within one file system is atomic.
                let staged = path.with_extension(format!("{}.part", std::process::id()));
                std::fs::copy(&made, &staged).unwrap();
                std::fs::rename(&staged, &path).unwrap();
            }
            path
        })
    }

    /// The name of the PostgreSQL template; None when PostgreSQL is not configured.
    pub fn postgres() -> Option<&'static str> {
        static NAME: OnceLock<String> = OnceLock::new();
        let admin_url = super::postgres_admin_url()?;
        Some(NAME.get_or_init(|| {
            let name = format!("murmur_template_{}", schema_of("postgres"));
            on_own_runtime(make_postgres(admin_url, name.clone()));
            name
        }))
    }

    async fn make_postgres(admin_url: String, name: String) {
        use sqlx::Connection;
        sqlx::any::install_default_drivers();
        let mut admin = sqlx::AnyConnection::connect(&admin_url).await.unwrap();
        let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
            .bind(&name)
            .fetch_optional(&mut admin)
            .await
            .unwrap();
        if exists.is_some() {
            return;
        }
        let staged = format!("murmur_staged_{}", hex::encode(murmur::secrets::random_bytes::<8>()));
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {staged}"))).execute(&mut admin).await.unwrap();
        let db = Db::connect(&super::database_url(&admin_url, &staged)).await.unwrap();
        db.migrate().await.unwrap();
        db.close().await;
        let renamed = sqlx::query(sqlx::AssertSqlSafe(format!("ALTER DATABASE {staged} RENAME TO {name}")))
            .execute(&mut admin)
            .await;
        if renamed.is_err() {
            // Another run made it meanwhile.
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE {staged} WITH (FORCE)")))
                .execute(&mut admin)
                .await;
        }
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // Drop runs outside async; use a small runtime on its own thread.
        let admin_url = self.admin_url.clone();
        let name = self.name.clone();
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                if let Ok(mut conn) = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin_url).await {
                    let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")))
                        .execute(&mut conn)
                        .await;
                }
            });
        })
        .join();
    }
}

fn to_start_of_window(clock: &Clock, window: murmur::clock::Millis) {
    let now = clock.now();
    clock.advance(Duration::from_millis((window - now.rem_euclid(window) + 10) as u64));
}
