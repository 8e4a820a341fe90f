//! `murmur export-db` and `murmur import-db`, run as an operator runs them (the real binary):
//! a seeded network moves between SQLite and PostgreSQL row for row, and an import that cannot
//! finish leaves the target as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{PgDatabase, insert_member};
use murmur::db::transfer;
use murmur::db::{Backend, Db};

/// A database for one test: SQLite in a temporary directory, or a fresh PostgreSQL database.
struct Target {
    dir: tempfile::TempDir,
    url: String,
    _pg: Option<PgDatabase>,
}

impl Target {
    fn sqlite() -> Target {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("murmur.db").display());
        Target { dir, url, _pg: None }
    }

    async fn postgres() -> Option<Target> {
        let pg = PgDatabase::create().await?;
        Some(Target { dir: tempfile::tempdir().unwrap(), url: pg.url.clone(), _pg: Some(pg) })
    }

    async fn db(&self) -> Db {
        Db::connect(&self.url).await.expect("connects")
    }

    fn murmur(&self, args: &[&str], file: &Path) -> Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_murmur"))
            .args(args)
            .arg(file)
            .arg("--data-dir")
            .arg(self.dir.path())
            .arg("--database-url")
            .arg(&self.url)
            .env_remove("DATABASE_URL")
            .output()
            .expect("the murmur binary runs")
    }

    fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Text that JSON and SQL quoting must both carry unchanged.
const HOSTILE: &str = "quote \" apostrophe ' back\\slash\nnew line\ttab é 🎉 \u{2028} \\u0041 [1,\"x\"] end";

/// A small seeded network, and a row or two in every table the seed leaves empty, so that every
/// table is compared; answers the largest post id handed out, which is a deleted post's.
async fn seeded(target: &Target) -> i64 {
    let db = target.db().await;
    db.migrate().await.unwrap();
    let options = murmur::seed::Options {
        members: 40,
        posts: 300,
        seed: 11,
        follows_per_member: 8.0,
        image_fraction: 0.2,
        now: Some("2026-06-01T00:00:00Z".into()),
        quiet: true,
        ..murmur::seed::Options::default()
    };
    murmur::seed::run(&db, &options).await.expect("seeds");
    murmur::seed::start_sessions(&db, 4).await.unwrap();
    let statements = [
        "UPDATE users SET bio = $1 WHERE id = 1",
        "INSERT INTO invites (code, owner_id, created_at, expires_at, used_at, used_by) VALUES ('ABCDEFGHJKLM', 1, 1, 2, 3, 2)",
        "INSERT INTO invites (code, owner_id, created_at, expires_at) VALUES ('MLKJHGFEDCBA', NULL, 1, 2)",
        "INSERT INTO magic_links (token_hash, email, purpose, invite_code, created_at, expires_at) \
         VALUES ('h1', 'new@example.com', 'signup', 'ABCDEFGHJKLM', 1, 2)",
        "INSERT INTO waitlist (email, created_at, invited_at) VALUES ('wait@example.com', 1, NULL), ('w2@example.com', 2, 3)",
        "INSERT INTO rate_limits (key, window_start, count) VALUES ('login:127.0.0.1', 60000, 3)",
        "INSERT INTO for_you_rankings (created_at, ranked) VALUES (5, '[3,2,1]')",
        "INSERT INTO for_you_snapshots (user_id, ranking_id) SELECT 1, MAX(id) FROM for_you_rankings",
        "INSERT INTO timeline_fanouts (post_id, author_id, after_follower) SELECT id, author_id, 7 FROM posts WHERE id = 1",
        "INSERT INTO tags (key, name, created_at) VALUES ('followed_here', 'Followed_Here', 1)",
        "INSERT INTO followed_tags (member_id, tag_id, created_at) SELECT 1, id, 3 FROM tags WHERE key = 'followed_here'",
        "UPDATE home_timeline SET via_tag_id = (SELECT id FROM tags WHERE key = 'followed_here') \
         WHERE member_id = 1 AND post_id = (SELECT MIN(post_id) FROM home_timeline WHERE member_id = 1)",
        "INSERT INTO tag_fanouts (post_id, author_id, after_member) SELECT id, author_id, 5 FROM posts WHERE id = 1",
        "INSERT INTO member_positions (member_id, position) VALUES (1, 4096)",
        "INSERT INTO link_cards (url, title, description, site_name, fetched_at, due_at) \
         VALUES ('https://ada.example/engines', $1, 'On engines', 'Ada''s notes', 5, 6)",
        "UPDATE posts SET link_card_id = (SELECT MAX(id) FROM link_cards), link_card_removed_at = 7 WHERE id = 1",
        "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (1, 2, 4)",
        "INSERT INTO mutes (muter_id, muted_id, created_at, expires_at) VALUES (2, 1, 4, NULL)",
        "INSERT INTO reports (reporter_id, member_id, post_id, reason, comment, created_at) VALUES (2, 1, 1, 'other', 'odd', 5)",
        "INSERT INTO moderation_log (created_at, moderator_id, action, member_id, post_id, report_id, reason) \
         SELECT 6, 2, 'dismiss', 1, 1, MAX(id), 'fine' FROM reports",
        "INSERT INTO jobs (name, next_run_at, cursor) VALUES ('entities', 7, 3)",
        "UPDATE posts SET edited_at = 8 WHERE id = 1",
        "INSERT INTO post_edits (post_id, content, written_at, replaced_at) VALUES (1, $1, 1, 8)",
        "UPDATE posts SET spoiler_text = $1 WHERE id = 1",
        "INSERT INTO post_edits (post_id, content, spoiler_text, written_at, replaced_at) VALUES (1, 'before', $1, 8, 9)",
        "INSERT INTO post_edit_images (edit_id, position, media_id, alt) \
         SELECT MAX(e.id), 0, MIN(m.id), $1 FROM post_edits e, media m",
        "UPDATE users SET expand_warnings = 1 WHERE id = 2",
        "INSERT INTO bookmarks (user_id, post_id, created_at) VALUES (3, 1, 9)",
        "INSERT INTO pinned_posts (user_id, post_id, created_at) SELECT author_id, id, 9 FROM posts WHERE id = 1",
        "INSERT INTO post_keys (member_id, key, post_id, created_at, endpoint, body_hash) \
         VALUES (1, $1, 1, 9, 'POST /api/posts', 'abc'), (2, 'k-2', NULL, 10, NULL, NULL)",
        "INSERT INTO apps (client_id, secret_hash, name, website, redirect_uris, scopes, created_at) \
         VALUES ('c-1', 's', $1, NULL, 'urn:ietf:wg:oauth:2.0:oob', 'read write', 1)",
        "INSERT INTO app_codes (code_hash, app_id, member_id, redirect_uri, scopes, code_challenge, expires_at) \
         SELECT 'code', MAX(id), 1, 'urn:ietf:wg:oauth:2.0:oob', 'read', NULL, 9 FROM apps",
        "INSERT INTO app_tokens (token_hash, app_id, member_id, scopes, created_at, last_used_at) \
         SELECT 't-1', MAX(id), 1, 'read', 2, 3 FROM apps UNION ALL SELECT 't-2', MAX(id), NULL, 'read', 2, 3 FROM apps",
        "INSERT INTO markers (member_id, timeline, last_read_id, version, updated_at) VALUES (1, 'home', 5, 2, 3)",
        "UPDATE users SET deleted_at = 8 WHERE id = 3",
        "INSERT INTO account_deletions (member_id, deleted_at, claimed_until) VALUES (3, 8, 0)",
        "INSERT INTO username_holds (username, until) VALUES ('gone_member', 9)",
        "INSERT INTO data_exports (member_id, status, requested_at, attempts, archive_id, byte_size, finished_at, expires_at) \
         VALUES (1, 'ready', 1, 1, '0123456789abcdef0123456789abcdef', 10, 2, 3), (2, 'pending', 4, 0, NULL, NULL, NULL, NULL)",
        "INSERT INTO trending_tags (rank, tag_id, people_count, post_count, computed_at) SELECT 1, MIN(id), 3, 4, 5 FROM tags \
         HAVING COUNT(*) > 0",
        "INSERT INTO push_keys (id, private_key, public_key, created_at) VALUES (1, 'private', $1, 1)",
        "INSERT INTO push_subscriptions (member_id, session_hash, endpoint, p256dh, auth, alerts, policy, created_at) \
         SELECT user_id, MIN(id_hash), 'https://push.example/1', 'key', 'auth', 63, 'all', 2 FROM sessions GROUP BY user_id",
        "INSERT INTO push_subscriptions (member_id, token_id, endpoint, p256dh, auth, alerts, policy, created_at) \
         SELECT 1, MIN(id), 'https://push.example/2', 'key', 'auth', 3, 'followed', 2 FROM app_tokens",
        "INSERT INTO push_deliveries (notification_id, subscription_id, attempts, due_at, claimed_until, created_at) \
         SELECT MIN(n.id), MIN(s.id), 1, 3, NULL, 4 FROM notifications n, push_subscriptions s",
        "INSERT INTO passkeys (user_id, credential_id, user_handle, name, credential, created_at, last_used_at) \
         VALUES (1, 'AAECAwQFBgcICQ', '6f1c2a4e-0000-4000-8000-000000000001', $1, '{}', 2, NULL)",
        "INSERT INTO passkey_ceremonies (id_hash, kind, user_id, state, created_at, expires_at) \
         VALUES ('ceremony-1', 'register', 1, '{}', 2, 3), ('ceremony-2', 'login', NULL, '{}', 2, 3)",
        "UPDATE sessions SET signed_in_with = 'passkey', reauthenticated_at = 4 WHERE user_id = 1",
        "INSERT INTO lists (owner_id, title, created_at) VALUES (1, $1, 2)",
        "INSERT INTO list_members (list_id, member_id, created_at) SELECT MAX(id), 2, 3 FROM lists",
        "INSERT INTO muted_words (member_id, text, word_key, created_at, expires_at) VALUES (1, $1, ' muted ', 2, NULL), \
         (2, 'Café', ' cafe ', 3, 4)",
        "UPDATE posts SET muting_text = ' hello murmur ' WHERE id = 1",
        "UPDATE posts SET quote_of_id = 1, quote_detached_at = 9, quotes_allowed = 0 WHERE id = 2",
        "UPDATE users SET messages_from = 'everyone' WHERE id = 2",
        "INSERT INTO conversations (member_key, started_by, created_at, last_message_id) VALUES ('1,2', 1, 2, 0)",
        "INSERT INTO conversation_members (conversation_id, member_id, box, muted, last_read_id, joined_at) \
         SELECT MAX(id), 1, 'inbox', 0, 0, 2 FROM conversations UNION ALL \
         SELECT MAX(id), 2, 'requests', 1, 0, 2 FROM conversations",
        "INSERT INTO messages (conversation_id, author_id, content, created_at, deleted_at) \
         SELECT MAX(id), 1, $1, 3, NULL FROM conversations UNION ALL SELECT MAX(id), 2, '', 4, 5 FROM conversations",
        "UPDATE conversations SET last_message_id = (SELECT MAX(id) FROM messages)",
        "INSERT INTO report_messages (report_id, message_id, author_id, content, sent_at) \
         SELECT MAX(r.id), MIN(m.id), 1, $1, 3 FROM reports r, messages m",
        "INSERT INTO push_deliveries (message_id, subscription_id, attempts, due_at, claimed_until, created_at) \
         SELECT MIN(m.id), MIN(s.id), 0, 3, NULL, 4 FROM messages m, push_subscriptions s",
    ];
    for sql in statements {
        let query = sqlx::query(sql);
        let query = if sql.contains("$1") { query.bind(HOSTILE) } else { query };
        query.execute(&db.write).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    for (table, n) in counts(&db).await {
        assert!(n > 0, "the seeded network has no {table} rows: the comparison would not cover them");
    }
    // An undone repost is deleted: the largest id handed out is above the largest row's.
    let gone: i64 = sqlx::query_scalar(
        "INSERT INTO posts (author_id, content, created_at, repost_of_id) VALUES (2, '', 1, 1) RETURNING id",
    )
    .fetch_one(&db.write)
    .await
    .unwrap();
    sqlx::query("DELETE FROM posts WHERE id = $1").bind(gone).execute(&db.write).await.unwrap();
    db.close().await;
    gone
}

/// The database's tables in the order the transfer copies them.
async fn tables(db: &Db) -> Vec<String> {
    let mut conn = db.read.acquire().await.unwrap();
    transfer::tables_in_order(&mut conn, db.backend).await.unwrap()
}

async fn counts(db: &Db) -> Vec<(String, i64)> {
    let mut counts = Vec::new();
    for table in tables(db).await {
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&db.read)
            .await
            .unwrap();
        counts.push((table.to_string(), n));
    }
    counts
}

/// Every table's rows as JSON arrays of the column values, sorted, by table.
async fn rows(db: &Db) -> BTreeMap<String, Vec<Value>> {
    let tables = tables(db).await;
    let mut conn = db.read.acquire().await.unwrap();
    let mut all = BTreeMap::new();
    for table in &tables {
        let columns = transfer::columns(&mut conn, db.backend, table).await.unwrap();
        let list = columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ");
        let sql = match db.backend {
            Backend::Sqlite => format!("SELECT json_array({list}) FROM {table}"),
            Backend::Postgres => format!("SELECT CAST(json_build_array({list}) AS TEXT) FROM {table}"),
        };
        let texts: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_all(&mut *conn).await.unwrap();
        let mut values: Vec<Value> = texts.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
        values.sort_by_cached_key(|v| v.to_string());
        all.insert(table.to_string(), values);
    }
    all
}

async fn assert_same_rows(source: &Target, target: &Target) {
    let (from, to) = (rows(&source.db().await).await, rows(&target.db().await).await);
    assert_eq!(from.keys().collect::<Vec<_>>(), to.keys().collect::<Vec<_>>());
    for table in from.keys() {
        assert!(from[table] == to[table], "{table} differs after the import");
    }
    assert!(to["users"].iter().any(|row| row.as_array().unwrap().iter().any(|v| v == HOSTILE)));
}

/// New rows after an import get fresh ids (PostgreSQL's identity sequences were moved on), also
/// past the source's deleted last post.
async fn assert_new_rows_get_fresh_ids(target: &Target, last_post: i64) {
    let db = target.db().await;
    let max_user: i64 = sqlx::query_scalar("SELECT MAX(id) FROM users").fetch_one(&db.read).await.unwrap();
    let (id, _) = insert_member(&db, 1, "newcomer").await;
    assert_eq!(id, max_user + 1);
    let max_post: i64 = sqlx::query_scalar("SELECT MAX(id) FROM posts").fetch_one(&db.read).await.unwrap();
    assert!(last_post > max_post);
    let post: i64 = sqlx::query_scalar(
        "INSERT INTO posts (author_id, content, created_at) VALUES ($1, 'after the move', 1) RETURNING id",
    )
    .bind(id)
    .fetch_one(&db.write)
    .await
    .unwrap();
    assert_eq!(post, last_post + 1);
}

fn assert_imported(output: &Output, counts: &[(String, i64)]) {
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}{}", text(&output.stderr));
    for (table, n) in counts {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(table))
            .unwrap_or_else(|| panic!("{table}: {out}"));
        assert_eq!(line.split_whitespace().skip(1).collect::<Vec<_>>(), [n.to_string(), n.to_string()], "{out}");
    }
}

async fn exported(source: &Target) -> PathBuf {
    let file = source.file("export.jsonl");
    let output = source.murmur(&["export-db"], &file);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("exported to"));
    file
}

/// An export of `source` with its header changed by `edit`, written to `name` beside it.
async fn exported_with_header(source: &Target, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let whole = std::fs::read_to_string(exported(source).await).unwrap();
    let (header, rest) = whole.split_once('\n').unwrap();
    let mut header: Value = serde_json::from_str(header).unwrap();
    edit(&mut header);
    let file = source.file(name);
    std::fs::write(&file, format!("{header}\n{rest}")).unwrap();
    file
}

/// Every table of the target is empty (its schema migrated or not).
async fn assert_empty(target: &Target) {
    let db = target.db().await;
    for table in tables(&db).await {
        let n: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(&db.read)
            .await
            .ok();
        assert!(n.unwrap_or(0) == 0, "{table} has rows after a failed import");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_network_moves_to_postgresql_row_for_row() {
    let Some(target) = Target::postgres().await else { return };
    moves_row_for_row(&Target::sqlite(), &target).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_network_moves_to_sqlite_row_for_row() {
    let Some(source) = Target::postgres().await else { return };
    moves_row_for_row(&source, &Target::sqlite()).await;
}

/// A seeded network exported from `source` and imported into `target` arrives row for row, and
/// the target goes on with fresh ids.
async fn moves_row_for_row(source: &Target, target: &Target) {
    let last_post = seeded(source).await;
    let file = exported(source).await;

    let output = target.murmur(&["import-db"], &file);

    assert_imported(&output, &counts(&source.db().await).await);
    assert_same_rows(source, target).await;
    assert_new_rows_get_fresh_ids(target, last_post).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_cut_short_imports_nothing() {
    let Some(target) = Target::postgres().await else { return };
    let source = Target::sqlite();
    seeded(&source).await;
    let file = exported(&source).await;
    // Cut at the end of a line past the middle: the rows before it are inserted, then undone.
    let whole = std::fs::read(&file).unwrap();
    let cut = whole[..whole.len() / 2].iter().rposition(|b| *b == b'\n').unwrap() + 1;
    let short = source.file("short.jsonl");
    std::fs::write(&short, &whole[..cut]).unwrap();

    let output = target.murmur(&["import-db"], &short);

    assert!(!output.status.success());
    let error = text(&output.stderr);
    assert!(error.contains("ends before its last line: it was cut short"), "{error}");
    assert!(error.contains("Nothing was imported"), "{error}");
    assert_empty(&target).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_line_imports_nothing() {
    let source = Target::sqlite();
    let target = Target::sqlite();
    seeded(&source).await;
    let file = exported(&source).await;
    let whole = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<&str> = whole.lines().collect();
    let middle = lines.len() * 2 / 3;
    assert!(lines[middle].starts_with('['));
    lines[middle] = "[1, \"half a row";
    let damaged = source.file("damaged.jsonl");
    std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();

    let output = target.murmur(&["import-db"], &damaged);

    assert!(!output.status.success());
    let error = text(&output.stderr);
    assert!(error.contains(&format!("line {}: not a row", middle + 1)), "{error}");
    assert!(error.contains("the file is damaged. Nothing was imported"), "{error}");
    assert_empty(&target).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_with_data_is_refused_and_left_as_it_was() {
    let source = Target::sqlite();
    let target = Target::sqlite();
    seeded(&source).await;
    let file = exported(&source).await;
    let db = target.db().await;
    db.migrate().await.unwrap();
    insert_member(&db, 1, "already").await;
    let before = rows(&db).await;
    db.close().await;

    let output = target.murmur(&["import-db"], &file);

    assert!(!output.status.success());
    let error = text(&output.stderr);
    assert!(error.contains("the target database already has data (users: 1, sessions: 1)"), "{error}");
    assert!(error.contains("Nothing was changed"), "{error}");
    assert!(rows(&target.db().await).await == before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_of_another_schema_version_is_refused_before_the_target_is_touched() {
    let source = Target::sqlite();
    let target = Target::sqlite();
    seeded(&source).await;
    let mut version = 0;
    let older = exported_with_header(&source, "older.jsonl", |header| {
        version = header["schema_version"].as_i64().unwrap();
        header["schema_version"] = (version - 1).into();
    })
    .await;

    let output = target.murmur(&["import-db"], &older);

    assert!(!output.status.success());
    let error = text(&output.stderr);
    assert!(error.contains(&format!("schema version {} and this murmur's is {version}", version - 1)), "{error}");
    assert!(error.contains("import it with the murmur version that exported it"), "{error}");
    let db = target.db().await;
    let tables: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'").fetch_all(&db.read).await.unwrap();
    assert!(tables.is_empty(), "{tables:?}");
}

/// Every table of the schema is copied, each after the tables its foreign keys name, in one
/// order on both databases (a file moves from either to the other).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_copied_tables_are_every_table_of_the_schema_parents_first() {
    let mut targets = vec![Target::sqlite()];
    targets.extend(Target::postgres().await);
    let mut orders = Vec::new();
    for target in targets {
        let db = target.db().await;
        db.migrate().await.unwrap();
        let order = tables(&db).await;
        let mut conn = db.read.acquire().await.unwrap();
        let mut in_schema = transfer::tables_in_schema(&mut conn, db.backend).await.unwrap();
        in_schema.sort();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, in_schema, "{:?}", db.backend);
        assert!(order.len() >= 50, "{order:?}");
        for (at, parent) in order.iter().enumerate() {
            for (child, column, _) in murmur::db::schema::references_to(&mut conn, db.backend, parent).await.unwrap() {
                let child_at = order.iter().position(|t| *t == child).unwrap();
                assert!(child_at >= at, "{child}.{column} names {parent}, which comes later: {order:?}");
            }
        }
        orders.push(order);
    }
    assert!(orders.windows(2).all(|pair| pair[0] == pair[1]), "{orders:?}");
}

/// A file whose tables come in an order the target's keys refuse is refused before any row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_listing_a_table_before_its_parent_is_refused() {
    let source = Target::sqlite();
    let target = Target::sqlite();
    seeded(&source).await;
    let reordered = exported_with_header(&source, "reordered.jsonl", |header| {
        let listed = header["tables"].as_array_mut().unwrap();
        let users = listed.iter().position(|t| t["table"] == "users").unwrap();
        let posts = listed.iter().position(|t| t["table"] == "posts").unwrap();
        assert!(users < posts);
        listed.swap(users, posts);
    })
    .await;

    let output = target.murmur(&["import-db"], &reordered);

    assert!(!output.status.success());
    let error = text(&output.stderr);
    assert!(error.contains("the file lists posts before "), "{error}");
    assert!(error.contains("whose rows it names; it was not written by murmur export-db"), "{error}");
    assert_empty(&target).await;
}
