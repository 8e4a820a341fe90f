//! Behind a connection pooler: Debian's PgBouncer in transaction mode, started by the test on
//! a port of its own in front of the test PostgreSQL, with two server connections per database
//! so Murmur's connections really share them. The API suite's core runs through it
//! (`through_pgbouncer!` in each area's module: sign-up, posts, replies, likes, follows, feeds,
//! notifications, live events), with `--database-pooler pgbouncer` and the live bus's `LISTEN`
//! on the direct URL; afterwards PgBouncer's own figures must show the transactions it carried.
//! Skipped, saying why, without PgBouncer or PostgreSQL, unless MURMUR_REQUIRE_SERVICES=1.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use sqlx::{Connection, Row};
use tokio::process::{Child, Command};

use crate::common::{Backend, FreshDatabase, TestApp};
use crate::processes::free_port;

/// Runs each named test of the module (`async fn name(app: TestApp)`) once more, on PostgreSQL
/// through PgBouncer: `through_pgbouncer!(a_member_follows_and_unfollows);`.
#[macro_export]
macro_rules! through_pgbouncer {
    ($($name:ident),+ $(,)?) => {
        mod through_pgbouncer {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some((app, carried)) = $crate::poolers::spawn_through_pgbouncer().await {
                        super::$name(app).await;
                        carried.check().await;
                    }
                }
            )+
        }
    };
}

/// Server connections PgBouncer opens per database: fewer than Murmur's pools hold, so
/// transactions of different connections take turns on the same server connection.
const SERVER_CONNECTIONS: u32 = 2;

/// A PgBouncer of the test's own, stopped when dropped.
pub struct Pgbouncer {
    child: Child,
    pub port: u16,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Pgbouncer {
    /// The installed PgBouncer; None (the test is skipped) without one, unless
    /// MURMUR_REQUIRE_SERVICES=1.
    fn binary() -> Option<PathBuf> {
        let binary = std::env::var("MURMUR_TEST_PGBOUNCER")
            .map(PathBuf::from)
            .unwrap_or_else(|_| PathBuf::from("/usr/sbin/pgbouncer"));
        if binary.exists() {
            return Some(binary);
        }
        let hint = "install Debian's pgbouncer (scripts/install-test-deps.sh does)";
        if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
            panic!("MURMUR_REQUIRE_SERVICES=1 but pgbouncer is missing at {}; {hint}", binary.display());
        }
        eprintln!("skipped: PgBouncer test (pgbouncer not found at {}; {hint})", binary.display());
        None
    }

    /// Starts PgBouncer in transaction mode before the PostgreSQL at `host:port`, and waits
    /// until it answers.
    async fn start(binary: &Path, host: &str, server_port: u16, user: &str) -> Pgbouncer {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let ini = dir.path().join("pgbouncer.ini");
        let users = dir.path().join("users.txt");
        std::fs::write(&users, format!("\"{user}\" \"\"\n")).unwrap();
        // `ignore_startup_parameters`: sqlx asks for `extra_float_digits`, which PgBouncer
        // does not keep per client; Murmur's values are integers and text.
        std::fs::write(
            &ini,
            format!(
                "[databases]\n* = host={host} port={server_port}\n\n[pgbouncer]\n\
                 listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n\
                 auth_type = trust\nauth_file = {}\nadmin_users = {user}\n\
                 pool_mode = transaction\ndefault_pool_size = {SERVER_CONNECTIONS}\n\
                 max_client_conn = 500\nignore_startup_parameters = extra_float_digits\n\
                 stats_period = 1\n",
                users.display()
            ),
        )
        .unwrap();
        let log = dir.path().join("pgbouncer.log");
        let mut command = Command::new(binary);
        // PgBouncer refuses to run as root: it then becomes the database's own system user.
        if running_as_root() {
            use std::os::unix::fs::PermissionsExt;
            for path in [dir.path(), &ini, &users] {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            command.args(["-u", "postgres"]);
        }
        let child = command
            .arg(&ini)
            .stdout(Stdio::null())
            .stderr(Stdio::from(std::fs::File::create(&log).unwrap()))
            .kill_on_drop(true)
            .spawn()
            .expect("pgbouncer starts");
        let mut bouncer = Pgbouncer { child, port, log, _dir: dir };
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return bouncer;
            }
            if bouncer.child.try_wait().unwrap().is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("pgbouncer did not start; its log:\n{}", bouncer.log());
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Transactions PgBouncer carried for `database` so far (its admin console's `SHOW STATS`).
    pub async fn transactions(&self, user: &str, database: &str) -> i64 {
        let url = format!("postgres://{user}@127.0.0.1:{}/pgbouncer", self.port);
        let mut admin = sqlx::PgConnection::connect(&url).await.expect("pgbouncer's admin console");
        let rows = sqlx::raw_sql("SHOW STATS").fetch_all(&mut admin).await.expect("SHOW STATS");
        rows.iter()
            .filter(|row| row.try_get::<String, _>("database").is_ok_and(|name| name == database))
            // A NUMERIC, sent as text by the admin console's simple protocol.
            .map(|row| row.try_get_unchecked::<String, _>("total_xact_count").expect("total_xact_count"))
            .map(|count| count.parse::<i64>().expect("a count"))
            .sum()
    }
}

pub(crate) fn running_as_root() -> bool {
    // /proc/self belongs to the process's effective user.
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// What a test through PgBouncer checks once its body has run: that PgBouncer carried it.
pub struct Carried {
    bouncer: std::sync::Arc<Pgbouncer>,
    user: String,
    database: String,
    /// The database itself, not through PgBouncer.
    pub direct_url: String,
    _kept: Option<crate::common::PgDatabase>,
}

impl Carried {
    pub async fn check(&self) {
        // PgBouncer adds up its figures once a `stats_period` (a second here).
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let carried = self.bouncer.transactions(&self.user, &self.database).await;
        assert!(
            carried >= 5,
            "PgBouncer carried {carried} transactions for {}; its log:\n{}",
            self.database,
            self.bouncer.log()
        );
    }
}

/// The app on a fresh PostgreSQL database reached through a PgBouncer of its own (the live
/// bus and the migrations on the direct URL); None, saying why, when either is missing.
pub async fn spawn_through_pgbouncer() -> Option<(TestApp, Carried)> {
    let binary = Pgbouncer::binary()?;
    let mut database = FreshDatabase::create(Backend::Postgres).await?;
    // Kept until PgBouncer's figures are read: dropping the database takes its figures too.
    let kept = database.keep_postgres();
    let direct = url::Url::parse(&database.url).unwrap();
    let user = direct.username().to_string();
    let name = direct.path().trim_start_matches('/').to_string();
    let host = direct.host_str().unwrap_or("127.0.0.1").to_string();
    let bouncer = std::sync::Arc::new(Pgbouncer::start(&binary, &host, direct.port().unwrap_or(5432), &user).await);
    let mut pooled = direct.clone();
    pooled.set_host(Some("127.0.0.1")).unwrap();
    pooled.set_port(Some(bouncer.port)).unwrap();
    let direct_url = database.url.clone();
    let database_url = database.url.clone();
    let mut app = TestApp::spawn_on(database.reached_at(pooled.to_string()), |config: &mut murmur::Config| {
        config.database.pooler = murmur::db::Pooler::Pgbouncer;
        config.database.listen_url = Some(direct_url);
    })
    .await;
    app.between = Some(Box::new(bouncer.clone()));
    Some((app, Carried { bouncer, user, database: name, direct_url: database_url, _kept: kept }))
}

/// Statements prepared by one client never reach another's, even when both take turns on one
/// server connection: many members' posts and feeds at once, through two server connections.
async fn many_members_at_once_share_two_server_connections(app: TestApp) {
    let mut members = Vec::new();
    for n in 0..6 {
        members.push(app.member(&format!("member{n}")).await);
    }
    let app = &app;
    let answers = futures::future::join_all(members.iter().enumerate().map(|(n, member)| async move {
        let mut answers = Vec::new();
        for i in 0..5 {
            let post = member
                .client
                .post(app.url("/api/posts"))
                .json(&serde_json::json!({ "content": format!("post {i} of member {n}") }))
                .send()
                .await
                .unwrap();
            answers.push(post.status().as_u16());
            let feed = member.client.get(app.url("/api/posts/feed")).send().await.unwrap();
            let (status, body) = crate::common::json(feed).await;
            answers.push(status);
            // Each member's own newest post tops their feed: no answer was another's.
            assert_eq!(body[0]["content"], format!("post {i} of member {n}"), "{body}");
        }
        answers
    }))
    .await;
    for answers in answers {
        assert!(answers.iter().all(|&status| status == 200 || status == 201), "{answers:?}");
    }
}

crate::through_pgbouncer!(many_members_at_once_share_two_server_connections);

/// A held connection (a write's writer) commits as it is given back, a moment after its holder
/// let go: the request's own next statement and its answer wait for that `COMMIT`
/// (`db::Pool`). A trigger here makes each new post's and like's `COMMIT` take half a second,
/// so without the wait the post would not yet be there for its own answer (404), nor the like
/// for another process once answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_whose_commit_is_slow_is_there_for_its_answer_and_the_next_request() {
    let Some((app, carried)) = spawn_through_pgbouncer().await else { return };
    sqlx::raw_sql(
        "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN PERFORM pg_sleep(0.5); RETURN NULL; END $$; \
         CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON posts \
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit(); \
         CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON likes \
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit();",
    )
    .execute(&app.state.db.write)
    .await
    .unwrap();
    let ada = app.member("ada").await;
    let post = crate::posts::write(&app, &ada, "Slow to commit").await;
    assert_eq!(post["content"], "Slow to commit");
    let feed = ada.client.get(app.url("/api/posts/feed")).send().await.unwrap();
    let (status, feed) = crate::common::json(feed).await;
    assert_eq!(status, 200, "{feed}");
    assert_eq!(feed[0]["id"], post["id"], "{feed}");

    // Once a like is answered, a connection of another process (here the test's own, straight
    // to the database) sees it.
    let bob = app.member("bob").await;
    let liked = bob.client.post(app.url(&format!("/api/posts/{}/like", post["id"]))).send().await.unwrap();
    assert_eq!(liked.status(), 200);
    let mut direct = sqlx::PgConnection::connect(&carried.direct_url).await.unwrap();
    let likes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM likes WHERE post_id = $1")
        .bind(post["id"].as_i64().unwrap())
        .fetch_one(&mut direct)
        .await
        .unwrap();
    assert_eq!(likes, 1, "the like's answer came before its commit");
    direct.close().await.unwrap();
    drop(app);
    carried.check().await;
}

/// A held connection whose `COMMIT` fails lost its writes: the request answers 503, whatever
/// its handler answered, and nothing of it is there (`db::Pool`). A trigger here makes each
/// like's `COMMIT` fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_whose_commit_fails_answers_503() {
    let Some((app, carried)) = spawn_through_pgbouncer().await else { return };
    sqlx::raw_sql(
        "CREATE FUNCTION failed_commit() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN RAISE EXCEPTION 'the commit fails'; END $$; \
         CREATE CONSTRAINT TRIGGER failed_commit AFTER INSERT ON likes \
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION failed_commit();",
    )
    .execute(&app.state.db.write)
    .await
    .unwrap();
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let post = crate::posts::write(&app, &ada, "Like me if you can").await;
    let liked = bob.client.post(app.url(&format!("/api/posts/{}/like", post["id"]))).send().await.unwrap();
    let (status, body) = crate::common::json(liked).await;
    assert_eq!(status, 503, "{body}");
    let mut direct = sqlx::PgConnection::connect(&carried.direct_url).await.unwrap();
    let (likes, counted): (i64, i64) =
        sqlx::query_as("SELECT (SELECT COUNT(*) FROM likes WHERE post_id = $1), like_count FROM posts WHERE id = $1")
            .bind(post["id"].as_i64().unwrap())
            .fetch_one(&mut direct)
            .await
            .unwrap();
    assert_eq!((likes, counted), (0, 0));
    direct.close().await.unwrap();
    drop(app);
    carried.check().await;
}
