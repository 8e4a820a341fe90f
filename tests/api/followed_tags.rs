//! Followed tags: a member follows a hashtag, and new posts using it, from anyone they see,
//! reach their Friends feed once, marked with the tag (`viaTag`); Settings' list, the bounds
//! and refusals; blocks, mutes and suspensions; a popular tag's queued fan-out.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, follow, get, id, post_empty, write};

async fn follow_tag(app: &TestApp, who: &Member, tag: &str) -> Value {
    let (status, body) = post_empty(app, who, &format!("/api/tags/{tag}/follow")).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn unfollow_tag(app: &TestApp, who: &Member, tag: &str) {
    let (status, body) = delete(app, who, &format!("/api/tags/{tag}/follow")).await;
    assert_eq!(status, 204, "{body}");
}

async fn followed(app: &TestApp, who: &Member) -> Vec<String> {
    let (status, list) = get(app, who, "/api/followed-tags").await;
    assert_eq!(status, 200, "{list}");
    list.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

/// The Friends feed's first page as (post id, viaTag) pairs.
async fn feed(app: &TestApp, who: &Member) -> Vec<(i64, Option<String>)> {
    let (status, page) = get(app, who, "/api/posts/feed?limit=50").await;
    assert_eq!(status, 200, "{page}");
    page.as_array().unwrap().iter().map(|p| (id(p), p["viaTag"].as_str().map(str::to_string))).collect()
}

fn via(tag: &str) -> Option<String> {
    Some(tag.to_string())
}

async fn following_listing_and_unfollowing_a_tag(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;

    let rust = follow_tag(&app, &ada, "Rust").await;
    assert_eq!(rust["name"], "Rust", "{rust}");
    assert!(rust["followedAt"].as_str().unwrap().ends_with('Z'), "{rust}");
    // With #, another case, again: the same tag, still followed once.
    let (status, again) = post_empty(&app, &ada, "/api/tags/%23rust/follow").await;
    assert_eq!((status, &again["name"]), (200, &json!("Rust")), "{again}");
    follow_tag(&app, &ada, "café").await;
    assert_eq!(followed(&app, &ada).await, ["café", "Rust"]);
    assert!(followed(&app, &bob).await.is_empty(), "another member's list is their own");
    // Another member's unfollow is their own too.
    unfollow_tag(&app, &bob, "rust").await;
    assert_eq!(followed(&app, &ada).await, ["café", "Rust"]);

    let (_, tag) = get(&app, &ada, "/api/tags/RUST").await;
    assert_eq!((&tag["name"], &tag["isFollowing"]), (&json!("Rust"), &json!(true)), "{tag}");
    let (_, tag) = get(&app, &bob, "/api/tags/rust").await;
    assert_eq!(tag["isFollowing"], false, "{tag}");

    unfollow_tag(&app, &ada, "rust").await;
    assert_eq!(followed(&app, &ada).await, ["café"]);
    // Not following it, or a tag nobody ever used: fine too.
    unfollow_tag(&app, &ada, "rust").await;
    unfollow_tag(&app, &ada, "never_used").await;
    let (_, tag) = get(&app, &ada, "/api/tags/rust").await;
    assert_eq!(tag["isFollowing"], false, "{tag}");
}

async fn bad_names_and_too_many_tags_are_refused(app: TestApp) {
    let ada = app.member("ada").await;

    for bad in ["a-b", "123", "%20", &"a".repeat(51), "%F0%9F%A6%80"] {
        let (status, body) = post_empty(&app, &ada, &format!("/api/tags/{bad}/follow")).await;
        assert_eq!(
            (status, &body["message"]),
            (400, &json!("A tag is 1 to 50 letters, digits or underscores")),
            "{bad}: {body}"
        );
        let (status, body) = delete(&app, &ada, &format!("/api/tags/{bad}/follow")).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let refused: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM followed_tags").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(refused, 0);

    // The 100th is fine; the 101st is refused with what to do, and nothing is written.
    for i in 0..99 {
        sqlx::query("INSERT INTO tags (key, name, created_at) VALUES ($1, $1, 0)")
            .bind(format!("t{i}"))
            .execute(&app.state.db.write)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO followed_tags (member_id, tag_id, created_at) SELECT $1, id, 0 FROM tags WHERE key = $2",
        )
        .bind(ada.id)
        .bind(format!("t{i}"))
        .execute(&app.state.db.write)
        .await
        .unwrap();
    }
    follow_tag(&app, &ada, "hundredth").await;
    let (status, body) = post_empty(&app, &ada, "/api/tags/one_more/follow").await;
    assert_eq!(
        (status, &body["message"]),
        (409, &json!("You can follow at most 100 tags: unfollow one in Settings first")),
        "{body}"
    );
    assert_eq!(followed(&app, &ada).await.len(), 100);
    // Following one already followed is still fine at the bound.
    follow_tag(&app, &ada, "hundredth").await;
    // Without a session: 401.
    let visitor = reqwest::Client::new();
    assert_eq!(visitor.get(app.url("/api/followed-tags")).send().await.unwrap().status(), 401);
}

async fn a_strangers_tagged_post_reaches_the_follower_once_and_marked(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow_tag(&app, &ada, "rust").await;
    follow(&app, &ada, &cyd).await;

    let stranger = write(&app, &bob, "Ferris says hi #Rust").await;
    let untagged = write(&app, &bob, "Lunch").await;
    let other_tag = write(&app, &bob, "#gardening").await;
    // Cyd, whom Ada follows, uses the tag: once, and as a followed member's post (no mark).
    let friend = write(&app, &cyd, "#rust and #rustlang").await;
    let own = write(&app, &ada, "My own #rust").await;

    // The tag as first written here: Ada's follow made it.
    assert_eq!(feed(&app, &ada).await, [(id(&own), None), (id(&friend), None), (id(&stranger), via("rust"))]);
    let _ = (untagged, other_tag);
    // Only Ada's feed: Bob's and Cyd's are their own.
    assert_eq!(feed(&app, &bob).await.len(), 3);

    // Following Bob later: his post is there by the follow now, once, without the mark.
    follow(&app, &ada, &bob).await;
    let page = feed(&app, &ada).await;
    assert_eq!(page.iter().filter(|(post, _)| *post == id(&stranger)).count(), 1, "{page:?}");
    assert!(page.iter().all(|(_, tag)| tag.is_none()), "{page:?}");
    // Unfollowing Bob: the tagged post stays, by the tag again; his others go.
    let (status, _) = delete(&app, &ada, &format!("/api/follows/{}", bob.id)).await;
    assert_eq!(status, 200);
    assert_eq!(feed(&app, &ada).await, [(id(&own), None), (id(&friend), None), (id(&stranger), via("rust"))]);

    // A deleted tagged post leaves the timeline (the feed's kept page shows it within seconds).
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}", id(&stranger))).await;
    assert_eq!(status, 204);
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM home_timeline WHERE post_id = $1")
        .bind(id(&stranger))
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

async fn unfollowing_a_tag_stops_new_posts_and_takes_its_posts_out(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow_tag(&app, &ada, "rust").await;
    follow_tag(&app, &ada, "zig").await;

    let rust = write(&app, &bob, "#rust").await;
    let both = write(&app, &bob, "#zig #rust").await;
    assert_eq!(feed(&app, &ada).await, [(id(&both), via("rust")), (id(&rust), via("rust"))]);

    unfollow_tag(&app, &ada, "rust").await;
    // What only #rust brought goes; what #zig also brings stays, marked with it.
    assert_eq!(feed(&app, &ada).await, [(id(&both), via("zig"))]);
    write(&app, &bob, "more #rust").await;
    assert_eq!(feed(&app, &ada).await, [(id(&both), via("zig"))]);
    // Following again brings no older post, only new ones.
    follow_tag(&app, &ada, "rust").await;
    let newer = write(&app, &bob, "newer #rust").await;
    assert_eq!(feed(&app, &ada).await, [(id(&newer), via("rust")), (id(&both), via("zig"))]);
}

async fn hidden_authors_tagged_posts_do_not_reach_the_follower(app: TestApp) {
    let ada = app.member("ada").await;
    let blocked = app.member("blocked").await;
    let blocker = app.member("blocker").await;
    let muted = app.member("muted").await;
    let suspended = app.member("suspended").await;
    let moderator = app.member("moderator").await;
    follow_tag(&app, &ada, "rust").await;

    let (status, _) = crate::posts::post(&app, &ada, "/api/blocks", json!({ "userId": blocked.id })).await;
    assert_eq!(status, 201);
    let (status, _) = crate::posts::post(&app, &blocker, "/api/blocks", json!({ "userId": ada.id })).await;
    assert_eq!(status, 201);
    let (status, _) = crate::posts::post(&app, &ada, "/api/mutes", json!({ "userId": muted.id })).await;
    assert_eq!(status, 201);
    let shown = write(&app, &moderator, "#rust from someone fine").await;
    for member in [&blocked, &blocker, &muted, &suspended] {
        write(&app, member, "#rust").await;
    }
    sqlx::query("UPDATE users SET role = 'moderator' WHERE id = $1")
        .bind(moderator.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let (status, body) = crate::posts::post(
        &app,
        &moderator,
        &format!("/api/moderation/members/{}/suspend", suspended.id),
        json!({ "reason": "Spam wave" }),
    )
    .await;
    assert!((200..300).contains(&status), "{status} {body}");

    assert_eq!(feed(&app, &ada).await, [(id(&shown), via("rust"))]);
}

async fn a_popular_tags_posts_reach_its_followers_in_chunks(app: TestApp) {
    use murmur::timelines;
    let author = app.member("author").await;
    let mut fans = Vec::new();
    // More tag followers (who do not follow the author) than one transaction reaches, and more
    // followers of the author: both queued; a member who follows both gets the post once,
    // unmarked.
    for i in 0..(timelines::CHUNK + 20) {
        let fan = app.member(&format!("fan{i}")).await;
        follow_tag(&app, &fan, "rust").await;
        if i % 10 == 0 {
            follow(&app, &fan, &author).await;
        }
        fans.push(fan);
    }
    for i in 0..(timelines::CHUNK + 1) {
        let reader = app.member(&format!("reader{i}")).await;
        follow(&app, &reader, &author).await;
    }
    let post = write(&app, &author, "Big news #rust").await;
    fan_out_done(&app).await;
    for (i, fan) in fans.iter().enumerate() {
        let expected = if i % 10 == 0 { None } else { via("rust") };
        assert_eq!(feed(&app, fan).await, [(id(&post), expected)], "{}", fan.username);
    }
    // Unfollowing the tag: what it brought goes; nothing new arrives.
    unfollow_tag(&app, &fans[1], "rust").await;
    assert!(feed(&app, &fans[1]).await.is_empty());
    write(&app, &author, "More #rust").await;
    fan_out_done(&app).await;
    assert!(feed(&app, &fans[1]).await.is_empty());
    assert_eq!(feed(&app, &fans[3]).await.len(), 2);
}

async fn mastodon_apps_follow_list_and_unfollow_the_same_tags(app: TestApp) {
    use crate::mastodon::{AppClient, token_for};
    let ada = app.member("ada").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write follow").await);

    let (status, empty) = ada_app.get("/api/v1/followed_tags").await;
    assert_eq!((status, empty), (200, json!([])));
    let (status, tag) = ada_app.post("/api/v1/tags/Rust/follow", json!({})).await;
    assert_eq!((status, &tag["name"], &tag["following"]), (200, &json!("rust"), &json!(true)), "{tag}");
    // The web app's list is the same list.
    assert_eq!(followed(&app, &ada).await, ["Rust"]);
    let (_, list) = ada_app.get("/api/v1/followed_tags").await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["following"], true, "{list}");
    let (_, shown) = ada_app.get("/api/v1/tags/rust").await;
    assert_eq!(shown["following"], true, "{shown}");
    let (status, body) = ada_app.post("/api/v1/tags/not-a-tag/follow", json!({})).await;
    assert!(status == 400 || status == 422, "{status} {body}");

    let (status, tag) = ada_app.post("/api/v1/tags/rust/unfollow", json!({})).await;
    assert_eq!((status, &tag["following"]), (200, &json!(false)), "{tag}");
    assert!(followed(&app, &ada).await.is_empty());
    // A token without the follow scopes may not.
    let reader = AppClient::new(&app, &token_for(&app, &ada, "read:statuses").await);
    assert_eq!(reader.post("/api/v1/tags/rust/follow", json!({})).await.0, 403);
}

/// Waits (up to 10 s) until the server's worker has emptied both fan-out queues.
async fn fan_out_done(app: &TestApp) {
    for _ in 0..200 {
        let queued: i64 =
            sqlx::query_scalar("SELECT (SELECT COUNT(*) FROM timeline_fanouts) + (SELECT COUNT(*) FROM tag_fanouts)")
                .fetch_one(&app.state.db.read)
                .await
                .unwrap();
        if queued == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the fan-out queues were not worked");
}

both_databases!(
    following_listing_and_unfollowing_a_tag,
    bad_names_and_too_many_tags_are_refused,
    a_strangers_tagged_post_reaches_the_follower_once_and_marked,
    unfollowing_a_tag_stops_new_posts_and_takes_its_posts_out,
    hidden_authors_tagged_posts_do_not_reach_the_follower,
    a_popular_tags_posts_reach_its_followers_in_chunks,
    mastodon_apps_follow_list_and_unfollow_the_same_tags,
);
