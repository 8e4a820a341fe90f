//! Posts: writing, replies, reposts, likes, polls, deletion and threads. Also the small
//! helpers the other social test modules share.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, json as read};

// ---- helpers shared by the social modules -------------------------------------------------

pub async fn get(app: &TestApp, who: &Member, path: &str) -> (u16, Value) {
    read(who.client.get(app.url(path)).send().await.unwrap()).await
}

pub async fn post(app: &TestApp, who: &Member, path: &str, body: Value) -> (u16, Value) {
    read(who.client.post(app.url(path)).json(&body).send().await.unwrap()).await
}

pub async fn post_empty(app: &TestApp, who: &Member, path: &str) -> (u16, Value) {
    read(who.client.post(app.url(path)).send().await.unwrap()).await
}

pub async fn put(app: &TestApp, who: &Member, path: &str, body: Option<Value>) -> (u16, Value) {
    let request = who.client.put(app.url(path));
    let request = match body {
        Some(body) => request.json(&body),
        None => request,
    };
    read(request.send().await.unwrap()).await
}

pub async fn delete(app: &TestApp, who: &Member, path: &str) -> (u16, Value) {
    read(who.client.delete(app.url(path)).send().await.unwrap()).await
}

/// Writes a post and answers it (asserting it was created).
pub async fn write(app: &TestApp, who: &Member, content: &str) -> Value {
    let (status, body) = post(app, who, "/api/posts", json!({ "content": content })).await;
    assert_eq!(status, 201, "{body}");
    body
}

pub async fn reply(app: &TestApp, who: &Member, to: i64, content: &str) -> Value {
    let (status, body) = post(app, who, "/api/posts", json!({ "content": content, "replyToId": to })).await;
    assert_eq!(status, 201, "{body}");
    body
}

pub async fn repost(app: &TestApp, who: &Member, of: i64) -> Value {
    let (status, body) = post(app, who, "/api/posts", json!({ "content": "♻️", "repostOfId": of })).await;
    assert_eq!(status, 201, "{body}");
    body
}

pub async fn like(app: &TestApp, who: &Member, id: i64) -> Value {
    let (status, body) = post_empty(app, who, &format!("/api/posts/{id}/like")).await;
    assert_eq!(status, 200, "{body}");
    body
}

pub async fn follow(app: &TestApp, who: &Member, whom: &Member) {
    let (status, body) = post(app, who, "/api/follows", json!({ "followingId": whom.id })).await;
    assert_eq!(status, 200, "{body}");
}

/// A post as `who` sees it now (through its thread).
pub async fn seen_by(app: &TestApp, who: &Member, id: i64) -> Value {
    let (status, body) = get(app, who, &format!("/api/posts/{id}/thread")).await;
    assert_eq!(status, 200, "{body}");
    body["post"].clone()
}

pub fn id(v: &Value) -> i64 {
    v["id"].as_i64().unwrap_or_else(|| panic!("no id in {v}"))
}

pub fn ids(list: &Value) -> Vec<i64> {
    list.as_array().unwrap_or_else(|| panic!("not a list: {list}")).iter().map(id).collect()
}

// ---- writing -------------------------------------------------------------------------------

async fn a_member_writes_a_post_and_gets_it_back(app: TestApp) {
    let ada = app.member("ada").await;
    let (status, p) = post(&app, &ada, "/api/posts", json!({ "content": "  Hello, world  " })).await;
    assert_eq!(status, 201, "{p}");
    assert_eq!(p["content"], "Hello, world");
    assert_eq!(p["author"], json!({ "id": ada.id, "username": "ada", "displayName": "Ada", "profileImageUrl": null }));
    assert!(chrono::DateTime::parse_from_rfc3339(p["createdAt"].as_str().unwrap()).is_ok());
    assert_eq!(p["imageUrls"], json!([]));
    assert_eq!(p["pollOptions"], json!([]));
    assert_eq!(p["pollVotes"], json!({}));
    assert_eq!(p["pollExpiresAt"], Value::Null);
    assert_eq!(p["myVote"], Value::Null);
    assert_eq!(p["replyToId"], Value::Null);
    assert_eq!(p["repostOfId"], Value::Null);
    for count in ["replyCount", "repostCount", "likeCount"] {
        assert_eq!(p[count], 0, "{count}");
    }
    assert_eq!(p["isLiked"], false);
    assert_eq!(p["isReposted"], false);
    assert_eq!(p["isDeleted"], false);
    assert_eq!(seen_by(&app, &ada, id(&p)).await["content"], "Hello, world");
}

async fn a_post_at_the_limit_counts_characters_not_bytes(app: TestApp) {
    let ada = app.member("ada").await;
    let (status, _) = post(&app, &ada, "/api/posts", json!({ "content": "🙂".repeat(500) })).await;
    assert_eq!(status, 201);
    let (status, body) = post(&app, &ada, "/api/posts", json!({ "content": "a".repeat(501) })).await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "A post can be at most 500 characters long");
}

async fn invalid_posts_are_refused_saying_which_rule(app: TestApp) {
    let ada = app.member("ada").await;
    let cases = [
        (json!({ "content": "   " }), "A post cannot be empty"),
        (json!({}), "A post cannot be empty"),
        (json!({ "content": "x", "imageUrls": ["a", "b", "c", "d", "e"] }), "A post can have at most 4 images"),
        (json!({ "content": "x", "pollOptions": ["only", " "] }), "A poll needs at least 2 options"),
        (json!({ "content": "x", "pollOptions": ["a", "b", "c", "d", "e"] }), "A poll can have at most 4 options"),
        (json!({ "content": "x", "pollOptions": ["same", "same"] }), "Poll options must be different from each other"),
        (
            json!({ "content": "x", "pollOptions": ["ok", "y".repeat(81)] }),
            "A poll option can be at most 80 characters long",
        ),
        (
            json!({ "content": "x", "pollOptions": ["a", "b"], "pollDurationHours": 0 }),
            "pollDurationHours must be between 1 and 168",
        ),
        (
            json!({ "content": "x", "pollOptions": ["a", "b"], "pollDurationHours": 169 }),
            "pollDurationHours must be between 1 and 168",
        ),
        (json!({ "content": "x", "replyToId": 999_999 }), "replyToId must name an existing post"),
        (json!({ "content": "♻️", "repostOfId": 1, "replyToId": 1 }), "A repost cannot have images, a poll or a reply"),
    ];
    for (body, message) in cases {
        let (status, answer) = post(&app, &ada, "/api/posts", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["message"], message, "{body}");
    }
    // An address that is not one of this server's uploads is refused, whatever the media work does.
    let (status, answer) =
        post(&app, &ada, "/api/posts", json!({ "content": "x", "imageUrls": ["https://evil.example/a.png"] })).await;
    assert_eq!(status, 400, "{answer}");
    // Nothing was written by any of these.
    let (_, mine) = get(&app, &ada, "/api/users/ada/posts").await;
    assert_eq!(mine, json!([]));
}

async fn visitors_get_401_from_every_social_call(app: TestApp) {
    let calls: [(&str, &str); 25] = [
        ("POST", "/api/posts"),
        ("DELETE", "/api/posts/1"),
        ("POST", "/api/posts/1/like"),
        ("DELETE", "/api/posts/1/like"),
        ("DELETE", "/api/posts/1/repost"),
        ("POST", "/api/posts/1/vote"),
        ("GET", "/api/posts/1/thread"),
        ("GET", "/api/posts/1/replies"),
        ("GET", "/api/posts/feed"),
        ("GET", "/api/posts/for-you"),
        ("GET", "/api/users/ada"),
        ("GET", "/api/users/ada/posts"),
        ("GET", "/api/users/ada/replies"),
        ("GET", "/api/users/ada/media"),
        ("GET", "/api/users/ada/likes"),
        ("GET", "/api/users/suggested"),
        ("GET", "/api/users/search?q=a"),
        ("PUT", "/api/users/profile"),
        ("GET", "/api/follows/1/status"),
        ("POST", "/api/follows"),
        ("DELETE", "/api/follows/1"),
        ("GET", "/api/notifications"),
        ("PUT", "/api/notifications/1/read"),
        ("PUT", "/api/notifications/read-all"),
        ("GET", "/api/notifications/unread-count"),
    ];
    for (method, path) in calls {
        let request = app.client.request(method.parse().unwrap(), app.url(path));
        let request = if method == "GET" { request } else { request.json(&json!({})) };
        let (status, body) = read(request.send().await.unwrap()).await;
        assert_eq!(status, 401, "{method} {path}: {body}");
    }
}

async fn a_member_cannot_post_faster_than_the_limit(app: TestApp) {
    let ada = app.member("ada").await;
    for i in 0..30 {
        write(&app, &ada, &format!("post {i}")).await;
    }
    let (status, body) = post(&app, &ada, "/api/posts", json!({ "content": "one too many" })).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["message"], "You are posting too fast. Please wait a minute.");
    app.clock.advance(Duration::from_secs(61));
    write(&app, &ada, "later").await;
}

// ---- polls ---------------------------------------------------------------------------------

async fn a_poll_shows_its_options_votes_and_expiry(app: TestApp) {
    let ada = app.member("ada").await;
    let (status, p) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "Tea or coffee?", "pollOptions": [" Tea ", "", "Coffee"], "pollDurationHours": 2 }),
    )
    .await;
    assert_eq!(status, 201, "{p}");
    assert_eq!(p["pollOptions"], json!(["Tea", "Coffee"]));
    assert_eq!(p["pollVotes"], json!({ "Tea": [], "Coffee": [] }));
    let created = chrono::DateTime::parse_from_rfc3339(p["createdAt"].as_str().unwrap()).unwrap();
    let expires = chrono::DateTime::parse_from_rfc3339(p["pollExpiresAt"].as_str().unwrap()).unwrap();
    assert_eq!((expires - created).num_hours(), 2);
    // Blank options only: a post without a poll.
    let (_, plain) = post(&app, &ada, "/api/posts", json!({ "content": "no poll", "pollOptions": ["", " "] })).await;
    assert_eq!(plain["pollOptions"], json!([]));
    assert_eq!(plain["pollExpiresAt"], Value::Null);
    // Default duration: 24 hours.
    let (_, daily) = post(&app, &ada, "/api/posts", json!({ "content": "?", "pollOptions": ["a", "b"] })).await;
    let created = chrono::DateTime::parse_from_rfc3339(daily["createdAt"].as_str().unwrap()).unwrap();
    let expires = chrono::DateTime::parse_from_rfc3339(daily["pollExpiresAt"].as_str().unwrap()).unwrap();
    assert_eq!((expires - created).num_hours(), 24);
}

async fn a_member_votes_once_while_the_poll_is_open(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let (_, p) =
        post(&app, &ada, "/api/posts", json!({ "content": "?", "pollOptions": ["Yes", "No"], "pollDurationHours": 1 }))
            .await;
    let vote = format!("/api/posts/{}/vote", id(&p));

    let (status, voted) = post(&app, &bob, &vote, json!({ "option": "Yes" })).await;
    assert_eq!(status, 200, "{voted}");
    assert_eq!(voted["pollVotes"], json!({ "Yes": [bob.id], "No": [] }));
    assert_eq!(voted["myVote"], "Yes");
    assert_eq!(seen_by(&app, &ada, id(&p)).await["myVote"], Value::Null);

    let (status, body) = post(&app, &bob, &vote, json!({ "option": "No" })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (409, "You have already voted"));
    let (status, body) = post(&app, &carol, &vote, json!({ "option": "Maybe" })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (400, "That option is not in this poll"));
    let plain = write(&app, &ada, "no poll here").await;
    let (status, body) =
        post(&app, &carol, &format!("/api/posts/{}/vote", id(&plain)), json!({ "option": "Yes" })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (400, "This post has no poll"));
    let (status, _) = post(&app, &carol, "/api/posts/999999/vote", json!({ "option": "Yes" })).await;
    assert_eq!(status, 404);

    app.clock.advance(Duration::from_secs(3601));
    let (status, body) = post(&app, &carol, &vote, json!({ "option": "No" })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (400, "This poll has ended"));
    assert_eq!(seen_by(&app, &carol, id(&p)).await["pollVotes"], json!({ "Yes": [bob.id], "No": [] }));
}

// ---- replies and threads -------------------------------------------------------------------

async fn replies_count_and_read_as_a_thread(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let root = write(&app, &ada, "root").await;
    let first = reply(&app, &bob, id(&root), "first").await;
    let second = reply(&app, &ada, id(&root), "second").await;
    let deep = reply(&app, &ada, id(&first), "deep").await;
    assert_eq!(first["replyToId"], id(&root));

    let (status, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&root))).await;
    assert_eq!(status, 200, "{thread}");
    assert_eq!(thread["post"]["replyCount"], 2);
    assert_eq!(ids(&thread["replies"]), [id(&first), id(&second)]);
    assert_eq!(thread["ancestors"], json!([]));

    let (_, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&deep))).await;
    assert_eq!(ids(&thread["ancestors"]), [id(&root), id(&first)]);
    assert_eq!(thread["replies"], json!([]));

    // A repost has no thread of its own: its thread, and replies to it, are the original's.
    let shared = repost(&app, &bob, id(&root)).await;
    let (_, via) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&shared))).await;
    assert_eq!(id(&via["post"]), id(&root));
    let to_repost = reply(&app, &ada, id(&shared), "answering the repost").await;
    assert_eq!(to_repost["replyToId"], id(&root));

    let (status, body) = get(&app, &bob, "/api/posts/999999/thread").await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "Post not found"));
}

async fn a_thread_past_200_replies_pages_the_rest(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let root = write(&app, &ada, "root").await;
    let mut replies = Vec::new();
    for i in 0..206 {
        // The clock moves on a minute every 30 replies: past the per-minute limit.
        if i > 0 && i % 30 == 0 {
            app.clock.advance(Duration::from_secs(60));
        }
        let answer = reply(&app, &bob, id(&root), &format!("reply {i}")).await;
        replies.push(id(&answer));
    }
    let gone = replies.remove(100);
    delete(&app, &bob, &format!("/api/posts/{gone}")).await;
    let shared = repost(&app, &ada, id(&root)).await;

    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&root))).await;
    let (status, rest) = get(&app, &ada, &format!("/api/posts/{}/replies?offset=200", id(&root))).await;
    let (_, first) = get(&app, &ada, &format!("/api/posts/{}/replies?limit=3", id(&shared))).await;

    assert_eq!(ids(&thread["replies"]), replies[..200]);
    assert_eq!(status, 200, "{rest}");
    assert_eq!(ids(&rest), replies[200..]);
    assert_eq!(ids(&first), replies[..3], "a repost's replies are its original's");
}

async fn replies_of_a_missing_or_deleted_post_are_404_and_bad_paging_400(app: TestApp) {
    let ada = app.member("ada").await;
    let gone = write(&app, &ada, "gone").await;
    reply(&app, &ada, id(&gone), "left behind").await;
    delete(&app, &ada, &format!("/api/posts/{}", id(&gone))).await;

    for path in [format!("/api/posts/{}/replies", id(&gone)), "/api/posts/999999/replies".into()] {
        let (status, body) = get(&app, &ada, &path).await;
        assert_eq!((status, body["message"].as_str()), (404, Some("Post not found")), "{path}");
    }
    let live = write(&app, &ada, "live").await;
    for query in ["limit=0", "limit=51", "offset=-1", "offset=100001", "limit=abc"] {
        let path = format!("/api/posts/{}/replies?{query}", id(&live));
        let (status, body) = get(&app, &ada, &path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body["message"].is_string());
    }
    let (status, body) = get(&app, &ada, "/api/posts/abc/replies").await;
    assert_eq!(status, 400, "{body}");
}

// ---- reposts -------------------------------------------------------------------------------

async fn a_member_reposts_a_post_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let original = write(&app, &ada, "worth sharing").await;

    let shared = repost(&app, &bob, id(&original)).await;
    assert_eq!(shared["content"], "♻️");
    assert_eq!(shared["repostOfId"], id(&original));
    assert_eq!(shared["repostOf"]["id"], id(&original));
    assert_eq!(shared["repostOf"]["content"], "worth sharing");
    // The repost row's counts and flags are the original's (what the card shows and toggles).
    assert_eq!(shared["repostCount"], 1);
    assert_eq!(shared["isReposted"], true);
    assert_eq!(seen_by(&app, &bob, id(&original)).await["isReposted"], true);
    assert_eq!(seen_by(&app, &ada, id(&original)).await["isReposted"], false);

    let again = json!({ "content": "♻️", "repostOfId": id(&original) });
    let (status, body) = post(&app, &bob, "/api/posts", again).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (409, "Already reposted"));
    // Reposting a repost reposts the original: again a duplicate for bob, a repost of the original for carol.
    let (status, _) = post(&app, &bob, "/api/posts", json!({ "content": "♻️", "repostOfId": id(&shared) })).await;
    assert_eq!(status, 409);
    let via = repost(&app, &carol, id(&shared)).await;
    assert_eq!(via["repostOfId"], id(&original));
    assert_eq!(seen_by(&app, &ada, id(&original)).await["repostCount"], 2);

    let (status, body) = post(&app, &bob, "/api/posts", json!({ "content": "♻️", "repostOfId": 999_999 })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "Post not found"));
}

async fn a_member_undoes_their_own_repost_only(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let original = write(&app, &ada, "share me").await;
    let shared = repost(&app, &bob, id(&original)).await;

    // carol has no repost to undo, and cannot delete bob's.
    let (status, body) = delete(&app, &carol, &format!("/api/posts/{}/repost", id(&original))).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "You have not reposted this post"));
    let (status, _) = delete(&app, &carol, &format!("/api/posts/{}", id(&shared))).await;
    assert_eq!(status, 403);

    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}/repost", id(&original))).await;
    assert_eq!(status, 204);
    let seen = seen_by(&app, &bob, id(&original)).await;
    assert_eq!((seen["repostCount"].as_i64(), seen["isReposted"].as_bool()), (Some(0), Some(false)));
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}/repost", id(&original))).await;
    assert_eq!(status, 404);
    // Deleting the repost row itself works the same way, and a new repost is possible after.
    let shared = repost(&app, &bob, id(&original)).await;
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}", id(&shared))).await;
    assert_eq!(status, 204);
    assert_eq!(seen_by(&app, &bob, id(&original)).await["repostCount"], 0);
    repost(&app, &bob, id(&original)).await;
}

async fn concurrent_reposts_are_counted_exactly(app: TestApp) {
    let ada = app.member("ada").await;
    let original = write(&app, &ada, "viral").await;
    let mut members = Vec::new();
    for i in 0..10 {
        members.push(app.member(&format!("fan{i:02}")).await);
    }
    let body = json!({ "content": "♻️", "repostOfId": id(&original) });
    let answers =
        futures::future::join_all(members.iter().map(|m| m.client.post(app.url("/api/posts")).json(&body).send()))
            .await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 201));
    // One member, ten times at once: one repost, nine refusals.
    let one = &members[0];
    let _ = delete(&app, one, &format!("/api/posts/{}/repost", id(&original))).await;
    let answers =
        futures::future::join_all((0..10).map(|_| one.client.post(app.url("/api/posts")).json(&body).send())).await;
    let statuses: Vec<u16> = answers.into_iter().map(|a| a.unwrap().status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 9, "{statuses:?}");
    assert_eq!(seen_by(&app, &ada, id(&original)).await["repostCount"], 10);
}

// ---- likes ---------------------------------------------------------------------------------

async fn likes_are_idempotent(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let p = write(&app, &ada, "like me").await;
    let path = format!("/api/posts/{}/like", id(&p));

    let liked = like(&app, &bob, id(&p)).await;
    assert_eq!((liked["likeCount"].as_i64(), liked["isLiked"].as_bool()), (Some(1), Some(true)));
    let again = like(&app, &bob, id(&p)).await;
    assert_eq!(again["likeCount"], 1);
    assert_eq!(seen_by(&app, &ada, id(&p)).await["isLiked"], false);

    let (status, unliked) = delete(&app, &bob, &path).await;
    assert_eq!(status, 200);
    assert_eq!((unliked["likeCount"].as_i64(), unliked["isLiked"].as_bool()), (Some(0), Some(false)));
    let (status, unliked) = delete(&app, &bob, &path).await;
    assert_eq!((status, unliked["likeCount"].as_i64()), (200, Some(0)));

    let (status, body) = post_empty(&app, &bob, "/api/posts/999999/like").await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "Post not found"));
    // Liking a repost likes its original.
    let shared = repost(&app, &bob, id(&p)).await;
    let through = like(&app, &bob, id(&shared)).await;
    assert_eq!(id(&through), id(&p));
    assert_eq!(through["likeCount"], 1);
}

/// The count is taken on the writer before the like's own transaction and commits on its own:
/// likes that fail (here: of a post that does not exist) still spend the allowance, so a script
/// cannot probe without limit.
async fn liking_too_fast_is_limited_even_when_the_likes_fail(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let p = write(&app, &ada, "like me later").await;
    for _ in 0..60 {
        like(&app, &bob, id(&p)).await;
    }
    for _ in 0..60 {
        let (status, body) = post_empty(&app, &bob, "/api/posts/999999/like").await;
        assert_eq!(status, 404, "{body}");
    }
    let (status, body) = post_empty(&app, &bob, &format!("/api/posts/{}/like", id(&p))).await;
    assert_eq!((status, body["message"].as_str()), (429, Some("You are liking too fast. Please wait a minute.")));
    // Refused likes change nothing, and the next minute has a new allowance.
    assert_eq!(seen_by(&app, &ada, id(&p)).await["likeCount"], 1);
    app.clock.advance(Duration::from_secs(61));
    assert_eq!(like(&app, &bob, id(&p)).await["likeCount"], 1);
}

async fn concurrent_likes_never_drift(app: TestApp) {
    let ada = app.member("ada").await;
    let p = write(&app, &ada, "popular").await;
    let path = app.url(&format!("/api/posts/{}/like", id(&p)));
    let mut members = Vec::new();
    for i in 0..20 {
        members.push(app.member(&format!("fan{i:02}")).await);
    }
    let answers = futures::future::join_all(members.iter().map(|m| m.client.post(&path).send())).await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    assert_eq!(seen_by(&app, &ada, id(&p)).await["likeCount"], 20);

    // One member liking twenty times at once is one like; unliking twenty times at once, none.
    let one = &members[0];
    let _ = one.client.delete(&path).send().await.unwrap();
    let answers = futures::future::join_all((0..20).map(|_| one.client.post(&path).send())).await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    assert_eq!(seen_by(&app, &ada, id(&p)).await["likeCount"], 20);
    let answers = futures::future::join_all((0..20).map(|_| one.client.delete(&path).send())).await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    assert_eq!(seen_by(&app, &ada, id(&p)).await["likeCount"], 19);
}

// ---- deletion ------------------------------------------------------------------------------

async fn only_the_author_deletes_a_post(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let p = write(&app, &ada, "mine").await;
    let (status, body) = delete(&app, &bob, &format!("/api/posts/{}", id(&p))).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (403, "You can only delete your own posts"));
    let (status, _) = delete(&app, &bob, "/api/posts/999999").await;
    assert_eq!(status, 404);
    assert_eq!(seen_by(&app, &bob, id(&p)).await["content"], "mine");
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&p))).await;
    assert_eq!(status, 204);
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&p))).await;
    assert_eq!(status, 404);
}

async fn a_deleted_post_leaves_its_replies_and_a_placeholder(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let root = write(&app, &ada, "root").await;
    let middle = reply(&app, &ada, id(&root), "middle").await;
    let leaf = reply(&app, &bob, id(&middle), "leaf").await;
    like(&app, &bob, id(&middle)).await;
    repost(&app, &bob, id(&middle)).await;

    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&middle))).await;
    assert_eq!(status, 204);

    let (status, body) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&middle))).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "Post not found"));
    let (_, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&leaf))).await;
    assert_eq!(thread["post"]["replyToId"], id(&middle));
    assert_eq!(ids(&thread["ancestors"]), [id(&root), id(&middle)]);
    let placeholder = &thread["ancestors"][1];
    assert_eq!((placeholder["isDeleted"].as_bool(), placeholder["content"].as_str()), (Some(true), Some("")));
    assert_eq!((placeholder["likeCount"].as_i64(), placeholder["repostCount"].as_i64()), (Some(0), Some(0)));
    // The root counts one reply fewer and no longer lists it; bob's repost of it is gone.
    let (_, root_thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&root))).await;
    assert_eq!(root_thread["post"]["replyCount"], 0);
    assert_eq!(root_thread["replies"], json!([]));
    let (_, bobs) = get(&app, &bob, "/api/users/bob/posts").await;
    assert_eq!(bobs, json!([]));
    let (_, bobs) = get(&app, &bob, "/api/users/bob/replies").await;
    assert_eq!(ids(&bobs), [id(&leaf)]);
    // Likes and interactions with a deleted post are refused.
    let (status, _) = post_empty(&app, &bob, &format!("/api/posts/{}/like", id(&middle))).await;
    assert_eq!(status, 404);
    let (status, _) = post(&app, &bob, "/api/posts", json!({ "content": "late", "replyToId": id(&middle) })).await;
    assert_eq!(status, 400);
}

/// `POST /api/posts` with an `Idempotency-Key` header.
async fn post_with_key(app: &TestApp, who: &Member, key: &str, body: Value) -> (u16, Value) {
    read(who.client.post(app.url("/api/posts")).header("Idempotency-Key", key).json(&body).send().await.unwrap()).await
}

async fn posts_by(app: &TestApp, who: &Member) -> i64 {
    let sql = "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE author_id = $1";
    sqlx::query_scalar(sql).bind(who.id).fetch_one(&app.state.db.read).await.unwrap()
}

async fn a_retried_post_with_its_idempotency_key_is_made_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, first) = post_with_key(&app, &ada, "k-1", json!({ "content": "Once only" })).await;
    assert_eq!(status, 201, "{first}");
    // The retry answers the first post, as the first time, however its JSON is spaced.
    let retry = ada
        .client
        .post(app.url("/api/posts"))
        .header("Idempotency-Key", "k-1")
        .header("Content-Type", "application/json")
        .body(r#"{ "content" :  "Once only" }"#)
        .send()
        .await
        .unwrap();
    let (status, again) = read(retry).await;
    assert_eq!((status, id(&again), again["content"].as_str()), (201, id(&first), Some("Once only")));
    assert_eq!(posts_by(&app, &ada).await, 1);
    // A key is the member's own: Bob's same key makes his own post; Ada's next key, a new post.
    let (status, bobs) = post_with_key(&app, &bob, "k-1", json!({ "content": "Mine" })).await;
    assert_eq!(status, 201);
    assert_ne!(id(&bobs), id(&first));
    let (_, second) = post_with_key(&app, &ada, "k-2", json!({ "content": "Twice" })).await;
    assert_ne!(id(&second), id(&first));
    // A repost and a reply keep their key too.
    let (status, shared) = post_with_key(&app, &bob, "r-1", json!({ "content": "♻️", "repostOfId": id(&first) })).await;
    assert_eq!(status, 201, "{shared}");
    let (status, shared_again) =
        post_with_key(&app, &bob, "r-1", json!({ "content": "♻️", "repostOfId": id(&first) })).await;
    assert_eq!((status, id(&shared_again)), (201, id(&shared)));
    let (_, answer) = post_with_key(&app, &bob, "a-1", json!({ "content": "Yes", "replyToId": id(&first) })).await;
    let (_, answer_again) =
        post_with_key(&app, &bob, "a-1", json!({ "content": "Yes", "replyToId": id(&first) })).await;
    assert_eq!(id(&answer_again), id(&answer));
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&first))).await;
    let counts = (thread["post"]["replyCount"].as_i64(), thread["post"]["repostCount"].as_i64());
    assert_eq!(counts, (Some(1), Some(1)), "{thread}");
    // After the hour the key is free again: a new post.
    app.clock.advance(Duration::from_secs(3601));
    let (status, later) = post_with_key(&app, &ada, "k-1", json!({ "content": "Once only" })).await;
    assert_eq!(status, 201);
    assert_ne!(id(&later), id(&first));
    assert_eq!(posts_by(&app, &ada).await, 3);
}

/// The IETF Idempotency-Key draft: a key answers only a retry of the request it first served.
/// Another request with it (another body, another endpoint) is refused with a 422 and makes
/// nothing; a retry once its post is gone is a 409, never a blank deleted post.
async fn a_key_answers_only_the_request_it_first_served(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let bobs = id(&write(&app, &bob, "Bob's post").await);
    let (status, first) = post_with_key(&app, &ada, "k-1", json!({ "content": "Hello" })).await;
    assert_eq!(status, 201, "{first}");

    // The key of a post, reused for a repost: refused, and no repost is made.
    let (status, refused) = post_with_key(&app, &ada, "k-1", json!({ "content": "♻️", "repostOfId": bobs })).await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        refused["message"],
        "This Idempotency-Key was used for a different request: send a new key with a new request."
    );
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{bobs}/thread")).await;
    assert_eq!(thread["post"]["repostCount"], 0, "{thread}");
    // Another text with it is another request too.
    let (status, _) = post_with_key(&app, &ada, "k-1", json!({ "content": "Hello, again" })).await;
    assert_eq!(status, 422);
    assert_eq!(posts_by(&app, &ada).await, 1);

    // Once its post is deleted, a retry is told so rather than answered a blank post.
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&first))).await;
    assert_eq!(status, 204);
    let (status, refused) = post_with_key(&app, &ada, "k-1", json!({ "content": "Hello" })).await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["message"], "The post made with this Idempotency-Key was deleted.");

    // A repost undone is gone for good: its key stays spent.
    let repost_body = json!({ "content": "♻️", "repostOfId": bobs });
    let (status, shared) = post_with_key(&app, &ada, "r-1", repost_body.clone()).await;
    assert_eq!(status, 201, "{shared}");
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&shared))).await;
    assert_eq!(status, 204);
    let (status, refused) = post_with_key(&app, &ada, "r-1", repost_body).await;
    assert_eq!(status, 409, "{refused}");
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{bobs}/thread")).await;
    assert_eq!(thread["post"]["repostCount"], 0, "no repost was made again: {thread}");

    // An app's key is bound to its endpoint as well: a post's key does not repost.
    let token = crate::mastodon::token_for(&app, &ada, "read write").await;
    let with_key =
        |path: &str| reqwest::Client::new().post(app.url(path)).bearer_auth(&token).header("Idempotency-Key", "m-1");
    let (status, status_made) =
        read(with_key("/api/v1/statuses").json(&json!({ "status": "From an app" })).send().await.unwrap()).await;
    assert_eq!(status, 200, "{status_made}");
    let (status, again) =
        read(with_key("/api/v1/statuses").json(&json!({ "status": "From an app" })).send().await.unwrap()).await;
    assert_eq!((status, &again["id"]), (200, &status_made["id"]));
    let (status, refused) = read(with_key(&format!("/api/v1/statuses/{bobs}/reblog")).send().await.unwrap()).await;
    assert_eq!(status, 422, "{refused}");
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{bobs}/thread")).await;
    assert_eq!(thread["post"]["repostCount"], 0, "{thread}");
}

async fn a_post_refused_keeps_its_key_unused(app: TestApp) {
    let ada = app.member("ada").await;
    let (status, body) = post_with_key(&app, &ada, "k-1", json!({ "content": "" })).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post_with_key(&app, &ada, "k-1", json!({ "content": "Now with words" })).await;
    assert_eq!((status, body["content"].as_str()), (201, Some("Now with words")));
}

async fn a_bad_idempotency_key_is_refused_saying_why(app: TestApp) {
    let ada = app.member("ada").await;
    for key in ["", "with space", &"k".repeat(129)] {
        let (status, body) = post_with_key(&app, &ada, key, json!({ "content": "Hello" })).await;
        assert_eq!(status, 400, "{key:?}: {body}");
        assert!(body["message"].as_str().unwrap().contains("Idempotency-Key"), "{body}");
    }
    assert_eq!(posts_by(&app, &ada).await, 0);
}

async fn concurrent_requests_with_one_key_make_one_post(app: TestApp) {
    let ada = app.member("ada").await;
    let sends = (0..6).map(|_| post_with_key(&app, &ada, "same", json!({ "content": "Racing" })));
    let answers = futures::future::join_all(sends).await;
    let ids: std::collections::BTreeSet<i64> =
        answers.iter().filter(|(status, _)| *status == 201).map(|(_, body)| id(body)).collect();
    assert_eq!(ids.len(), 1, "{answers:?}");
    assert!(answers.iter().all(|(status, _)| *status == 201 || *status == 409), "{answers:?}");
    assert_eq!(posts_by(&app, &ada).await, 1);
}

both_databases!(
    a_member_writes_a_post_and_gets_it_back,
    a_post_at_the_limit_counts_characters_not_bytes,
    invalid_posts_are_refused_saying_which_rule,
    visitors_get_401_from_every_social_call,
    a_member_cannot_post_faster_than_the_limit,
    a_poll_shows_its_options_votes_and_expiry,
    a_member_votes_once_while_the_poll_is_open,
    replies_count_and_read_as_a_thread,
    a_thread_past_200_replies_pages_the_rest,
    replies_of_a_missing_or_deleted_post_are_404_and_bad_paging_400,
    a_member_reposts_a_post_once,
    a_member_undoes_their_own_repost_only,
    concurrent_reposts_are_counted_exactly,
    likes_are_idempotent,
    liking_too_fast_is_limited_even_when_the_likes_fail,
    concurrent_likes_never_drift,
    only_the_author_deletes_a_post,
    a_deleted_post_leaves_its_replies_and_a_placeholder,
    a_retried_post_with_its_idempotency_key_is_made_once,
    a_key_answers_only_the_request_it_first_served,
    a_post_refused_keeps_its_key_unused,
    a_bad_idempotency_key_is_refused_saying_why,
    concurrent_requests_with_one_key_make_one_post,
);

// The API suite's core, once more through PgBouncer in transaction mode (`poolers`).
crate::through_pgbouncer!(
    a_member_writes_a_post_and_gets_it_back,
    replies_count_and_read_as_a_thread,
    likes_are_idempotent,
    concurrent_likes_never_drift,
    a_retried_post_with_its_idempotency_key_is_made_once,
);
