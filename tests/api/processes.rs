//! Real `murmur serve` processes: killed mid-write (nothing answered 2xx is lost), stopped with
//! SIGTERM mid-request (the request completes, exit 0), and two processes sharing one
//! PostgreSQL database (the scale-out path: nothing shared lives in one process's memory); on
//! SQLite, the readers' threads below the writer's.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use murmur::db::Db;
use serde_json::{Value, json};
use tokio::process::{Child, Command};

use crate::common::{Member, PgDatabase, Served, client_for, insert_member};

/// A `murmur serve` child process.
pub(crate) struct Server {
    child: Child,
    pub base: String,
    log: PathBuf,
}

impl Server {
    pub async fn start(data_dir: &Path, database_url: &str, port: u16) -> Server {
        Self::start_with(data_dir, database_url, port, |_| {}).await
    }

    /// Like `start`, with a chance to add flags or environment (later ones win) first.
    pub async fn start_with(
        data_dir: &Path,
        database_url: &str,
        port: u16,
        adjust: impl FnOnce(&mut Command),
    ) -> Server {
        let base = format!("http://127.0.0.1:{port}");
        let log = data_dir.join(format!("server-{port}.log"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_murmur"));
        command
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .arg("--data-dir")
            .arg(data_dir)
            .env("DATABASE_URL", database_url)
            .env("MURMUR_PUBLIC_URL", &base)
            .env("MURMUR_SECRET", "a-shared-secret-for-every-process-of-this-test")
            .env("RUST_LOG", "murmur=warn")
            .stdout(Stdio::null())
            .stderr(Stdio::from(std::fs::File::create(&log).unwrap()))
            .kill_on_drop(true);
        adjust(&mut command);
        let child = command.spawn().expect("the murmur binary starts");
        let probe = reqwest::Client::new();
        // Generous: on a busy 2-core machine a start (migrations included) can take a while.
        for _ in 0..1200 {
            if let Ok(r) = probe.get(format!("{base}/healthz")).send().await
                && r.status() == 200
            {
                return Server { child, base, log };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let log = std::fs::read_to_string(&log).unwrap_or_default();
        panic!("murmur serve did not become healthy on {base}; its log:\n{log}");
    }

    /// What the server has written to its standard error so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn kill9(&mut self) {
        self.child.start_kill().unwrap(); // SIGKILL
        self.child.wait().await.unwrap();
    }

    fn sigterm(&self) {
        let pid = self.child.id().unwrap().to_string();
        let status = std::process::Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(status.success());
    }
}

impl Served for Server {
    fn url(&self, path: &str) -> String {
        Server::url(self, path)
    }
}

/// Two `murmur serve` processes on one fresh PostgreSQL database, each with its own data
/// directory, and a connection of the test's own to that database.
/// Bind its parts by reference (`let TwoProcesses { a, b, db, .. } = &two;`): moved out, the
/// database would be dropped at once.
pub(crate) struct TwoProcesses {
    pub a: Server,
    pub b: Server,
    pub db: Db,
    // Dropped after the servers: the database goes once they have stopped.
    _pg: PgDatabase,
    _dirs: [tempfile::TempDir; 2],
}

impl TwoProcesses {
    /// None without PostgreSQL (see `PgDatabase::create`).
    pub async fn start() -> Option<TwoProcesses> {
        Self::start_with(|_| {}).await
    }

    /// Like `start`, with `adjust` run on both processes' commands.
    pub async fn start_with(adjust: impl Fn(&mut Command)) -> Option<TwoProcesses> {
        let pg = PgDatabase::create().await?;
        let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let (a, b) = tokio::join!(
            Server::start_with(dirs[0].path(), &pg.url, free_port(), &adjust),
            Server::start_with(dirs[1].path(), &pg.url, free_port(), &adjust)
        );
        let db = Db::connect(&pg.url).await.unwrap();
        Some(TwoProcesses { a, b, db, _pg: pg, _dirs: dirs })
    }
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A database for a process test: SQLite in `dir`, or a fresh PostgreSQL database.
async fn database(postgres: bool, dir: &Path) -> Option<(String, Option<PgDatabase>)> {
    if postgres {
        let pg = PgDatabase::create().await?;
        Some((pg.url.clone(), Some(pg)))
    } else {
        Some((format!("sqlite://{}?mode=rwc", dir.join("murmur.db").display()), None))
    }
}

/// What the servers acknowledged with a 2xx.
#[derive(Default)]
struct Acked {
    posts: Vec<i64>,
    polls: Vec<(i64, String)>,
    likes: Vec<(i64, i64)>,
    follows: Vec<(i64, i64)>,
    votes: Vec<(i64, i64)>,
}

async fn writer(base: String, me: i64, token: String, others: Vec<i64>, acked: Arc<Mutex<Acked>>) {
    let client = client_for(&base, Some(&format!("murmur_session={token}")));
    let mut n: u64 = me as u64 * 7919;
    loop {
        n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = (n >> 33) as usize;
        let result = match pick % 5 {
            0 | 1 => {
                let with_poll = pick.is_multiple_of(3);
                let body = if with_poll {
                    json!({ "content": format!("poll {n}"), "pollOptions": ["yes", "no"] })
                } else {
                    json!({ "content": format!("post {n} by {me}") })
                };
                match client.post(format!("{base}/api/posts")).json(&body).send().await {
                    Ok(r) if r.status().is_success() => {
                        let v: Value = r.json().await.unwrap_or_default();
                        if let Some(id) = v["id"].as_i64() {
                            let mut a = acked.lock().unwrap();
                            a.posts.push(id);
                            if with_poll {
                                a.polls.push((id, "yes".into()));
                            }
                        }
                        Ok(())
                    }
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            2 => {
                let target = { acked.lock().unwrap().posts.get(pick % 1000).copied() };
                match target {
                    Some(post) => match client.post(format!("{base}/api/posts/{post}/like")).send().await {
                        Ok(r) if r.status().is_success() => {
                            acked.lock().unwrap().likes.push((me, post));
                            Ok(())
                        }
                        Ok(_) => Ok(()),
                        Err(e) => Err(e),
                    },
                    None => Ok(()),
                }
            }
            3 => {
                let other = others[pick % others.len()];
                match client.post(format!("{base}/api/follows")).json(&json!({ "followingId": other })).send().await {
                    Ok(r) if r.status().is_success() => {
                        acked.lock().unwrap().follows.push((me, other));
                        Ok(())
                    }
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            _ => {
                let poll = { acked.lock().unwrap().polls.get(pick % 100).cloned() };
                match poll {
                    Some((post, option)) => {
                        match client
                            .post(format!("{base}/api/posts/{post}/vote"))
                            .json(&json!({ "option": option }))
                            .send()
                            .await
                        {
                            Ok(r) if r.status().is_success() => {
                                acked.lock().unwrap().votes.push((me, post));
                                Ok(())
                            }
                            Ok(_) => Ok(()),
                            Err(e) => Err(e),
                        }
                    }
                    None => Ok(()),
                }
            }
        };
        if result.is_err() {
            return; // the server is gone
        }
    }
}

async fn count(db: &Db, sql: &'static str, a: i64, b: i64) -> i64 {
    sqlx::query_scalar(sql).bind(a).bind(b).fetch_one(&db.read).await.unwrap()
}

async fn assert_everything_acked_is_there(db: &Db, acked: &Acked) {
    for &post in &acked.posts {
        assert_eq!(count(db, "SELECT COUNT(*) FROM posts WHERE id = $1 AND $2 = 0", post, 0).await, 1, "post {post}");
    }
    for &(user, post) in &acked.likes {
        assert_eq!(count(db, "SELECT COUNT(*) FROM likes WHERE user_id = $1 AND post_id = $2", user, post).await, 1);
    }
    for &(a, b) in &acked.follows {
        assert_eq!(
            count(db, "SELECT COUNT(*) FROM follows WHERE follower_id = $1 AND following_id = $2", a, b).await,
            1
        );
    }
    for &(user, post) in &acked.votes {
        assert_eq!(
            count(db, "SELECT COUNT(*) FROM poll_votes WHERE user_id = $1 AND post_id = $2", user, post).await,
            1
        );
    }
    let drift: i64 = sqlx::query_scalar(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM posts p WHERE p.like_count <> (SELECT COUNT(*) FROM likes l WHERE l.post_id = p.id)",
    )
    .fetch_one(&db.read)
    .await
    .unwrap();
    assert_eq!(drift, 0, "likeCount equals the likes");
    let drift: i64 = sqlx::query_scalar(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM users u WHERE u.follower_count <> (SELECT COUNT(*) FROM follows f WHERE f.following_id = u.id) \
         OR u.following_count <> (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id)",
    )
    .fetch_one(&db.read)
    .await
    .unwrap();
    assert_eq!(drift, 0, "follower and following counts equal the follows");
}

async fn killed_mid_write_loses_nothing_acknowledged(postgres: bool) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, _pg)) = database(postgres, dir.path()).await else { return };
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    let now = chrono::Utc::now().timestamp_millis();
    let mut members = Vec::new();
    for i in 0..6 {
        members.push(insert_member(&db, now, &format!("writer{i}")).await);
    }
    let ids: Vec<i64> = members.iter().map(|m| m.0).collect();
    let acked = Arc::new(Mutex::new(Acked::default()));
    for round in 0..3 {
        // A new port each time: a port freed by the kill may be taken by another test meanwhile.
        let mut server = Server::start(dir.path(), &url, free_port()).await;
        let workers: Vec<_> = members
            .iter()
            .map(|(id, token)| {
                let others = ids.iter().copied().filter(|o| o != id).collect();
                tokio::spawn(writer(server.base.clone(), *id, token.clone(), others, acked.clone()))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(1200 + round * 300)).await;
        server.kill9().await;
        for w in workers {
            let _ = tokio::time::timeout(Duration::from_secs(30), w).await;
        }
        // After the restart every acknowledged write is there and the counts agree.
        let _restarted = Server::start(dir.path(), &url, free_port()).await;
        let snapshot = {
            let a = acked.lock().unwrap();
            Acked {
                posts: a.posts.clone(),
                polls: vec![],
                likes: a.likes.clone(),
                follows: a.follows.clone(),
                votes: a.votes.clone(),
            }
        };
        assert_everything_acked_is_there(&db, &snapshot).await;
        if !postgres {
            assert_eq!(murmur::db::backup::integrity_check(&db).await.unwrap(), "ok");
        }
    }
    let a = acked.lock().unwrap();
    assert!(
        a.posts.len() > 20 && !a.likes.is_empty() && !a.follows.is_empty(),
        "the writers wrote: {} posts",
        a.posts.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_killed_mid_write_loses_nothing_acknowledged() {
    killed_mid_write_loses_nothing_acknowledged(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_killed_mid_write_loses_nothing_acknowledged() {
    killed_mid_write_loses_nothing_acknowledged(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_request_in_flight_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
    let mut server = Server::start(dir.path(), &url, free_port()).await;
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    let body = futures::stream::poll_fn(move |cx| rx.poll_recv(cx));
    let request = client_for(&server.base, None)
        .post(server.url("/api/waitlist"))
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(body))
        .send();
    let in_flight = tokio::spawn(request);
    tx.send(Ok(b"{\"email\": ".to_vec())).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.sigterm();
    tokio::time::sleep(Duration::from_millis(300)).await;
    tx.send(Ok(b"\"term@example.com\"}".to_vec())).await.unwrap();
    drop(tx);
    let response = in_flight.await.unwrap().expect("answered");
    assert_eq!(response.status(), 200);
    let status = tokio::time::timeout(Duration::from_secs(15), server.child.wait()).await.unwrap().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_event_crosses_from_one_process_to_a_stream_on_another() {
    let Some(two) = TwoProcesses::start().await else { return };
    let TwoProcesses { a, b, db, .. } = &two;
    let now = chrono::Utc::now().timestamp_millis();
    let (_, ada_token) = insert_member(db, now, "ada").await;
    let (_, bob_token) = insert_member(db, now, "bob").await;
    let ada_on_a = client_for(&a.base, Some(&format!("murmur_session={ada_token}")));
    let bob_on_b = client_for(&b.base, Some(&format!("murmur_session={bob_token}")));
    let post: Value = ada_on_a
        .post(a.url("/api/posts"))
        .json(&json!({ "content": "Hi" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut ada_events = crate::live::Events::open(&ada_on_a, &a.url("/api/events"), None).await;
    ada_events.expect("hello").await;
    // Bob's like is answered by B; Ada's stream is held by A.
    let liked = bob_on_b.post(b.url(&format!("/api/posts/{}/like", post["id"]))).send().await.unwrap();
    assert_eq!(liked.status(), 200);
    ada_events.expect("notification").await;
    assert_eq!(ada_events.expect("unread-count").await.2, json!({ "count": 1 }));
}

/// A member signed in on `server` (their browser's session there, from `insert_member`).
fn member_on(server: &Server, (id, session): (i64, String), name: &str) -> Member {
    Member {
        id,
        username: name.to_string(),
        email: format!("{name}@example.com"),
        client: client_for(&server.base, Some(&format!("murmur_session={session}"))),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mastodon_stream_on_one_process_hears_writes_made_on_another() {
    use crate::mastodon::{AppClient, next_event, open_stream, token_for};
    let Some(two) = TwoProcesses::start().await else { return };
    let TwoProcesses { a, b, db, .. } = &two;
    let now = chrono::Utc::now().timestamp_millis();
    // Each member consents in their browser on the process that will serve their app.
    let ada = member_on(a, insert_member(db, now, "ada").await, "ada");
    let bob = member_on(b, insert_member(db, now, "bob").await, "bob");
    let ada_token = token_for(&a, &ada, "read write follow").await;
    let ada_app = AppClient::new(&a, &ada_token);
    let bob_app = AppClient::new(&b, &token_for(&b, &bob, "read write follow").await);
    assert_eq!(ada_app.post(&format!("/api/v1/accounts/{}/follow", bob.id), json!({})).await.0, 200);
    let (_, mine) = ada_app.post("/api/v1/statuses", json!({"status": "mine"})).await;

    // Ada's app streams from A; every write below is answered by B, and its event must reach
    // A within a second of the answer.
    let mut stream = open_stream(&a.url("/api/v1/streaming/user"), &ada_token).await;
    let within = Duration::from_secs(1);
    let (status, post) = bob_app.post("/api/v1/statuses", json!({"status": "from B"})).await;
    assert_eq!(status, 200, "{post}");
    let post_id = post["id"].as_str().unwrap();
    let (name, update) = next_event(&mut stream, within).await.expect("an update within a second");
    assert_eq!((name.as_str(), &update["id"]), ("update", &post["id"]), "{update}");

    let liked = bob_app.post(&format!("/api/v1/statuses/{}/favourite", mine["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(liked.0, 200, "{}", liked.1);
    let (name, notification) = next_event(&mut stream, within).await.expect("a notification within a second");
    assert_eq!((name.as_str(), notification["type"].as_str()), ("notification", Some("favourite")), "{notification}");

    let (status, _) = bob_app.put(&format!("/api/v1/statuses/{post_id}"), json!({"status": "from B, edited"})).await;
    assert_eq!(status, 200);
    let (name, edited) = next_event(&mut stream, within).await.expect("a status.update within a second");
    assert_eq!((name.as_str(), &edited["id"]), ("status.update", &post["id"]), "{edited}");
    assert!(edited["content"].as_str().unwrap().contains("from B, edited"), "{edited}");

    let (status, _) = bob_app.delete(&format!("/api/v1/statuses/{post_id}")).await;
    assert_eq!(status, 200);
    let (name, deleted) = next_event(&mut stream, within).await.expect("a delete within a second");
    assert_eq!((name.as_str(), deleted.to_string()), ("delete", post_id.to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_message_written_on_one_process_reaches_the_direct_stream_on_another() {
    use crate::mastodon::{AppClient, next_event, open_stream, token_for};
    let Some(two) = TwoProcesses::start().await else { return };
    let TwoProcesses { a, b, db, .. } = &two;
    let now = chrono::Utc::now().timestamp_millis();
    let ada = member_on(a, insert_member(db, now, "ada").await, "ada");
    let bob = member_on(b, insert_member(db, now, "bob").await, "bob");
    let ada_token = token_for(a, &ada, "read write follow").await;
    let ada_app = AppClient::new(a, &ada_token);
    let bob_app = AppClient::new(b, &token_for(b, &bob, "read write follow").await);
    // Ada takes messages from people she follows.
    assert_eq!(ada_app.post(&format!("/api/v1/accounts/{}/follow", bob.id), json!({})).await.0, 200);

    // Ada's app reads her conversations from A; Bob writes on B, and it must reach A within a
    // second of the answer.
    let mut stream = open_stream(&a.url("/api/v1/streaming/direct"), &ada_token).await;
    let (status, sent) =
        bob_app.post("/api/v1/statuses", json!({"status": "@ada from B", "visibility": "direct"})).await;
    assert_eq!(status, 200, "{sent}");
    let (name, conversation) =
        next_event(&mut stream, Duration::from_secs(1)).await.expect("a conversation within a second");
    assert_eq!((name.as_str(), &conversation["last_status"]["id"]), ("conversation", &sent["id"]), "{conversation}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_on_one_process_closes_its_streams_on_another() {
    use crate::mastodon::{AppClient, consent, exchange, open_stream, register_app, token_for};
    use crate::stream_ends::{Carried, open_socket, socket_events, sse_events};
    let Some(two) = TwoProcesses::start().await else { return };
    let TwoProcesses { a, b, db, .. } = &two;
    let now = chrono::Utc::now().timestamp_millis();
    let ada = member_on(a, insert_member(db, now, "ada").await, "ada");
    let bob = member_on(b, insert_member(db, now, "bob").await, "bob");
    let (client_id, secret) = register_app(a, "read write follow").await;
    let verifier = "a-verifier-of-enough-length-0123456789-abcdefghij";
    let code = consent(a, &ada, &client_id, "read write follow", verifier).await;
    let (_, issued) = exchange(a, &client_id, Some(&secret), &code, verifier).await;
    let token = issued["access_token"].as_str().unwrap().to_string();
    let ada_app = AppClient::new(a, &token);
    assert_eq!(ada_app.post(&format!("/api/v1/accounts/{}/follow", bob.id), json!({})).await.0, 200);
    let bob_app = AppClient::new(b, &token_for(b, &bob, "read write").await);

    // Ada's app streams from A, over SSE and a WebSocket; the app revokes its token on B.
    let mut sse = open_stream(&a.url("/api/v1/streaming/user"), &token).await;
    let mut socket = open_socket(a, "user", &token, Carried::Header).await;
    let revoke = [("client_id", client_id.as_str()), ("client_secret", secret.as_str()), ("token", token.as_str())];
    let response = reqwest::Client::new().post(b.url("/oauth/revoke")).form(&revoke).send().await.unwrap();
    assert_eq!(response.status(), 200);
    // Bob posts at once, on B: nothing of it reaches the ended streams.
    let (status, _) = bob_app.post("/api/v1/statuses", json!({"status": "after the revoke"})).await;
    assert_eq!(status, 200);
    let within = Duration::from_secs(1);
    assert_eq!(sse_events(&mut sse, within).await, (vec![], true), "the SSE stream on A closes");
    assert_eq!(socket_events(&mut socket, within).await, (vec![], true), "the WebSocket on A closes");
    assert_eq!(ada_app.get("/api/v1/accounts/verify_credentials").await.0, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_postgres_share_sessions_posts_and_limits() {
    let Some(two) = TwoProcesses::start().await else { return };
    let TwoProcesses { a, b, db, .. } = &two;
    let (ada_id, token) = insert_member(db, chrono::Utc::now().timestamp_millis(), "ada").await;
    let cookie = format!("murmur_session={token}");
    let on_a = client_for(&a.base, Some(&cookie));
    let on_b = client_for(&b.base, Some(&cookie));

    // A session started anywhere works everywhere.
    for (client, server) in [(&on_a, &a), (&on_b, &b)] {
        let me: Value = client.get(server.url("/api/auth/me")).send().await.unwrap().json().await.unwrap();
        assert_eq!(me["id"], ada_id);
    }
    // A post made on one process is in the feed read from the other.
    let post: Value = on_a
        .post(a.url("/api/posts"))
        .json(&json!({ "content": "written on A" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let feed: Value = on_b.get(b.url("/api/posts/feed?limit=20&offset=0")).send().await.unwrap().json().await.unwrap();
    let ids: HashSet<i64> = feed.as_array().unwrap().iter().filter_map(|p| p["id"].as_i64()).collect();
    assert!(ids.contains(&post["id"].as_i64().unwrap()), "feed on B: {feed}");
    // B keeps that page ready (crates/domain/src/feeds/cache.rs); a like made on A shows in it at once.
    let liked = on_a.post(a.url(&format!("/api/posts/{}/like", post["id"]))).send().await.unwrap();
    assert_eq!(liked.status(), 200);
    let feed: Value = on_b.get(b.url("/api/posts/feed?limit=20&offset=0")).send().await.unwrap().json().await.unwrap();
    let card = feed.as_array().unwrap().iter().find(|p| p["id"] == post["id"]).expect("still there");
    assert_eq!((card["isLiked"].clone(), card["likeCount"].clone()), (json!(true), json!(1)), "feed on B: {feed}");

    // Rate limits hold across both: 5 login links per address per hour in all.
    let mut statuses = Vec::new();
    for i in 0..6 {
        let (client, server) = if i % 2 == 0 { (&on_a, &a) } else { (&on_b, &b) };
        let r = client
            .post(server.url("/api/auth/request-login-link"))
            .json(&json!({ "email": "limited@example.com" }))
            .send()
            .await
            .unwrap();
        statuses.push(r.status().as_u16());
    }
    assert_eq!(statuses, vec![200, 200, 200, 200, 200, 429]);
}

/// `(thread name, nice value)` of every thread of process `pid` (Linux: `/proc/<pid>/task`).
fn threads_of(pid: u32) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let dir = task.unwrap().path();
        let (Ok(name), Ok(stat)) =
            (std::fs::read_to_string(dir.join("comm")), std::fs::read_to_string(dir.join("stat")))
        else {
            continue; // the thread ended meanwhile
        };
        // After "pid (name) ": state is field 3, nice field 19.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        out.push((name.trim().to_string(), fields[16].parse().unwrap()));
    }
    out
}

/// `murmur serve` on SQLite: the async runtime's threads (requests, and the readers' connection
/// threads opened from them) run `READERS_NICE` below the main thread, the write thread and the
/// writer's connection thread (docs/performance.md); on PostgreSQL nothing is lowered.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_the_readers_threads_run_below_the_writer() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
    let server = Server::start(dir.path(), &url, free_port()).await;
    // A read on the readers' pool, and a write (the waitlist) on the writer; /readyz also lists
    // the local object store on a blocking-pool thread, which a worker thread starts.
    assert_eq!(reqwest::get(server.url("/readyz")).await.unwrap().status(), 200);
    let joined = client_for(&server.base, None)
        .post(server.url("/api/waitlist"))
        .json(&json!({ "email": "nice@example.com" }))
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 200);

    let pid = server.child.id().unwrap();
    let threads = threads_of(pid);
    let nice_of = |name: &str| -> Vec<i32> {
        threads.iter().filter(|(n, _)| n.starts_with(name)).map(|(_, nice)| *nice).collect()
    };
    let main = threads.iter().find(|(n, _)| n == "murmur").map(|(_, nice)| *nice).expect("the main thread");
    let lowered = main + murmur::db::READERS_NICE;
    assert_eq!(nice_of("murmur-writes"), vec![main], "{threads:?}");
    let workers = nice_of("tokio-rt-worker");
    assert!(!workers.is_empty() && workers.iter().all(|&n| n == lowered), "{threads:?}");
    // SQLite's connections: the writer's (and the write requests' readers') at the main
    // thread's priority, the readers' below it.
    let connections = nice_of("sqlx-sqlite");
    assert!(connections.contains(&main), "{threads:?}");
    assert!(connections.contains(&lowered), "{threads:?}");
    assert!(connections.iter().all(|&n| n == main || n == lowered), "{threads:?}");

    let Some(pg) = PgDatabase::create().await else { return };
    let pg_dir = tempfile::tempdir().unwrap();
    let on_postgres = Server::start(pg_dir.path(), &pg.url, free_port()).await;
    let threads = threads_of(on_postgres.child.id().unwrap());
    assert!(threads.iter().all(|(_, nice)| *nice == main), "{threads:?}");
}

/// Peak resident memory of a process so far (VmHWM), in MB.
fn peak_rss_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_huge_images_at_once_keep_memory_bounded_and_each_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    let (_, token) = insert_member(&db, chrono::Utc::now().timestamp_millis(), "uploader").await;
    let server = Server::start(dir.path(), &url, free_port()).await;
    let client = client_for(&server.base, Some(&format!("murmur_session={token}")));
    // 39.7 megapixels in a small file: the size of the image, not of the upload, costs memory.
    let huge = bytes::Bytes::from(crate::fixtures::png(7300, 5440));
    let mut upload_urls = Vec::new();
    for _ in 0..8 {
        let (status, body) =
            crate::common::json(client.post(server.url("/api/objects/upload")).send().await.unwrap()).await;
        assert_eq!(status, 200, "{body}");
        upload_urls.push(body["uploadURL"].as_str().unwrap().to_string());
    }
    let put = |upload_url: String| {
        let (client, huge) = (client.clone(), huge.clone());
        async move {
            let response = client
                .put(&upload_url)
                .header("content-type", "image/png")
                .header("x-requested-with", "murmur")
                .body(huge)
                .timeout(Duration::from_secs(300))
                .send()
                .await
                .unwrap();
            let retry_after = response.headers().get("retry-after").is_some();
            (response.status().as_u16(), retry_after, upload_url)
        }
    };
    let answers = futures::future::join_all(upload_urls.into_iter().map(put)).await;
    let mut refused = Vec::new();
    for (status, retry_after, upload_url) in answers {
        match status {
            200 => {}
            503 => {
                assert!(retry_after, "a 503 says when to come back");
                refused.push(upload_url);
            }
            other => panic!("an upload answered {other}; log:\n{}", server.log()),
        }
    }
    // Nothing refused is lost: the same URL takes the image once the queue has room.
    for upload_url in refused {
        let (status, _, _) = put(upload_url).await;
        assert_eq!(status, 200, "log:\n{}", server.log());
    }
    let peak = peak_rss_mb(server.child.id().unwrap());
    assert!(peak <= 600, "peak RSS {peak} MB");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_name_each_request_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
    let server = Server::start_with(dir.path(), &url, free_port(), |command| {
        command.args(["--log-format", "json"]).env("RUST_LOG", "murmur=info,tower_http=debug");
    })
    .await;
    let response = client_for(&server.base, None)
        .get(server.url("/api/posts/1/thread"))
        .header("x-request-id", "find-me-7")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let log = server.log();
    let lines: Vec<Value> =
        log.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}"))).collect();
    let mine: Vec<&Value> = lines.iter().filter(|l| l["span"]["request_id"] == "find-me-7").collect();
    assert!(!mine.is_empty(), "no line names the request; log:\n{log}");
    assert!(mine.iter().all(|l| l["span"]["path"] == "/api/posts/1/thread"), "{mine:?}");
}
