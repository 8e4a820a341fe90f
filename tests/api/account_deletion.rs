//! Deleting one's account (issue 29): asked for with a call that only e-mails a link, confirmed
//! with that link's token; the member disappears at once, and the clean-up leaves no row naming
//! them but the ones the rules keep, with every counter equal to a fresh count.

use std::time::Duration;

use murmur::clock::{DAY, MINUTE};
use reqwest::header::SET_COOKIE;
use serde_json::{Value, json};

use crate::accounts::{operator_code, outbox, request_login, sign_up};
use crate::both_databases;
use crate::common::{Backend, Member, TestApp, json};
use crate::mailbox::{self, token_of};

const INVALID_LINK: &str = "Invalid or expired link";

// ---------------------------------------------------------------------------------------------
// Helpers

/// Asks for the deletion e-mail and answers the link in it.
async fn deletion_link(app: &TestApp, member: &Member) -> String {
    let before = mailbox::mail_to(&outbox(app), &member.email).len();
    let (status, body) = json(member.client.post(app.url("/api/account/delete")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let mail = mailbox::nth_mail(&outbox(app), &member.email, before + 1).await;
    assert_eq!(mail.subject(), "Confirm deleting your Murmur account");
    mail.link_starting("/account/delete?token=").expect("the e-mail links to the confirmation screen")
}

async fn confirm(app: &TestApp, member: &Member, token: &str) -> (u16, Value) {
    let response = member
        .client
        .post(app.url("/api/account/delete/confirm"))
        .json(&json!({ "token": token }))
        .send()
        .await
        .unwrap();
    json(response).await
}

/// Deletes `member`'s account as they would (the e-mailed link, then its confirmation); the
/// clean-up is `cleaned_up`'s.
pub(crate) async fn delete_account(app: &TestApp, member: &Member) {
    let token = token_of(&deletion_link(app, member).await);
    let (status, body) = confirm(app, member, &token).await;
    assert_eq!(status, 204, "{body}");
}

async fn is_logged_in(app: &TestApp, member: &Member) -> bool {
    let status = member.client.get(app.url("/api/auth/me")).send().await.unwrap().status().as_u16();
    assert!(status == 200 || status == 401, "{status}");
    status == 200
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&app.state.db.read).await.unwrap()
}

async fn scalar(app: &TestApp, sql: &str, id: i64) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string())).bind(id).fetch_one(&app.state.db.read).await.unwrap()
}

/// Waits until every deletion is cleaned up: the job, woken by the confirmation, works on it,
/// and this process runs a round too (they share the work safely).
pub(crate) async fn cleaned_up(app: &TestApp) {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        murmur::accounts::leaving::clean_up_round(&app.state.db, &app.state.media, &app.state.live, app.clock.now())
            .await
            .expect("a clean-up round");
        let left = count(app, "SELECT COUNT(*) FROM account_deletions").await;
        if left == 0 {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "the clean-up did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn post(app: &TestApp, member: &Member, body: Value) -> i64 {
    let (status, post) = json(member.client.post(app.url("/api/posts")).json(&body).send().await.unwrap()).await;
    assert_eq!(status, 201, "{post}");
    post["id"].as_i64().unwrap()
}

async fn ok(response: reqwest::Response) -> Value {
    let (status, body) = json(response).await;
    assert!((200..300).contains(&status), "{status}: {body}");
    body
}

/// Every column that references `users`, read from the schema the way the test knows it (not
/// the app's own list), so a table added later is checked without a change here.
async fn columns_naming_members(app: &TestApp) -> Vec<(String, String)> {
    let sql = match app.backend {
        Backend::Sqlite => {
            "SELECT m.name, p.\"from\" FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) p \
             WHERE m.type = 'table' AND p.\"table\" = 'users'"
        }
        Backend::Postgres => {
            "SELECT CAST(c.conrelid::regclass AS TEXT), CAST(a.attname AS TEXT) FROM pg_constraint c \
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) \
             WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass"
        }
    };
    let columns: Vec<(String, String)> = sqlx::query_as(sql).fetch_all(&app.state.db.read).await.unwrap();
    assert!(columns.len() >= 20, "the schema's references to members were not found: {columns:?}");
    columns
}

/// Every counter equals a fresh count of the rows it counts.
async fn every_counter_is_a_fresh_count(app: &TestApp) {
    // (what is wrong, the counting table `t`, its counter, the counted table `c`, which `c` rows count)
    let counters = [
        ("posts whose like count is not their likes", "posts", "like_count", "likes", "c.post_id = t.id"),
        ("posts whose repost count is not their reposts", "posts", "repost_count", "posts", "c.repost_of_id = t.id"),
        (
            "posts whose reply count is not their live replies",
            "posts",
            "reply_count",
            "posts",
            "c.reply_to_id = t.id AND c.deleted_at IS NULL",
        ),
        ("posts whose image count is not their images", "posts", "image_count", "post_images", "c.post_id = t.id"),
        (
            "members whose follower count is not their followers",
            "users",
            "follower_count",
            "follows",
            "c.following_id = t.id",
        ),
        (
            "members whose following count is not the members they follow",
            "users",
            "following_count",
            "follows",
            "c.follower_id = t.id",
        ),
    ];
    for (what, table, counter, counted, counts) in counters {
        let sql = format!(
            "SELECT COUNT(*) FROM {table} t WHERE t.{counter} <> (SELECT COUNT(*) FROM {counted} c WHERE {counts})"
        );
        assert_eq!(count(app, &sql).await, 0, "{what}");
    }
    let tags_of_gone_posts =
        "SELECT COUNT(*) FROM post_tags t JOIN posts p ON p.id = t.post_id WHERE p.deleted_at IS NOT NULL";
    assert_eq!(count(app, tags_of_gone_posts).await, 0, "tag rows of posts that are not live");
}

// ---------------------------------------------------------------------------------------------
// Asking and confirming

/// The call only e-mails a link; following it (as a mail scanner does) opens a page that
/// deletes nothing.
async fn asking_to_delete_deletes_nothing_until_the_link_is_confirmed(app: TestApp) {
    let ada = app.member("ada").await;
    let link = deletion_link(&app, &ada).await;
    assert!(link.starts_with(&format!("{}/account/delete?token=", app.base)), "{link}");
    let token = token_of(&link);
    assert_eq!(token.len(), 43);
    // Only the token's hash is stored.
    let stored: String = sqlx::query_scalar("SELECT token_hash FROM magic_links WHERE purpose = 'delete_account'")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(stored, murmur::secrets::hash_token(&token));

    // The web app's document (or 503 where the web app is not built): a page, not a deletion.
    for client in [&app.client, &ada.client] {
        let status = client.get(&link).send().await.unwrap().status().as_u16();
        assert!(matches!(status, 200 | 503), "{status}");
    }
    assert!(is_logged_in(&app, &ada).await, "opening the link deleted nothing");
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM users WHERE id = $1 AND deleted_at IS NULL", ada.id).await, 1);
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM account_deletions WHERE member_id = $1", ada.id).await, 0);

    // A visitor cannot ask, nor confirm.
    let (status, _) = json(app.client.post(app.url("/api/account/delete")).send().await.unwrap()).await;
    assert_eq!(status, 401);
    let (status, _) = json(
        app.client.post(app.url("/api/account/delete/confirm")).json(&json!({ "token": token })).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, 401);

    // The screen's button: the account goes, the session and its cookie with it.
    let response =
        ada.client.post(app.url("/api/account/delete/confirm")).json(&json!({ "token": token })).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 204);
    let cookie = response.headers().get(SET_COOKIE).unwrap().to_str().unwrap().to_string();
    assert!(cookie.contains("Max-Age=0"), "{cookie}");
    assert!(!is_logged_in(&app, &ada).await, "the session ended");
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM sessions WHERE user_id = $1", ada.id).await, 0);
}
both_databases!(asking_to_delete_deletes_nothing_until_the_link_is_confirmed);

/// A token that is another member's, expired, used, or for logging in deletes nothing; and a
/// deletion link never logs anyone in.
async fn only_the_members_own_live_deletion_link_deletes(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = token_of(&deletion_link(&app, &ada).await);

    let (status, body) = confirm(&app, &bob, &adas).await;
    assert_eq!((status, body["message"].as_str()), (400, Some(INVALID_LINK)), "{body}");
    assert!(is_logged_in(&app, &bob).await && is_logged_in(&app, &ada).await);

    // A deletion link at the login's verify call: refused, nobody logged in.
    let (status, _) =
        json(app.client.get(app.url(&format!("/api/auth/verify?token={adas}"))).send().await.unwrap()).await;
    assert_eq!(status, 400);
    // A login link at the deletion's call: refused.
    let (status, _) = request_login(&app, &ada.email).await;
    assert_eq!(status, 200);
    let login = mailbox::wait_for_mail(&outbox(&app), &ada.email, 2).await;
    let login_token = token_of(&login.iter().find(|m| m.subject() == "Your Murmur login link").unwrap().verify_link());
    assert_eq!(confirm(&app, &ada, &login_token).await.0, 400);
    // Not a token at all.
    assert_eq!(confirm(&app, &ada, "short").await.0, 400);
    let (status, _) =
        json(ada.client.post(app.url("/api/account/delete/confirm")).json(&json!({ "nope": 1 })).send().await.unwrap())
            .await;
    assert_eq!(status, 400);

    // Expired after 15 minutes.
    app.clock.advance(Duration::from_millis((16 * MINUTE) as u64));
    assert_eq!(confirm(&app, &ada, &adas).await.0, 400);
    assert!(is_logged_in(&app, &ada).await);

    // A fresh link works once; Bob is untouched.
    let fresh = token_of(&deletion_link(&app, &ada).await);
    assert_eq!(confirm(&app, &ada, &fresh).await.0, 204);
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM users WHERE id = $1 AND deleted_at IS NOT NULL", ada.id).await, 1);
    assert!(is_logged_in(&app, &bob).await);
    assert_eq!(confirm(&app, &bob, &fresh).await.0, 400);
}
both_databases!(only_the_members_own_live_deletion_link_deletes);

/// Asking for deletion links is rate limited per member.
async fn deletion_links_are_rate_limited(app: TestApp) {
    let ada = app.member("ada").await;
    for _ in 0..3 {
        deletion_link(&app, &ada).await;
    }
    let (status, body) = json(ada.client.post(app.url("/api/account/delete")).send().await.unwrap()).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(mailbox::mail_to(&outbox(&app), &ada.email).len(), 3);
}
both_databases!(deletion_links_are_rate_limited);

// ---------------------------------------------------------------------------------------------
// What deleting removes and what it keeps

/// Ada, in a network of four with posts, replies both ways, reposts, likes, a poll and votes,
/// mentions, a hashtag, follows, a block, a mute, reports and an avatar, deletes her account.
async fn deleting_an_account_leaves_only_what_the_rules_keep_and_every_count_right(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    for (a, b) in [(&ada, &bob), (&bob, &ada), (&cyd, &ada), (&ada, &cyd), (&bob, &cyd), (&dee, &bob)] {
        ok(a.client.post(app.url("/api/follows")).json(&json!({ "followingId": b.id })).send().await.unwrap()).await;
    }
    // Ada's avatar.
    let avatar = crate::media::uploaded(&app, &ada, crate::fixtures::png(64, 64)).await;
    let avatar_id = crate::media::id_of(&avatar);
    ok(ada.client.put(app.url("/api/profile-images")).json(&json!({ "imageURL": avatar })).send().await.unwrap()).await;

    let adas_post = post(&app, &ada, json!({ "content": "Counting engines with @bob #Engines" })).await;
    let adas_poll = post(&app, &ada, json!({ "content": "Tea or coffee?", "pollOptions": ["Tea", "Coffee"] })).await;
    let adas_quiet = post(&app, &ada, json!({ "content": "Nobody answers this one" })).await;
    let bobs_reply = post(&app, &bob, json!({ "content": "Nice, @ada", "replyToId": adas_post })).await;
    let adas_answer = post(&app, &ada, json!({ "content": "Thanks!", "replyToId": bobs_reply })).await;
    let adas_own_thread = post(&app, &ada, json!({ "content": "And more", "replyToId": adas_quiet })).await;
    let bobs_post = post(&app, &bob, json!({ "content": "Bob's #Engines too" })).await;
    let cyds_poll = post(&app, &cyd, json!({ "content": "Cats or dogs?", "pollOptions": ["Cats", "Dogs"] })).await;
    let adas_reply_to_cyd = post(&app, &ada, json!({ "content": "Cats, clearly", "replyToId": cyds_poll })).await;
    for (member, id) in [(&ada, bobs_post), (&ada, cyds_poll), (&bob, adas_post), (&cyd, adas_post), (&cyd, bobs_post)]
    {
        ok(member.client.post(app.url(&format!("/api/posts/{id}/like"))).send().await.unwrap()).await;
    }
    let adas_repost = post(&app, &ada, json!({ "repostOfId": bobs_post })).await;
    post(&app, &cyd, json!({ "repostOfId": adas_post })).await;
    for (member, id, option) in [(&ada, cyds_poll, "Dogs"), (&bob, adas_poll, "Tea"), (&bob, cyds_poll, "Cats")] {
        ok(member
            .client
            .post(app.url(&format!("/api/posts/{id}/vote")))
            .json(&json!({ "option": option }))
            .send()
            .await
            .unwrap())
        .await;
    }
    ok(dee.client.post(app.url("/api/blocks")).json(&json!({ "userId": ada.id })).send().await.unwrap()).await;
    ok(bob.client.post(app.url("/api/mutes")).json(&json!({ "userId": cyd.id })).send().await.unwrap()).await;
    ok(cyd.client.post(app.url("/api/mutes")).json(&json!({ "userId": ada.id })).send().await.unwrap()).await;
    let report = |by: &Member, body: Value| by.client.post(app.url("/api/reports")).json(&body).send();
    ok(report(&ada, json!({ "userId": bob.id, "reason": "spam" })).await.unwrap()).await;
    ok(report(&cyd, json!({ "postId": adas_post, "reason": "other" })).await.unwrap()).await;
    ok(report(&bob, json!({ "userId": ada.id, "reason": "other" })).await.unwrap()).await;
    ok(ada.client.post(app.url("/api/invites")).send().await.unwrap()).await;
    // Ada's list holding Bob, and Bob's holding Ada: both go with her.
    for (owner, member) in [(&ada, &bob), (&bob, &ada)] {
        let list =
            ok(owner.client.post(app.url("/api/lists")).json(&json!({ "title": "Close" })).send().await.unwrap()).await;
        let path = format!("/api/lists/{}/members", list["id"]);
        ok(owner.client.post(app.url(&path)).json(&json!({ "userIds": [member.id] })).send().await.unwrap()).await;
    }
    every_counter_is_a_fresh_count(&app).await;
    assert!(scalar(&app, "SELECT COUNT(*) FROM notifications WHERE actor_id = $1", ada.id).await > 0);
    assert!(scalar(&app, "SELECT COUNT(*) FROM notifications WHERE recipient_id = $1", ada.id).await > 0);

    let token = token_of(&deletion_link(&app, &ada).await);
    assert_eq!(confirm(&app, &ada, &token).await.0, 204);

    // At once, whatever the clean-up has done: nobody sees Ada or her posts.
    let (status, body) = json(bob.client.get(app.url("/api/users/ada")).send().await.unwrap()).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["message"], murmur::accounts::leaving::HELD);
    let feed = ok(bob.client.get(app.url("/api/posts/feed?limit=20&offset=0")).send().await.unwrap()).await;
    let authors: Vec<&Value> = feed.as_array().unwrap().iter().map(|p| &p["author"]["id"]).collect();
    assert!(!authors.contains(&&json!(ada.id)), "{feed}");
    let bob_now = ok(bob.client.get(app.url("/api/users/bob")).send().await.unwrap()).await;
    assert_eq!((bob_now["followerCount"].as_i64(), bob_now["followingCount"].as_i64()), (Some(1), Some(1)));

    cleaned_up(&app).await;
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM lists WHERE owner_id = $1", ada.id).await, 0);
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM list_members WHERE member_id = $1", ada.id).await, 0);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM list_members").await, 0, "Ada's list's members went with it");

    // Ada's row stays, with nothing that names or reaches her.
    let row: (String, String, String, Option<String>, i64, Option<i64>) = sqlx::query_as(
        "SELECT email, username, display_name, profile_image_url, follower_count, deleted_at FROM users WHERE id = $1",
    )
    .bind(ada.id)
    .fetch_one(&app.state.db.read)
    .await
    .unwrap();
    assert!(
        !row.0.contains("ada@") && !row.1.contains("ada") && row.2 == "Deleted member" && row.3.is_none(),
        "{row:?}"
    );
    assert!(row.5.is_some());

    // No row refers to Ada but the ones the rules keep (docs/safety.md, "Leaving"):
    // - the posts others replied to, emptied, for their replies' threads;
    // - reports she made or that name her (resolved), for the moderators' record;
    // - moderation log entries (none here) for accountability.
    let kept = ["posts.author_id", "reports.reporter_id", "reports.member_id"];
    for (table, column) in columns_naming_members(&app).await {
        let name = format!("{table}.{column}");
        let sql = format!("SELECT COUNT(*) FROM \"{table}\" WHERE \"{column}\" = $1");
        let rows = scalar(&app, &sql, ada.id).await;
        if !kept.contains(&name.as_str()) {
            assert_eq!(rows, 0, "{name} still names the deleted member");
        }
    }
    let kept_posts: Vec<i64> = sqlx::query_scalar("SELECT id FROM posts WHERE author_id = $1 ORDER BY id")
        .bind(ada.id)
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(kept_posts, vec![adas_post], "only the post Bob replied to stays");
    assert_eq!(
        scalar(
            &app,
            "SELECT COUNT(*) FROM posts WHERE id = $1 AND deleted_at IS NOT NULL AND content = '' AND entities IS NULL",
            adas_post
        )
        .await,
        1
    );
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM reports WHERE reporter_id = $1", ada.id).await, 1);
    // Bob's report of her and Cyd's of the post that stays, both resolved.
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM reports WHERE member_id = $1", ada.id).await, 2);
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM reports WHERE member_id = $1 AND resolved_at IS NULL", ada.id).await,
        0
    );
    // Her post's words, kept with Cyd's report as evidence, leave with her.
    assert_eq!(
        scalar(&app, "SELECT COUNT(*) FROM reports WHERE member_id = $1 AND post_text IS NOT NULL", ada.id).await,
        0
    );
    // The columns that name a member without a foreign key: rate-limit keys (`<kind>:<id>`;
    // `link:` keys name addresses and networks) and links by address.
    let limits = format!("SELECT COUNT(*) FROM rate_limits WHERE key LIKE '%:{}' AND key NOT LIKE 'link:%'", ada.id);
    assert_eq!(count(&app, &limits).await, 0, "rate-limit counts naming her");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM magic_links WHERE email = 'ada@example.com'").await, 0);
    let avatar_rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM media WHERE id = $1")
        .bind(&avatar_id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(avatar_rows, 0);
    let (status, _, _) = crate::media::fetch(&app, &format!("/objects/{avatar_id}")).await;
    assert_eq!(status, 404, "the avatar's bytes are gone");
    for gone in [adas_poll, adas_quiet, adas_answer, adas_own_thread, adas_reply_to_cyd, adas_repost] {
        assert_eq!(scalar(&app, "SELECT COUNT(*) FROM posts WHERE id = $1", gone).await, 0, "post {gone}");
    }

    every_counter_is_a_fresh_count(&app).await;
    // Others' posts lost what Ada did to them.
    let card = |id: i64| {
        let client = bob.client.clone();
        let url = app.url(&format!("/api/posts/{id}/thread"));
        async move { ok(client.get(url).send().await.unwrap()).await["post"].clone() }
    };
    let bobs = card(bobs_post).await;
    assert_eq!((bobs["likeCount"].as_i64(), bobs["repostCount"].as_i64()), (Some(1), Some(0)), "{bobs}");
    let cyds = card(cyds_poll).await;
    assert_eq!((cyds["likeCount"].as_i64(), cyds["replyCount"].as_i64()), (Some(0), Some(0)), "{cyds}");
    assert_eq!(cyds["pollVotes"], json!({ "Cats": [bob.id], "Dogs": [] }), "{cyds}");
    let bobs_reply_card = card(bobs_reply).await;
    assert_eq!(bobs_reply_card["replyCount"], 0);

    // Bob's reply stays, under "This post was deleted".
    let thread = ok(bob.client.get(app.url(&format!("/api/posts/{bobs_reply}/thread"))).send().await.unwrap()).await;
    assert_eq!(thread["post"]["id"], bobs_reply, "{thread}");
    let above = &thread["ancestors"][0];
    assert_eq!(above["id"], adas_post, "{thread}");
    assert_eq!((&above["isDeleted"], &above["content"]), (&json!(true), &json!("")), "{above}");
    assert_eq!(above["author"]["username"], "", "nothing names her: {above}");
    assert_eq!(thread["replies"], json!([]), "her answer is gone");

    // Search, tags and notifications hold nothing of hers.
    let found = ok(bob.client.get(app.url("/api/posts/search?q=Counting")).send().await.unwrap()).await;
    assert_eq!(found.as_array().map(Vec::len), Some(0), "{found}");
    let tagged = scalar(&app, "SELECT COUNT(*) FROM post_tags WHERE author_id = $1", ada.id).await;
    assert_eq!(tagged, 0);
    let notes = ok(bob.client.get(app.url("/api/notifications?limit=50")).send().await.unwrap()).await;
    assert!(notes.as_array().unwrap().iter().all(|n| n["actor"]["id"] != json!(ada.id)), "{notes}");
}
both_databases!(deleting_an_account_leaves_only_what_the_rules_keep_and_every_count_right);

/// A member with more posts than a batch holds is cleaned up across many short transactions.
async fn a_member_with_many_posts_is_cleaned_up_in_batches(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    ok(bob.client.post(app.url("/api/follows")).json(&json!({ "followingId": ada.id })).send().await.unwrap()).await;
    let batch = murmur::accounts::leaving::BATCH;
    // Written straight into the tables (faster than 250 calls), as the seed does.
    for n in 0..(batch * 2 + 50) {
        let id: i64 =
            sqlx::query_scalar("INSERT INTO posts (author_id, content, created_at) VALUES ($1, $2, $3) RETURNING id")
                .bind(ada.id)
                .bind(format!("post {n}"))
                .bind(app.clock.now())
                .fetch_one(&app.state.db.write)
                .await
                .unwrap();
        sqlx::query("INSERT INTO likes (user_id, post_id, created_at) VALUES ($1, $2, $3)")
            .bind(bob.id)
            .bind(id)
            .bind(app.clock.now())
            .execute(&app.state.db.write)
            .await
            .unwrap();
        sqlx::query("UPDATE posts SET like_count = 1 WHERE id = $1")
            .bind(id)
            .execute(&app.state.db.write)
            .await
            .unwrap();
    }
    let token = token_of(&deletion_link(&app, &ada).await);
    assert_eq!(confirm(&app, &ada, &token).await.0, 204);
    cleaned_up(&app).await;
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM posts WHERE author_id = $1", ada.id).await, 0);
    assert_eq!(scalar(&app, "SELECT COUNT(*) FROM likes WHERE user_id = $1", bob.id).await, 0);
    every_counter_is_a_fresh_count(&app).await;
}
both_databases!(a_member_with_many_posts_is_cleaned_up_in_batches);

// ---------------------------------------------------------------------------------------------
// The username

/// A deleted member's username is given to nobody for 30 days: a sign-up that would get it gets
/// the next one, and the profile says why; after 30 days it is free, and so is the address.
async fn a_deleted_members_username_is_held_for_thirty_days(app: TestApp) {
    let (client, user) = sign_up(&app, "ada@example.com", &operator_code(&app).await).await;
    assert_eq!(user["username"], "ada");
    let ada =
        Member { id: user["id"].as_i64().unwrap(), username: "ada".into(), email: "ada@example.com".into(), client };
    let token = token_of(&deletion_link(&app, &ada).await);
    assert_eq!(confirm(&app, &ada, &token).await.0, 204);
    cleaned_up(&app).await;

    let (_, other) = sign_up(&app, "ada@elsewhere.example", &operator_code(&app).await).await;
    assert_eq!(other["username"], "ada2", "the held name is skipped");
    let (status, body) =
        json(app.member("bob").await.client.get(app.url("/api/users/ada")).send().await.unwrap()).await;
    assert_eq!((status, body["message"].as_str()), (404, Some(murmur::accounts::leaving::HELD)));

    app.clock.advance(Duration::from_millis((30 * DAY + MINUTE) as u64));
    let (_, again) = sign_up(&app, "ada@example.com", &operator_code(&app).await).await;
    assert_eq!(again["username"], "ada", "free after 30 days, for anyone");
    assert_ne!(again["id"], json!(ada.id), "a new account");
}
both_databases!(a_deleted_members_username_is_held_for_thirty_days);

/// While a deleted member's username is held, nobody is named like it: not as a username, not as
/// a display name, and not by sign-up's display name either; after the hold, anyone may be.
async fn a_deleted_members_held_name_has_no_look_alikes(app: TestApp) {
    let leaver = app.member("leaver").await;
    let eve = app.member("eve").await;
    let token = token_of(&deletion_link(&app, &leaver).await);
    assert_eq!(confirm(&app, &leaver, &token).await.0, 204);
    cleaned_up(&app).await;

    let profile = |display_name: &str, username: &str| json!({ "displayName": display_name, "username": username });
    for (body, status, message) in [
        (profile("Eve", "1eaver"), 400, "That username looks like another member's name or username."),
        (profile("Eve", "LEAVER"), 409, "That username is taken."),
        (profile("Leaver", "eve"), 400, "Display name looks like another member's name or username"),
        (profile("1eaver", "eve"), 400, "Display name looks like another member's name or username"),
    ] {
        let response = eve.client.put(app.url("/api/users/profile")).json(&body).send().await.unwrap();
        let (got, answer) = json(response).await;
        assert_eq!((got, answer["message"].as_str()), (status, Some(message)), "{body}");
    }
    let (_, newcomer) = sign_up(&app, "leaver@elsewhere.example", &operator_code(&app).await).await;
    assert_eq!((&newcomer["username"], &newcomer["displayName"]), (&json!("leaver2"), &json!("leaver2")));

    app.clock.advance(Duration::from_millis((30 * DAY + MINUTE) as u64));
    let eve = crate::first_hour::again(&app, &eve).await;
    let response = eve.client.put(app.url("/api/users/profile")).json(&profile("Leaver", "1eaver")).send().await;
    let (status, answer) = json(response.unwrap()).await;
    assert_eq!((status, &answer["username"], &answer["displayName"]), (200, &json!("1eaver"), &json!("Leaver")));
}
both_databases!(a_deleted_members_held_name_has_no_look_alikes);

// ---------------------------------------------------------------------------------------------
// Moderators

/// A deleted account's endless suspension is what hides its emptied row: no moderator action
/// can lift or shorten it, and nobody finds the row by searching for its name.
async fn moderators_cannot_bring_a_deleted_account_back(app: TestApp) {
    let ada = app.member("ada").await;
    let mia = app.member("mia").await;
    sqlx::query("UPDATE users SET role = 'admin' WHERE id = $1")
        .bind(mia.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let token = token_of(&deletion_link(&app, &ada).await);
    assert_eq!(confirm(&app, &ada, &token).await.0, 204);
    cleaned_up(&app).await;

    let act = |path: String, body: Value| mia.client.post(app.url(&path)).json(&body).send();
    let reason = json!({ "reason": "Testing" });
    for (path, body) in [
        (format!("/api/moderation/members/{}/unsuspend", ada.id), reason.clone()),
        (format!("/api/moderation/members/{}/suspend", ada.id), json!({ "reason": "Testing", "days": 1 })),
        (format!("/api/moderation/members/{}/invites", ada.id), json!({ "allowed": false, "reason": "Testing" })),
    ] {
        let (status, body) = json(act(path.clone(), body).await.unwrap()).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    let (status, body) =
        json(act("/api/reports".into(), json!({ "userId": ada.id, "reason": "spam" })).await.unwrap()).await;
    assert_eq!(status, 404, "{body}");
    let found = ok(mia.client.get(app.url("/api/users/search?q=Deleted&limit=20")).send().await.unwrap()).await;
    assert_eq!(found, json!([]), "{found}");
}
both_databases!(moderators_cannot_bring_a_deleted_account_back);

// ---------------------------------------------------------------------------------------------
// What a deleted member leaves behind

/// A deleted account is gone to members too: following, blocking or muting it answers 404,
/// as reports and moderation do, and writes nothing, whether its clean-up is running or done.
async fn a_deleted_member_cannot_be_followed_blocked_or_muted(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let token = token_of(&deletion_link(&app, &ada).await);
    assert_eq!(confirm(&app, &ada, &token).await.0, 204);
    for phase in ["while leaving", "after leaving"] {
        for (path, body) in [
            ("/api/follows", json!({ "followingId": ada.id })),
            ("/api/blocks", json!({ "userId": ada.id })),
            ("/api/mutes", json!({ "userId": ada.id })),
        ] {
            let (status, answer) = json(bob.client.post(app.url(path)).json(&body).send().await.unwrap()).await;
            assert_eq!((status, answer["message"].as_str()), (404, Some("User not found")), "{phase}: {path}");
        }
        for (what, sql) in [
            ("follows", "SELECT COUNT(*) FROM follows WHERE following_id = $1"),
            ("blocks", "SELECT COUNT(*) FROM blocks WHERE blocked_id = $1"),
            ("mutes", "SELECT COUNT(*) FROM mutes WHERE muted_id = $1"),
            ("notifications", "SELECT COUNT(*) FROM notifications WHERE recipient_id = $1"),
            ("followers counted", "SELECT follower_count FROM users WHERE id = $1"),
        ] {
            assert_eq!(scalar(&app, sql, ada.id).await, 0, "{phase}: {what}");
        }
        assert_eq!(scalar(&app, "SELECT following_count FROM users WHERE id = $1", bob.id).await, 0, "{phase}");
        cleaned_up(&app).await;
    }
}
both_databases!(a_deleted_member_cannot_be_followed_blocked_or_muted);

/// Every count a member's actions keep in `rate_limits` leaves with them, and so does their
/// data archive, in the leaving job (not at upkeep, days later).
async fn leaving_removes_every_rate_limit_count_and_the_data_archive_of_the_member(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let bobs = post(&app, &bob, json!({ "content": "Bob's" })).await;
    // One of each counted action of Ada's.
    let image = crate::media::uploaded(&app, &ada, crate::fixtures::png(8, 8)).await;
    let adas = post(&app, &ada, json!({ "content": "Ada's", "imageUrls": [image] })).await;
    crate::edits::edit(&app, &ada, adas, "Ada's, edited").await;
    ok(ada.client.post(app.url(&format!("/api/posts/{bobs}/like"))).send().await.unwrap()).await;
    ok(ada.client.post(app.url(&format!("/api/posts/{bobs}/bookmark"))).send().await.unwrap()).await;
    ok(ada.client.post(app.url("/api/follows")).json(&json!({ "followingId": bob.id })).send().await.unwrap()).await;
    ok(ada.client.post(app.url("/api/mutes")).json(&json!({ "userId": bob.id })).send().await.unwrap()).await;
    let report = json!({ "postId": bobs, "reason": "spam" });
    ok(ada.client.post(app.url("/api/reports")).json(&report).send().await.unwrap()).await;
    ok(ada.client.post(app.url("/api/invites")).send().await.unwrap()).await;
    let status = ada.client.put(app.url("/api/notifications/read-all")).send().await.unwrap().status();
    assert_eq!(status, 204);
    ok(ada.client.post(app.url("/api/account/export")).send().await.unwrap()).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let archive = loop {
        let ready: Option<String> =
            sqlx::query_scalar("SELECT archive_id FROM data_exports WHERE member_id = $1 AND status = 'ready'")
                .bind(ada.id)
                .fetch_optional(&app.state.db.read)
                .await
                .unwrap();
        if let Some(archive) = ready {
            break archive;
        }
        assert!(std::time::Instant::now() < deadline, "the archive was not made");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let archive_file = app.data_dir.path().join("media/exports").join(format!("{archive}.zip"));
    assert!(archive_file.exists());
    let token = token_of(&deletion_link(&app, &ada).await);
    let counted = |keys: Vec<String>| -> Vec<String> {
        let suffix = format!(":{}", ada.id);
        keys.into_iter().filter(|key| key.ends_with(&suffix)).collect()
    };
    let keys: Vec<String> =
        sqlx::query_scalar("SELECT key FROM rate_limits").fetch_all(&app.state.db.read).await.unwrap();
    assert!(counted(keys).len() >= 11, "a count of each action");

    assert_eq!(confirm(&app, &ada, &token).await.0, 204);
    cleaned_up(&app).await;

    let keys: Vec<String> =
        sqlx::query_scalar("SELECT key FROM rate_limits").fetch_all(&app.state.db.read).await.unwrap();
    assert_eq!(counted(keys), Vec::<String>::new(), "counts of the member left behind");
    assert!(!archive_file.exists(), "the member's data archive left behind");
}
both_databases!(leaving_removes_every_rate_limit_count_and_the_data_archive_of_the_member);
