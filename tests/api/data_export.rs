//! "Download my data": the archive holds exactly what the database holds of its member (and
//! nothing of anyone else's), only its owner downloads it, it is kept 7 days, one at a time.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Read};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, json};
use crate::fixtures::{noise_png, png};
use crate::mailbox::nth_mail;
use crate::media::{id_of, uploaded};

// ---------------------------------------------------------------------------------------------
// Helpers

async fn post(app: &TestApp, member: &Member, body: Value) -> i64 {
    let (status, post) = json(member.client.post(app.url("/api/posts")).json(&body).send().await.unwrap()).await;
    assert_eq!(status, 201, "{post}");
    post["id"].as_i64().unwrap()
}

async fn ok(response: reqwest::Response) {
    let (status, body) = json(response).await;
    assert!((200..300).contains(&status), "{status}: {body}");
}

async fn request_export(app: &TestApp, member: &Member) -> (u16, Value) {
    json(member.client.post(app.url("/api/account/export")).send().await.unwrap()).await
}

async fn export_status(app: &TestApp, member: &Member) -> Value {
    let (status, body) = json(member.client.get(app.url("/api/account/export")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Waits (up to 30 s) until the member's export is no longer pending; answers its state.
async fn until_prepared(app: &TestApp, member: &Member) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = export_status(app, member).await;
        if state["status"] != "pending" {
            return state;
        }
        assert!(Instant::now() < deadline, "the export is still pending: {state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn download(app: &TestApp, member: &Member) -> reqwest::Response {
    member.client.get(app.url("/api/account/export/download")).send().await.unwrap()
}

/// Every file of a zip, by name.
fn unzip(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).expect("the download is a zip");
    let mut files = BTreeMap::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).unwrap();
        let name = file.name().unwrap().to_string();
        let mut content = Vec::new();
        file.read_to_end(&mut content).unwrap();
        files.insert(name, content);
    }
    files
}

fn part(files: &BTreeMap<String, Vec<u8>>, name: &str) -> Value {
    serde_json::from_slice(files.get(name).unwrap_or_else(|| panic!("the archive has {name}"))).unwrap()
}

fn ids(list: &Value, field: &str) -> BTreeSet<i64> {
    list.as_array().unwrap().iter().map(|item| item[field].as_i64().unwrap()).collect()
}

async fn db_ids(app: &TestApp, sql: &str, member: i64) -> BTreeSet<i64> {
    let ids: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .bind(member)
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    ids.into_iter().collect()
}

/// Ada's network: her posts (two images, a poll, a reply, a repost, one deleted), likes both
/// ways, follows both ways, an invite, bookmarks both ways; Cyd's own likes and e-mail are his.
struct Network {
    ada: Member,
    bob: Member,
    cyd: Member,
    deleted: i64,
    with_images: i64,
    image_ids: Vec<String>,
    cyds_liked: i64,
}

async fn network(app: &TestApp) -> Network {
    let (ada, bob, cyd) = (app.member("ada").await, app.member("bob").await, app.member("cyd").await);
    let images = vec![uploaded(app, &ada, png(40, 30)).await, uploaded(app, &ada, noise_png(64, 48)).await];
    let image_ids = images.iter().map(|url| id_of(url)).collect();
    let with_images =
        post(app, &ada, json!({ "content": "Two pictures <b>&</b> a #tag for @bob", "imageUrls": images })).await;
    post(app, &ada, json!({ "content": "Tea or coffee?", "pollOptions": ["Tea", "Coffee"] })).await;
    let bobs = post(app, &bob, json!({ "content": "Bob's first" })).await;
    post(app, &ada, json!({ "content": "Welcome, Bob", "replyToId": bobs })).await;
    post(app, &ada, json!({ "content": "♻️", "repostOfId": bobs })).await;
    let deleted = post(app, &ada, json!({ "content": "Oops" })).await;
    ok(ada.client.delete(app.url(&format!("/api/posts/{deleted}"))).send().await.unwrap()).await;
    let cyds_liked = post(app, &cyd, json!({ "content": "Cyd's" })).await;

    ok(ada.client.post(app.url(&format!("/api/posts/{bobs}/like"))).send().await.unwrap()).await;
    ok(bob.client.post(app.url(&format!("/api/posts/{with_images}/like"))).send().await.unwrap()).await;
    ok(cyd.client.post(app.url(&format!("/api/posts/{bobs}/like"))).send().await.unwrap()).await;
    ok(bob.client.post(app.url(&format!("/api/posts/{cyds_liked}/like"))).send().await.unwrap()).await;
    ok(ada.client.post(app.url("/api/follows")).json(&json!({ "followingId": bob.id })).send().await.unwrap()).await;
    ok(bob.client.post(app.url("/api/follows")).json(&json!({ "followingId": ada.id })).send().await.unwrap()).await;
    ok(cyd.client.post(app.url("/api/follows")).json(&json!({ "followingId": ada.id })).send().await.unwrap()).await;
    ok(cyd.client.post(app.url("/api/follows")).json(&json!({ "followingId": bob.id })).send().await.unwrap()).await;
    ok(ada.client.post(app.url("/api/invites")).send().await.unwrap()).await;
    ok(bob.client.post(app.url("/api/invites")).send().await.unwrap()).await;
    ok(ada.client.post(app.url(&format!("/api/posts/{cyds_liked}/bookmark"))).send().await.unwrap()).await;
    ok(bob.client.post(app.url(&format!("/api/posts/{with_images}/bookmark"))).send().await.unwrap()).await;
    // A conversation: her message is hers to take, Bob's is his.
    let (status, conversation) = json(
        ada.client.post(app.url("/api/conversations")).json(&json!({ "memberIds": [bob.id] })).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, 201, "{conversation}");
    let messages = format!("/api/conversations/{}/messages", conversation["id"]);
    for (who, content) in [(&ada, "Ada's private word"), (&bob, "Bob's private word")] {
        let (status, body) =
            json(who.client.post(app.url(&messages)).json(&json!({ "content": content })).send().await.unwrap()).await;
        assert_eq!(status, 201, "{body}");
    }
    Network { ada, bob, cyd, deleted, with_images, image_ids, cyds_liked }
}

/// Ada asks, waits and downloads; answers the archive's files.
async fn adas_archive(app: &TestApp, ada: &Member) -> BTreeMap<String, Vec<u8>> {
    let (status, asked) = request_export(app, ada).await;
    assert_eq!(status, 202, "{asked}");
    assert_eq!(asked["status"], "pending");
    let ready = until_prepared(app, ada).await;
    assert_eq!(ready["status"], "ready", "{ready}");
    let response = download(app, ada).await;
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "application/zip");
    assert!(headers["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\"murmur-data-"));
    assert_eq!(headers["cache-control"], "no-store");
    let bytes = response.bytes().await.unwrap();
    assert_eq!(ready["size"].as_u64(), Some(bytes.len() as u64), "the state tells the archive's size");
    unzip(&bytes)
}

// ---------------------------------------------------------------------------------------------
// Tests

both_databases!(
    the_archive_lists_exactly_what_the_database_holds_of_the_member,
    the_archive_holds_nothing_private_of_other_members,
    the_member_is_told_by_notification_and_email,
    another_member_cannot_download_the_archive,
    the_archive_is_removed_after_seven_days,
    one_archive_at_a_time,
    asking_for_an_archive_is_rate_limited,
    the_calls_are_for_members_only,
    the_archive_holds_image_descriptions_and_earlier_versions,
    an_archive_whose_process_stopped_is_taken_over_within_a_minute,
    a_claim_lasts_while_its_holder_renews_it,
);

async fn the_archive_lists_exactly_what_the_database_holds_of_the_member(app: TestApp) {
    let net = network(&app).await;
    let ada = &net.ada;
    let files = adas_archive(&app, ada).await;

    let profile = part(&files, "profile.json");
    let (username, display_name, email, created_at): (String, String, String, i64) =
        sqlx::query_as("SELECT username, display_name, email, created_at FROM users WHERE id = $1")
            .bind(ada.id)
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
    assert_eq!(profile["id"], ada.id);
    assert_eq!(profile["username"], username);
    assert_eq!(profile["displayName"], display_name);
    assert_eq!(profile["email"], email);
    assert_eq!(profile["createdAt"], murmur::clock::to_rfc3339(created_at));
    assert_eq!(profile["followerCount"], 2);
    assert_eq!(profile["followingCount"], 1);

    // Posts: every live one of hers, with its text and kind; not the deleted one.
    let posts = part(&files, "posts.json");
    let live = db_ids(&app, "SELECT id FROM posts WHERE author_id = $1 AND deleted_at IS NULL", ada.id).await;
    assert_eq!(ids(&posts, "id"), live);
    assert!(!ids(&posts, "id").contains(&net.deleted));
    for item in posts.as_array().unwrap() {
        let (content, reply_to, repost_of): (String, Option<i64>, Option<i64>) =
            sqlx::query_as("SELECT content, reply_to_id, repost_of_id FROM posts WHERE id = $1")
                .bind(item["id"].as_i64().unwrap())
                .fetch_one(&app.state.db.read)
                .await
                .unwrap();
        assert_eq!(item["content"], content);
        assert_eq!(item["replyToId"].as_i64(), reply_to);
        assert_eq!(item["repostOfId"].as_i64(), repost_of);
        let kind = if repost_of.is_some() {
            "repost"
        } else if reply_to.is_some() {
            "reply"
        } else {
            "post"
        };
        assert_eq!(item["kind"], kind);
    }
    let kinds: BTreeSet<&str> = posts.as_array().unwrap().iter().map(|p| p["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, BTreeSet::from(["post", "reply", "repost"]));
    let poll = posts.as_array().unwrap().iter().find(|p| p["content"] == "Tea or coffee?").unwrap();
    assert_eq!(poll["poll"]["options"], json!([{ "text": "Tea", "votes": 0 }, { "text": "Coffee", "votes": 0 }]));
    let pictured = posts.as_array().unwrap().iter().find(|p| p["id"] == net.with_images).unwrap();
    let entity_types: BTreeSet<&str> =
        pictured["entities"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(entity_types, BTreeSet::from(["hashtag", "mention"]));

    // Its images are in the archive, byte for byte as stored.
    let names: Vec<&str> =
        pictured["images"].as_array().unwrap().iter().map(|image| image["file"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2);
    for (name, media_id) in names.iter().zip(&net.image_ids) {
        let stored = std::fs::read(app.data_dir.path().join("media/objects").join(media_id)).unwrap();
        assert_eq!(files.get(*name), Some(&stored), "{name} is the stored image");
    }
    let image_files = files.keys().filter(|name| name.starts_with("images/")).count();
    assert_eq!(image_files, 2, "only her posts' images");

    // Likes, follows, followers, invites.
    let likes = part(&files, "likes.json");
    assert_eq!(ids(&likes, "postId"), db_ids(&app, "SELECT post_id FROM likes WHERE user_id = $1", ada.id).await);
    assert_eq!(likes[0]["postAuthor"], "bob");
    let bookmarks = part(&files, "bookmarks.json");
    assert_eq!(
        ids(&bookmarks, "postId"),
        db_ids(&app, "SELECT post_id FROM bookmarks WHERE user_id = $1", ada.id).await
    );
    assert_eq!(ids(&bookmarks, "postId"), BTreeSet::from([net.cyds_liked]), "her bookmark, not Bob's of her post");
    let following = part(&files, "following.json");
    assert_eq!(
        ids(&following, "id"),
        db_ids(&app, "SELECT following_id FROM follows WHERE follower_id = $1", ada.id).await
    );
    let followers = part(&files, "followers.json");
    assert_eq!(
        ids(&followers, "id"),
        db_ids(&app, "SELECT follower_id FROM follows WHERE following_id = $1", ada.id).await
    );
    assert_eq!(ids(&followers, "id"), BTreeSet::from([net.bob.id, net.cyd.id]));
    let invites = part(&files, "invites.json");
    let codes: Vec<String> = sqlx::query_scalar("SELECT code FROM invites WHERE owner_id = $1")
        .bind(ada.id)
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    let exported: Vec<&str> = invites.as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect();
    assert_eq!(exported, codes);
    let conversations = part(&files, "messages.json");
    assert_eq!(conversations.as_array().unwrap().len(), 1, "{conversations}");
    assert_eq!(conversations[0]["members"], json!(["ada", "bob"]), "{conversations}");
    let words: Vec<&str> =
        conversations[0]["messages"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(words, ["Ada's private word"], "{conversations}");

    // The readable page: her posts with their images, text escaped, no scripts.
    let index = String::from_utf8(files["index.html"].clone()).unwrap();
    assert!(index.contains("Two pictures &lt;b&gt;&amp;&lt;/b&gt; a #tag"), "{index}");
    assert!(!index.contains("<b>&</b>") && !index.to_lowercase().contains("<script"));
    for name in names {
        assert!(index.contains(&format!("src=\"{name}\"")), "{name} in {index}");
    }
    assert!(!index.contains("Oops"));
}

async fn the_archive_holds_nothing_private_of_other_members(app: TestApp) {
    let net = network(&app).await;
    let files = adas_archive(&app, &net.ada).await;
    let everything: String = files.values().map(|bytes| String::from_utf8_lossy(bytes).into_owned()).collect();
    for email in [&net.bob.email, &net.cyd.email] {
        assert!(!everything.contains(email.as_str()), "{email} is in Ada's archive");
    }
    // Bob's and Cyd's likes are theirs: none of the posts only they liked is in her likes.
    let likes = part(&files, "likes.json");
    assert!(!ids(&likes, "postId").contains(&net.cyds_liked));
    assert!(!ids(&likes, "postId").contains(&net.with_images), "Bob's like of her post is his");
    // Bob's invite is his.
    let bobs_code: String = sqlx::query_scalar("SELECT code FROM invites WHERE owner_id = $1")
        .bind(net.bob.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert!(!everything.contains(&bobs_code));
    assert!(!everything.contains("Cyd's"), "no one else's posts");
    assert!(!everything.contains("Bob's private word"), "no one else's messages");
}

async fn the_member_is_told_by_notification_and_email(app: TestApp) {
    let ada = app.member("ada").await;
    adas_archive(&app, &ada).await;
    let (status, list) = json(ada.client.get(app.url("/api/notifications")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list[0]["type"], "export-ready", "{list}");
    assert_eq!(list[0]["isRead"], false);
    let (_, unread) = json(ada.client.get(app.url("/api/notifications/unread-count")).send().await.unwrap()).await;
    assert_eq!(unread["count"], 1);
    let mail = nth_mail(&app.data_dir.path().join("outbox"), &ada.email, 1).await;
    assert!(mail.has_text_and_html());
    assert_eq!(mail.link_starting("/settings"), Some(app.url("/settings")));
}

async fn another_member_cannot_download_the_archive(app: TestApp) {
    let (ada, bob) = (app.member("ada").await, app.member("bob").await);
    adas_archive(&app, &ada).await;
    let response = download(&app, &bob).await;
    assert_eq!(response.status(), 404);
    assert_eq!(export_status(&app, &bob).await, json!({ "status": "none" }));
    let (status, _) = json(app.client.get(app.url("/api/account/export/download")).send().await.unwrap()).await;
    assert_eq!(status, 401);
}

async fn the_archive_is_removed_after_seven_days(app: TestApp) {
    let ada = app.member("ada").await;
    adas_archive(&app, &ada).await;
    let ready = export_status(&app, &ada).await;
    let archive: String = sqlx::query_scalar("SELECT archive_id FROM data_exports WHERE member_id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    let file = app.data_dir.path().join("media/exports").join(format!("{archive}.zip"));
    assert!(file.exists());

    // A day before it expires it is still there.
    app.clock.advance(Duration::from_millis((6 * murmur::clock::DAY) as u64));
    murmur::jobs::upkeep(&app.state.db, &app.state.media, app.clock.now()).await.unwrap();
    assert_eq!(download(&app, &ada).await.status(), 200);
    assert_eq!(export_status(&app, &ada).await, ready);

    app.clock.advance(Duration::from_millis((murmur::clock::DAY + 1000) as u64));
    assert_eq!(download(&app, &ada).await.status(), 404, "expired: gone even before upkeep");
    murmur::jobs::upkeep(&app.state.db, &app.state.media, app.clock.now()).await.unwrap();
    assert!(!file.exists(), "upkeep removed the archive");
    assert_eq!(export_status(&app, &ada).await, json!({ "status": "none" }));
    let rows: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM data_exports")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

async fn one_archive_at_a_time(app: TestApp) {
    let ada = app.member("ada").await;
    let (_, first) = request_export(&app, &ada).await;
    let (status, again) = request_export(&app, &ada).await;
    assert_eq!(status, 202);
    assert_eq!(again["requestedAt"], first["requestedAt"], "a pending one answers");
    let ready = until_prepared(&app, &ada).await;
    assert_eq!(ready["status"], "ready");

    // Within the day: the ready one, not a new one.
    app.clock.advance(Duration::from_millis((12 * murmur::clock::HOUR) as u64));
    let (status, same) = request_export(&app, &ada).await;
    assert_eq!(status, 202);
    assert_eq!(same, ready);
    let old: String = sqlx::query_scalar("SELECT archive_id FROM data_exports WHERE member_id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();

    // A day on, a new one takes its place, and the old archive goes.
    app.clock.advance(Duration::from_millis((13 * murmur::clock::HOUR) as u64));
    let (_, new) = request_export(&app, &ada).await;
    assert_eq!(new["status"], "pending", "{new}");
    assert_ne!(new["requestedAt"], ready["requestedAt"]);
    assert!(!app.data_dir.path().join("media/exports").join(format!("{old}.zip")).exists());
    let rows: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM data_exports WHERE member_id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(rows, 1);
    assert_eq!(until_prepared(&app, &ada).await["status"], "ready");
}

async fn asking_for_an_archive_is_rate_limited(app: TestApp) {
    let ada = app.member("ada").await;
    for _ in 0..5 {
        assert_eq!(request_export(&app, &ada).await.0, 202);
    }
    let (status, body) = request_export(&app, &ada).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["message"].as_str().unwrap().contains("too often"));
}

async fn the_calls_are_for_members_only(app: TestApp) {
    for (method, path) in [
        (reqwest::Method::POST, "/api/account/export"),
        (reqwest::Method::GET, "/api/account/export"),
        (reqwest::Method::GET, "/api/account/export/download"),
    ] {
        let (status, _) = json(app.client.request(method, app.url(path)).send().await.unwrap()).await;
        assert_eq!(status, 401, "{path}");
    }
}

async fn the_archive_holds_image_descriptions_and_earlier_versions(app: TestApp) {
    let ada = app.member("ada").await;
    let (heron, pier) = (uploaded(&app, &ada, png(40, 30)).await, uploaded(&app, &ada, png(30, 20)).await);
    let images = json!([{ "url": heron, "alt": "A grey heron <on one leg>" }, { "url": pier }]);
    let pictured = post(&app, &ada, json!({ "content": "First words", "images": images })).await;
    crate::edits::edit(&app, &ada, pictured, "Second words").await;
    crate::edits::edit(&app, &ada, pictured, "Last words").await;
    let plain = post(&app, &ada, json!({ "content": "Never edited" })).await;
    let files = adas_archive(&app, &ada).await;

    let posts = part(&files, "posts.json");
    let find = |id: i64| posts.as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone();
    let shown = find(pictured);
    assert_eq!(shown["content"], "Last words");
    let described: Vec<&Value> = shown["images"].as_array().unwrap().iter().map(|image| &image["alt"]).collect();
    assert_eq!(described, [&json!("A grey heron <on one leg>"), &Value::Null], "{shown}");
    let earlier: Vec<&str> =
        shown["edits"].as_array().unwrap().iter().map(|e| e["content"].as_str().unwrap()).collect();
    assert_eq!(earlier, ["First words", "Second words"], "oldest first: {shown}");
    let (written_at, replaced_at): (i64, i64) =
        sqlx::query_as("SELECT written_at, replaced_at FROM post_edits WHERE post_id = $1 ORDER BY id LIMIT 1")
            .bind(pictured)
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
    assert_eq!(shown["edits"][0]["writtenAt"], murmur::clock::to_rfc3339(written_at));
    assert_eq!(shown["edits"][0]["replacedAt"], murmur::clock::to_rfc3339(replaced_at));
    assert_eq!(find(plain)["edits"], json!([]));

    let index = String::from_utf8(files["index.html"].clone()).unwrap();
    assert!(index.contains("alt=\"A grey heron &lt;on one leg&gt;\""), "{index}");
    assert!(index.contains("First words") && index.contains("Second words"), "{index}");
}

/// A pending archive, as if asked for from another process, held until just before
/// `ahead(app)`: the app's own export job, whose first round may run late on a busy machine,
/// never claims it.
async fn pending_export(app: &TestApp, member: &Member) {
    sqlx::query(
        "INSERT INTO data_exports (member_id, status, requested_at, claimed_until) VALUES ($1, 'pending', $2, $3)",
    )
    .bind(member.id)
    .bind(app.clock.now())
    .bind(ahead(app) - 1)
    .execute(&app.state.db.write)
    .await
    .unwrap();
}

/// The time of the other processes these tests play: an hour past the app's clock, which its
/// export job reads.
fn ahead(app: &TestApp) -> i64 {
    app.clock.now() + murmur::clock::HOUR
}

async fn claim(app: &TestApp) -> Option<murmur::exports::Claimed> {
    murmur::exports::claim_next(&app.state.db.write, ahead(app)).await.unwrap()
}

/// A process that is killed while it writes an archive stops renewing its claim; another
/// process takes the archive over within a minute, not an hour.
async fn an_archive_whose_process_stopped_is_taken_over_within_a_minute(app: TestApp) {
    let ada = app.member("ada").await;
    pending_export(&app, &ada).await;
    let stopped = claim(&app).await.expect("the first process claims it");
    assert!(claim(&app).await.is_none(), "held by the first");

    app.clock.advance(Duration::from_secs(61));
    let taken = claim(&app).await.expect("another process takes it over");
    assert_eq!(taken.member_id, ada.id);
    assert_ne!(taken.archive_id, stopped.archive_id, "under an archive id of its own");
}

/// The process writing an archive renews its claim while it works: nobody takes it over
/// meanwhile, however long the archive takes.
async fn a_claim_lasts_while_its_holder_renews_it(app: TestApp) {
    let ada = app.member("ada").await;
    pending_export(&app, &ada).await;
    let holder = claim(&app).await.expect("claimed");
    for _ in 0..3 {
        app.clock.advance(Duration::from_secs(40));
        assert!(murmur::exports::renew(&app.state.db.write, &holder, ahead(&app)).await.unwrap());
        assert!(claim(&app).await.is_none(), "still held");
    }
    app.clock.advance(Duration::from_secs(61));
    let taken = claim(&app).await.expect("taken over once the renewals stopped");
    assert_eq!(taken.member_id, ada.id);
    assert!(
        !murmur::exports::renew(&app.state.db.write, &holder, ahead(&app)).await.unwrap(),
        "the first holder learns it lost the archive"
    );
}
