//! `murmur seed`: the made-up network the benchmark measures must be the size asked for,
//! consistent (every denormalised counter equals its rows), and the same for the same seed.

use sha2::{Digest, Sha256};

use crate::both_databases;
use crate::common::{Backend, TestApp, client_for, json};
use murmur::seed::{self, Options};

fn small(seed: u64) -> Options {
    Options {
        members: 200,
        posts: 2_000,
        seed,
        follows_per_member: 20.0,
        // A fixed "now", so two runs agree whatever the time of day.
        now: Some("2026-06-01T00:00:00Z".into()),
        ..Options::default()
    }
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.state.db.read).await.unwrap()
}

/// A digest of the columns that carry the generator's choices.
async fn checksum(app: &TestApp) -> String {
    let db = &app.state.db.read;
    let mut hash = Sha256::new();
    let users: Vec<(i64, String, String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT id, username, display_name, bio, created_at, follower_count, following_count FROM users ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap();
    hash.update(format!("{users:?}"));
    // id, author, content, created_at, reply_to_id, repost_of_id, like_count
    type PostRow = (i64, i64, String, i64, Option<i64>, Option<i64>, i64);
    let posts: Vec<PostRow> = sqlx::query_as(
        "SELECT id, author_id, content, created_at, reply_to_id, repost_of_id, like_count FROM posts ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap();
    hash.update(format!("{posts:?}"));
    let likes: Vec<(i64, i64, i64)> =
        sqlx::query_as("SELECT user_id, post_id, created_at FROM likes ORDER BY user_id, post_id")
            .fetch_all(db)
            .await
            .unwrap();
    hash.update(format!("{likes:?}"));
    let notes: Vec<(i64, i64, i64, String, i64)> =
        sqlx::query_as("SELECT id, recipient_id, actor_id, type, post_id FROM notifications ORDER BY id")
            .fetch_all(db)
            .await
            .unwrap();
    hash.update(format!("{notes:?}"));
    hex::encode(hash.finalize())
}

async fn seeding_gives_the_asked_numbers_of_members_and_posts(app: TestApp) {
    let report = seed::run(&app.state.db, &small(1)).await.expect("seeds");

    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM users").await, 200);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts").await, 2_000);
    assert_eq!(report.members, 200);
    assert_eq!(report.posts, 2_000);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM likes").await as u64, report.likes);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM follows").await as u64, report.follows);
    // The mix the benchmark relies on: replies, reposts, polls with votes, likes, notifications.
    assert!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE reply_to_id IS NOT NULL").await > 200);
    assert!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE repost_of_id IS NOT NULL").await > 30);
    assert!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM poll_votes").await > 0);
    assert!(report.likes > 5_000, "about 5 likes per post: {}", report.likes);
    assert!(report.notifications > 0);
}

async fn every_counter_equals_the_rows_it_counts(app: TestApp) {
    seed::run(&app.state.db, &small(2)).await.expect("seeds");

    let wrong_users = count(
        &app,
        "SELECT CAST(COUNT(*) AS BIGINT) FROM users u \
         WHERE u.follower_count <> (SELECT COUNT(*) FROM follows f WHERE f.following_id = u.id) \
            OR u.following_count <> (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id)",
    )
    .await;
    let wrong_posts = count(
        &app,
        "SELECT CAST(COUNT(*) AS BIGINT) FROM posts p \
         WHERE p.like_count <> (SELECT COUNT(*) FROM likes l WHERE l.post_id = p.id) \
            OR p.reply_count <> (SELECT COUNT(*) FROM posts r WHERE r.reply_to_id = p.id) \
            OR p.repost_count <> (SELECT COUNT(*) FROM posts r WHERE r.repost_of_id = p.id)",
    )
    .await;

    assert_eq!(wrong_users, 0, "members whose follower or following count is off");
    assert_eq!(wrong_posts, 0, "posts whose like, reply or repost count is off");
}

async fn nobody_follows_or_notifies_themselves_and_a_few_are_followed_by_many(app: TestApp) {
    seed::run(&app.state.db, &small(3)).await.expect("seeds");

    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM follows WHERE follower_id = following_id").await, 0);
    assert_eq!(
        count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications WHERE recipient_id = actor_id").await,
        0
    );
    // Heavy tail: the most followed member has many times the median's followers.
    let most = count(&app, "SELECT MAX(follower_count) FROM users").await;
    let median = count(&app, "SELECT follower_count FROM users ORDER BY follower_count LIMIT 1 OFFSET 100").await;
    assert!(most >= 4 * median.max(1), "most followed {most}, median {median}");
}

async fn the_same_seed_gives_the_same_network(app: TestApp) {
    let twin = TestApp::spawn(app.backend).await.expect("a second database of the same kind");
    let other = TestApp::spawn(app.backend).await.expect("a third database of the same kind");

    seed::run(&app.state.db, &small(42)).await.expect("seeds");
    seed::run(&twin.state.db, &small(42)).await.expect("seeds the twin");
    seed::run(&other.state.db, &small(43)).await.expect("seeds with another seed");

    let first = checksum(&app).await;
    assert_eq!(first, checksum(&twin).await, "same seed, same rows");
    assert_ne!(first, checksum(&other).await, "another seed, another network");
}

async fn images_go_on_the_asked_share_of_posts_and_replies_and_show_on_the_media_tab(app: TestApp) {
    let report = seed::run(&app.state.db, &Options { image_fraction: 0.1, ..small(6) }).await.expect("seeds");

    let with_images = count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE image_count > 0").await;
    assert!((120..=280).contains(&with_images), "about a tenth of 2,000 posts: {with_images}");
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM post_images").await as u64, report.images);
    assert_eq!(
        count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE image_count > 0 AND repost_of_id IS NOT NULL")
            .await,
        0
    );
    let wrong = count(
        &app,
        "SELECT CAST(COUNT(*) AS BIGINT) FROM posts p \
         WHERE p.image_count <> (SELECT COUNT(*) FROM post_images i JOIN media m ON m.id = i.media_id \
                                 WHERE i.post_id = p.id AND m.owner_id = p.author_id AND m.status = 'ready')",
    )
    .await;
    assert_eq!(wrong, 0, "posts whose image count is off or whose images are not their author's ready uploads");
    // The Media tab of the author of the newest post with images starts with it.
    let (post_id, author): (i64, i64) =
        sqlx::query_as("SELECT id, author_id FROM posts WHERE image_count > 0 ORDER BY id DESC LIMIT 1")
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
    let token = murmur::sessions::create(&app.state.db.write, 1, app.clock.now()).await.unwrap();
    let cookie = format!("{}={token}", murmur::session_cookie::name(&app.state.config));
    let client = client_for(&app.base, Some(&cookie));
    let (status, media) =
        json(client.get(app.url(&format!("/api/users/member{author}/media"))).send().await.unwrap()).await;
    assert_eq!(status, 200, "{media}");
    assert_eq!(media[0]["id"], post_id);
    assert!(!media[0]["imageUrls"].as_array().unwrap().is_empty(), "{media}");
}

async fn a_seeded_member_can_use_the_app(app: TestApp) {
    seed::run(&app.state.db, &small(4)).await.expect("seeds");
    let token = murmur::sessions::create(&app.state.db.write, 17, app.clock.now()).await.unwrap();
    let cookie = format!("{}={token}", murmur::session_cookie::name(&app.state.config));
    let client = client_for(&app.base, Some(&cookie));

    let (status, me) = json(client.get(app.url("/api/auth/me")).send().await.unwrap()).await;

    assert_eq!(status, 200, "{me}");
    assert_eq!(me["username"], "member17");
    assert_eq!(me["email"], "member17@example.com");
    // New rows after a seed get fresh ids (PostgreSQL's identity sequences were moved on).
    let ada = app.member("ada").await;
    assert_eq!(ada.id, 201);
}

async fn seeding_refuses_a_database_that_already_has_members(app: TestApp) {
    app.member("ada").await;

    let refused = seed::run(&app.state.db, &small(5)).await;
    let forced = seed::run(&app.state.db, &Options { force: true, ..small(5) }).await;

    let message = refused.expect_err("refuses without --force").to_string();
    assert!(message.contains("already has 1 member"), "{message}");
    assert_eq!(forced.expect("seeds with --force").members, 200);
    // The seeded members come after the existing one.
    assert_eq!(count(&app, "SELECT MIN(id) FROM users WHERE username LIKE 'member%'").await, 2);
}

async fn sessions_for_the_benchmark_mix_heavy_and_light_followers(app: TestApp) {
    seed::run(&app.state.db, &small(6)).await.expect("seeds");

    let sessions = seed::start_sessions(&app.state.db, 8).await.unwrap();

    assert_eq!(sessions.len(), 8);
    let most = count(&app, "SELECT MAX(following_count) FROM users").await;
    let least = count(&app, "SELECT MIN(following_count) FROM users").await;
    assert_eq!(sessions[0].following, most);
    assert!(sessions.iter().any(|s| s.following == least));
    let cookie = format!("murmur_session={}", sessions[3].token);
    let (status, me) =
        json(client_for(&app.base, Some(&cookie)).get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(me["id"], sessions[3].user_id);
    // As many sessions as members: every member once (the live benchmark's distinct streams).
    let members = count(&app, "SELECT COUNT(*) FROM users").await as usize;
    let all = seed::start_sessions(&app.state.db, members as u32).await.unwrap();
    let distinct: std::collections::HashSet<i64> = all.iter().map(|s| s.user_id).collect();
    assert_eq!((all.len(), distinct.len()), (members, members));
}

/// The benchmark's safety rows: 20 sessions, each blocking and muting 10 and muting 40 words,
/// and 30 open reports.
fn with_safety_rows(seed: u64, dir: &tempfile::TempDir) -> Options {
    Options {
        sessions: 20,
        sessions_out: Some(dir.path().join("sessions.tsv")),
        blocks_per_session: 10,
        mutes_per_session: 10,
        muted_words_per_session: 40,
        open_reports: 30,
        ..small(seed)
    }
}

async fn safety_rows(app: &TestApp) -> String {
    let db = &app.state.db.read;
    let blocks: Vec<(i64, i64, i64)> =
        sqlx::query_as("SELECT blocker_id, blocked_id, created_at FROM blocks ORDER BY blocker_id, blocked_id")
            .fetch_all(db)
            .await
            .unwrap();
    let mutes: Vec<(i64, i64, i64)> =
        sqlx::query_as("SELECT muter_id, muted_id, created_at FROM mutes ORDER BY muter_id, muted_id")
            .fetch_all(db)
            .await
            .unwrap();
    // id, reporter, member, post, reason, comment, created_at
    type ReportRow = (i64, i64, i64, Option<i64>, String, String, i64);
    let reports: Vec<ReportRow> = sqlx::query_as(
        "SELECT id, reporter_id, member_id, post_id, reason, comment, created_at FROM reports ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap();
    format!("{blocks:?} {mutes:?} {reports:?}")
}

async fn each_session_blocks_and_mutes_others_and_open_reports_wait_for_an_admin(app: TestApp) {
    let dir = tempfile::tempdir().unwrap();
    let report = seed::run(&app.state.db, &with_safety_rows(8, &dir)).await.expect("seeds");

    assert_eq!(report.blocks, 10 * report.sessions);
    assert_eq!(report.mutes, 10 * report.sessions);
    assert_eq!(report.muted_words, 40 * report.sessions);
    assert_eq!(
        count(&app, "SELECT CAST(COUNT(DISTINCT word_key) AS BIGINT) FROM muted_words WHERE expires_at IS NULL").await,
        40
    );
    assert_eq!(report.open_reports, 30);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM blocks").await as u64, report.blocks);
    assert_eq!(
        count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM mutes WHERE expires_at IS NULL").await as u64,
        report.mutes
    );
    assert_eq!(
        count(&app, "SELECT CAST(COUNT(DISTINCT blocker_id) AS BIGINT) FROM blocks").await as u64,
        report.sessions
    );
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM blocks WHERE blocker_id = blocked_id").await, 0);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM mutes WHERE muter_id = muted_id").await, 0);
    // As a live block leaves them: no follows, no notifications between the two, and no mute.
    let left_between = count(
        &app,
        "SELECT CAST(COUNT(*) AS BIGINT) FROM blocks b WHERE \
         EXISTS (SELECT 1 FROM follows f WHERE (f.follower_id = b.blocker_id AND f.following_id = b.blocked_id) \
                                         OR (f.follower_id = b.blocked_id AND f.following_id = b.blocker_id)) \
         OR EXISTS (SELECT 1 FROM notifications n WHERE (n.recipient_id = b.blocker_id AND n.actor_id = b.blocked_id) \
                                                 OR (n.recipient_id = b.blocked_id AND n.actor_id = b.blocker_id)) \
         OR EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = b.blocker_id AND m.muted_id = b.blocked_id)",
    )
    .await;
    assert_eq!(left_between, 0, "blocks with follows, notifications or a mute between the two");
    let wrong_reports = count(
        &app,
        "SELECT CAST(COUNT(*) AS BIGINT) FROM reports r JOIN posts p ON p.id = r.post_id \
         WHERE r.resolved_at IS NOT NULL OR r.member_id <> p.author_id OR r.reporter_id = p.author_id \
            OR p.repost_of_id IS NOT NULL OR r.post_text IS NULL OR r.post_text <> p.content",
    )
    .await;
    assert_eq!(wrong_reports, 0, "reports resolved, on reposts, not on the reported member's post or not of its words");
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM reports WHERE post_id IS NOT NULL").await, 30);
    assert_eq!(
        count(&app, "SELECT CAST(COUNT(DISTINCT reporter_id * 1000000 + post_id) AS BIGINT) FROM reports").await,
        30
    );
    // The first session, the member who follows the most, is the one admin; members see their lists.
    let sessions = std::fs::read_to_string(dir.path().join("sessions.tsv")).unwrap();
    let first: Vec<&str> = sessions.lines().next().unwrap().split('\t').collect();
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM users WHERE role = 'admin'").await, 1);
    let admin = count(&app, "SELECT id FROM users WHERE role = 'admin'").await;
    assert_eq!(admin.to_string(), first[1]);
    let client = client_for(&app.base, Some(&format!("murmur_session={}", first[0])));
    for list in ["/api/blocks", "/api/mutes"] {
        let (status, page) = json(client.get(app.url(list)).send().await.unwrap()).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page.as_array().unwrap().len(), 10, "{list}: {page}");
    }
}

async fn the_same_seed_gives_the_same_blocks_mutes_and_reports(app: TestApp) {
    let twin = TestApp::spawn(app.backend).await.expect("a second database of the same kind");
    let (dir, twin_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());

    seed::run(&app.state.db, &with_safety_rows(9, &dir)).await.expect("seeds");
    seed::run(&twin.state.db, &with_safety_rows(9, &twin_dir)).await.expect("seeds the twin");

    assert_eq!(safety_rows(&app).await, safety_rows(&twin).await);
}

/// The benchmark compares SQLite and PostgreSQL on the same network, row for row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seed_gives_the_same_network_on_sqlite_and_postgresql() {
    let Some(postgres) = TestApp::spawn(Backend::Postgres).await else { return };
    let sqlite = TestApp::spawn(Backend::Sqlite).await.expect("SQLite is always available");

    seed::run(&sqlite.state.db, &small(7)).await.expect("seeds SQLite");
    seed::run(&postgres.state.db, &small(7)).await.expect("seeds PostgreSQL");

    assert_eq!(checksum(&sqlite).await, checksum(&postgres).await);
}

/// The benchmark's followed tags: each session's member follows the most used tags, and their
/// timeline holds what the tags' fan-out and upkeep's trim would have left: every tagged post at
/// or above the floor, at most `KEEP` of them.
async fn followed_tags_fill_each_timeline_above_its_floor_and_none_is_muted(app: TestApp) {
    let dir = tempfile::tempdir().unwrap();
    let options = Options {
        sessions: 12,
        sessions_out: Some(dir.path().join("sessions.tsv")),
        followed_tags_per_session: 3,
        muted_words_per_session: 30,
        ..small(9)
    };
    let report = seed::run(&app.state.db, &options).await.expect("seeds");

    assert_eq!(report.followed_tags, 3 * report.sessions);
    let marked = count(&app, "SELECT COUNT(*) FROM home_timeline WHERE via_tag_id IS NOT NULL").await;
    assert!(marked > 0, "no timeline row came from a followed tag");
    let most = count(
        &app,
        "SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM home_timeline \
         WHERE via_tag_id IS NOT NULL GROUP BY member_id) per_member",
    )
    .await;
    assert!(most <= murmur::timelines::KEEP, "{most} tag rows in one timeline");
    // The invariant every Friends page relies on: no followed tag's post at or above the floor
    // is missing.
    let missing = count(
        &app,
        "SELECT COUNT(*) FROM followed_tags ft JOIN users u ON u.id = ft.member_id \
         JOIN post_tags pt ON pt.tag_id = ft.tag_id \
         JOIN posts p ON p.id = pt.post_id AND p.reply_to_id IS NULL AND p.deleted_at IS NULL \
         WHERE pt.post_id >= u.home_floor AND pt.author_id <> ft.member_id \
         AND NOT EXISTS (SELECT 1 FROM home_timeline h WHERE h.member_id = ft.member_id AND h.post_id = pt.post_id)",
    )
    .await;
    assert_eq!(missing, 0);
    // Nobody mutes a tag they follow (the feed would hide what it was asked to bring).
    let muted_and_followed = count(
        &app,
        "SELECT COUNT(*) FROM muted_words mw JOIN followed_tags ft ON ft.member_id = mw.member_id \
         JOIN tags t ON t.id = ft.tag_id WHERE mw.word_key = ' ' || t.key || ' '",
    )
    .await;
    assert_eq!(muted_and_followed, 0);
    assert_eq!(report.muted_words, 30 * report.sessions);
}

/// The benchmark's messages: the Nth session's member starts conversation N, which reads and
/// takes messages (no block inside any conversation), and each conversation's latest message is
/// its newest.
async fn each_session_starts_a_conversation_and_messages_fill_them(app: TestApp) {
    let dir = tempfile::tempdir().unwrap();
    let options = Options { messages: 400, ..with_safety_rows(9, &dir) };
    let report = seed::run(&app.state.db, &options).await.expect("seeds");

    assert_eq!((report.messages, count(&app, "SELECT COUNT(*) FROM messages").await), (400, 400));
    assert_eq!(report.conversations as i64, count(&app, "SELECT COUNT(*) FROM conversations").await);
    assert!(report.conversations >= 20, "{report}");
    let lines = std::fs::read_to_string(dir.path().join("sessions.tsv")).unwrap();
    let sessions: Vec<(String, i64)> = lines
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields[0].to_string(), fields[1].parse().unwrap())
        })
        .collect();
    let starters: Vec<(i64, Option<i64>)> =
        sqlx::query_as("SELECT id, started_by FROM conversations ORDER BY id LIMIT 20")
            .fetch_all(&app.state.db.read)
            .await
            .unwrap();
    let expected: Vec<(i64, Option<i64>)> =
        sessions.iter().enumerate().map(|(n, (_, member))| (n as i64 + 1, Some(*member))).collect();
    assert_eq!(starters, expected);
    let blocked = "SELECT COUNT(*) FROM conversation_members a JOIN conversation_members b \
         ON b.conversation_id = a.conversation_id JOIN blocks k ON k.blocker_id = a.member_id AND k.blocked_id = b.member_id";
    assert_eq!(count(&app, blocked).await, 0);
    let stale = "SELECT COUNT(*) FROM conversations c WHERE c.last_message_id <> \
         COALESCE((SELECT MAX(id) FROM messages m WHERE m.conversation_id = c.id), 0)";
    assert_eq!(count(&app, stale).await, 0);

    let (token, _) = &sessions[4];
    let client = client_for(&app.base, Some(&format!("murmur_session={token}")));
    let (status, page) =
        json(client.get(app.url("/api/conversations/5/messages?limit=20")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{page}");
    let sent = client
        .post(app.url("/api/conversations/5/messages"))
        .header("X-Requested-With", "murmur")
        .json(&serde_json::json!({ "content": "A benchmark's message" }))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 201);
    let (status, list) = json(client.get(app.url("/api/conversations?box=inbox")).send().await.unwrap()).await;
    assert_eq!((status, list[0]["id"].as_i64()), (200, Some(5)), "{list}");
}

both_databases!(
    seeding_gives_the_asked_numbers_of_members_and_posts,
    every_counter_equals_the_rows_it_counts,
    nobody_follows_or_notifies_themselves_and_a_few_are_followed_by_many,
    the_same_seed_gives_the_same_network,
    images_go_on_the_asked_share_of_posts_and_replies_and_show_on_the_media_tab,
    a_seeded_member_can_use_the_app,
    seeding_refuses_a_database_that_already_has_members,
    sessions_for_the_benchmark_mix_heavy_and_light_followers,
    each_session_blocks_and_mutes_others_and_open_reports_wait_for_an_admin,
    the_same_seed_gives_the_same_blocks_mutes_and_reports,
    followed_tags_fill_each_timeline_above_its_floor_and_none_is_muted,
    each_session_starts_a_conversation_and_messages_fill_them,
);
