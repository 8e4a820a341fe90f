//! Blocks and mutes: what each hides from whom in every list, what a block stops, and that both
//! end cleanly (docs/safety.md).

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, follow, get, id, ids, like, post, post_empty, reply, repost, write};

async fn block(app: &TestApp, who: &Member, whom: &Member) {
    let (status, body) = post(app, who, "/api/blocks", json!({ "userId": whom.id })).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["user"]["username"], whom.username.as_str());
}

async fn mute(app: &TestApp, who: &Member, whom: &Member, hours: Option<i64>) -> Value {
    let (status, body) = post(app, who, "/api/mutes", json!({ "userId": whom.id, "durationHours": hours })).await;
    assert_eq!(status, 201, "{body}");
    body
}

async fn list_ids(app: &TestApp, who: &Member, path: &str) -> Vec<i64> {
    let (status, body) = get(app, who, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    ids(&body)
}

/// The posts a Friends page shows: its cards and the originals inside its reposts' cards (a page
/// holds one card per post).
async fn friends(app: &TestApp, who: &Member) -> Vec<i64> {
    let (status, body) = get(app, who, "/api/posts/feed").await;
    assert_eq!(status, 200, "{body}");
    let cards = body.as_array().unwrap();
    let originals = cards.iter().filter_map(|card| card["repostOf"]["id"].as_i64());
    cards.iter().map(|card| card["id"].as_i64().unwrap()).chain(originals).collect()
}

async fn for_you(app: &TestApp, who: &Member) -> Vec<i64> {
    list_ids(app, who, "/api/posts/for-you").await
}

async fn usernames(app: &TestApp, who: &Member, path: &str) -> Vec<String> {
    let (status, body) = get(app, who, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    body.as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap().to_string()).collect()
}

/// The actors of `who`'s notifications, and their unread count.
async fn notified_by(app: &TestApp, who: &Member) -> (Vec<String>, i64) {
    let (status, list) = get(app, who, "/api/notifications").await;
    assert_eq!(status, 200, "{list}");
    let actors =
        list.as_array().unwrap().iter().map(|n| n["actor"]["username"].as_str().unwrap().to_string()).collect();
    let (_, unread) = get(app, who, "/api/notifications/unread-count").await;
    (actors, unread["count"].as_i64().unwrap())
}

async fn profile(app: &TestApp, who: &Member, username: &str) -> Value {
    let (status, body) = get(app, who, &format!("/api/users/{username}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn a_block_hides_each_from_the_other_everywhere_until_it_ends(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &bob, &ada).await;
    follow(&app, &ada, &cyd).await;
    follow(&app, &cyd, &bob).await;
    let adas = write(&app, &ada, "Ada's post").await;
    let bobs = write(&app, &bob, "Bob's post, hi @ada").await;
    let bobs_reply = reply(&app, &bob, id(&adas), "Bob answers Ada").await;
    let cyds_repost = repost(&app, &cyd, id(&bobs)).await;
    like(&app, &cyd, id(&bobs)).await;
    like(&app, &bob, id(&adas)).await;
    assert!(friends(&app, &ada).await.contains(&id(&bobs)));
    assert!(friends(&app, &ada).await.contains(&id(&cyds_repost)), "kept before the block");
    assert!(for_you(&app, &ada).await.contains(&id(&bobs)));
    assert!(notified_by(&app, &ada).await.0.contains(&"bob".to_string()));

    block(&app, &ada, &bob).await;

    // Follows both ways ended, counted.
    let bob_seen = profile(&app, &cyd, "bob").await;
    assert_eq!((bob_seen["followerCount"].as_i64(), bob_seen["followingCount"].as_i64()), (Some(1), Some(0)));
    let ada_seen = profile(&app, &cyd, "ada").await;
    assert_eq!((ada_seen["followerCount"].as_i64(), ada_seen["followingCount"].as_i64()), (Some(0), Some(1)));
    // Feeds: neither's posts, nor a third member's repost of them.
    let feed = friends(&app, &ada).await;
    assert!(!feed.contains(&id(&bobs)) && !feed.contains(&id(&cyds_repost)), "{feed:?}");
    assert!(!friends(&app, &bob).await.contains(&id(&adas)));
    assert!(!for_you(&app, &ada).await.contains(&id(&bobs)));
    assert!(!for_you(&app, &bob).await.contains(&id(&adas)));
    // A thread shows Bob's reply as unavailable, to Ada only.
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&adas))).await;
    let shown = &thread["replies"][0];
    assert_eq!((shown["id"].as_i64(), shown["isUnavailable"].as_bool()), (Some(id(&bobs_reply)), Some(true)));
    assert_eq!((shown["content"].as_str(), shown["author"]["username"].as_str()), (Some(""), Some("")));
    let (_, thread) = get(&app, &cyd, &format!("/api/posts/{}/thread", id(&adas))).await;
    assert_eq!(thread["replies"][0]["isUnavailable"], false);
    assert_eq!(thread["replies"][0]["content"], "Bob answers Ada");
    // Profiles: each sees how they stand, and none of the other's posts.
    let seen = profile(&app, &ada, "bob").await;
    assert_eq!((seen["isBlocking"].as_bool(), seen["isBlockedBy"].as_bool()), (Some(true), Some(false)));
    let seen = profile(&app, &bob, "ada").await;
    assert_eq!((seen["isBlocking"].as_bool(), seen["isBlockedBy"].as_bool()), (Some(false), Some(true)));
    assert_eq!(list_ids(&app, &ada, "/api/users/bob/posts").await, Vec::<i64>::new());
    assert_eq!(list_ids(&app, &bob, "/api/users/ada/posts").await, Vec::<i64>::new());
    assert_eq!(list_ids(&app, &bob, "/api/users/ada/replies").await, Vec::<i64>::new());
    assert!(!list_ids(&app, &ada, "/api/users/cyd/posts").await.contains(&id(&cyds_repost)));
    assert!(!list_ids(&app, &ada, "/api/users/cyd/likes").await.contains(&id(&bobs)));
    assert!(list_ids(&app, &cyd, "/api/users/cyd/likes").await.contains(&id(&bobs)), "others still see it");
    // Search and suggestions.
    assert!(!usernames(&app, &ada, "/api/users/search?q=bob").await.contains(&"bob".to_string()));
    assert!(!usernames(&app, &bob, "/api/users/search?q=ada").await.contains(&"ada".to_string()));
    assert!(usernames(&app, &cyd, "/api/users/search?q=bob").await.contains(&"bob".to_string()));
    assert!(!usernames(&app, &ada, "/api/users/suggested").await.contains(&"bob".to_string()));
    // Notifications between them are gone.
    assert_eq!(notified_by(&app, &ada).await, (vec![], 0));
    assert!(!notified_by(&app, &bob).await.0.contains(&"ada".to_string()));

    // Neither can interact with the other.
    let refused = [
        post(&app, &bob, "/api/follows", json!({ "followingId": ada.id })).await,
        post_empty(&app, &bob, &format!("/api/posts/{}/like", id(&adas))).await,
        post(&app, &bob, "/api/posts", json!({ "content": "hey", "replyToId": id(&adas) })).await,
        post(&app, &bob, "/api/posts", json!({ "content": "♻️", "repostOfId": id(&adas) })).await,
        post(&app, &ada, "/api/posts", json!({ "content": "♻️", "repostOfId": id(&cyds_repost) })).await,
        post(&app, &ada, "/api/follows", json!({ "followingId": bob.id })).await,
    ];
    for (status, body) in refused {
        assert_eq!((status, body["message"].as_str()), (403, Some("You can't interact with this member")));
    }
    // A mention does not notify either.
    write(&app, &bob, "Still here, @ada").await;
    assert_eq!(notified_by(&app, &ada).await, (vec![], 0));

    // Unblocked: everything is shown again; the follows stay ended.
    let (status, _) = delete(&app, &ada, &format!("/api/blocks/{}", bob.id)).await;
    assert_eq!(status, 204);
    // Bob's post comes back inside Cyd's repost, not as a card of its own (Ada no longer follows him).
    let cards = list_ids(&app, &ada, "/api/posts/feed").await;
    assert!(cards.contains(&id(&cyds_repost)) && !cards.contains(&id(&bobs)), "{cards:?}");
    assert!(for_you(&app, &ada).await.contains(&id(&bobs)));
    assert!(usernames(&app, &ada, "/api/users/search?q=bob").await.contains(&"bob".to_string()));
    assert!(list_ids(&app, &ada, "/api/users/bob/posts").await.contains(&id(&bobs)));
    assert_eq!(profile(&app, &ada, "bob").await["isBlocking"], false);
    follow(&app, &bob, &ada).await;
}

async fn a_mute_hides_a_member_from_the_muters_feeds_and_notifications_until_it_ends(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let bobs = write(&app, &bob, "Bob again").await;
    let adas = write(&app, &ada, "Ada here").await;
    // The page is kept ready now: the mute must still show at once.
    assert!(friends(&app, &ada).await.contains(&id(&bobs)));

    let muted = mute(&app, &ada, &bob, Some(1)).await;
    assert!(muted["expiresAt"].is_string(), "{muted}");
    assert!(!friends(&app, &ada).await.contains(&id(&bobs)));
    assert!(!for_you(&app, &ada).await.contains(&id(&bobs)));
    // Bob can still interact, unaware; Ada hears nothing of it.
    like(&app, &bob, id(&adas)).await;
    assert_eq!(notified_by(&app, &ada).await, (vec![], 0));
    assert_eq!(profile(&app, &bob, "ada").await["isBlockedBy"], false);
    // Elsewhere Bob is shown as before.
    assert!(list_ids(&app, &ada, "/api/users/bob/posts").await.contains(&id(&bobs)));
    let seen = profile(&app, &ada, "bob").await;
    assert_eq!((seen["isMuting"].as_bool(), seen["mutedUntil"].is_string()), (Some(true), true));

    // The mute ends by itself.
    app.clock.advance(Duration::from_secs(3600 + 1));
    assert!(friends(&app, &ada).await.contains(&id(&bobs)));
    assert_eq!(notified_by(&app, &ada).await, (vec!["bob".to_string()], 1));

    // Until unmuted.
    let muted = mute(&app, &ada, &bob, None).await;
    assert!(muted["expiresAt"].is_null(), "{muted}");
    let (_, list) = get(&app, &ada, "/api/mutes").await;
    assert_eq!(list[0]["user"]["username"], "bob", "{list}");
    // Longer than the longest mute (a week), the session kept alive on the way.
    for _ in 0..2 {
        app.clock.advance(Duration::from_secs(4 * 24 * 3600));
        assert!(!friends(&app, &ada).await.contains(&id(&bobs)));
    }
    let (status, _) = delete(&app, &ada, &format!("/api/mutes/{}", bob.id)).await;
    assert_eq!(status, 204);
    assert!(friends(&app, &ada).await.contains(&id(&bobs)));
    let (_, list) = get(&app, &ada, "/api/mutes").await;
    assert_eq!(list, json!([]));
}

async fn a_page_stays_whole_when_posts_are_hidden(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &ada, &cyd).await;
    let mut cyds = Vec::new();
    for i in 0..12 {
        write(&app, &bob, &format!("bob {i}")).await;
        cyds.push(id(&write(&app, &cyd, &format!("cyd {i}")).await));
    }
    mute(&app, &ada, &bob, None).await;
    cyds.reverse();
    assert_eq!(list_ids(&app, &ada, "/api/posts/feed?limit=10").await, cyds[..10]);
    assert_eq!(list_ids(&app, &ada, "/api/posts/feed?limit=10&offset=10").await, cyds[10..]);
}

async fn blocks_and_mutes_are_checked_and_private(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cases = [
        ("/api/blocks", json!({ "userId": ada.id }), 400, "You can't block yourself"),
        ("/api/blocks", json!({ "userId": 999_999 }), 404, "User not found"),
        ("/api/mutes", json!({ "userId": ada.id }), 400, "You can't mute yourself"),
        ("/api/mutes", json!({ "userId": 999_999 }), 404, "User not found"),
        (
            "/api/mutes",
            json!({ "userId": bob.id, "durationHours": 2 }),
            400,
            "A mute lasts 1 hour, 1 day or 1 week, or until you unmute",
        ),
    ];
    for (path, body, status, message) in cases {
        let (got, answer) = post(&app, &ada, path, body.clone()).await;
        assert_eq!((got, answer["message"].as_str()), (status, Some(message)), "{path} {body}");
    }
    let (status, _) = post(&app, &ada, "/api/blocks", json!({ "userId": "bob" })).await;
    assert_eq!(status, 400);
    // Twice is one block; the lists are the member's own.
    block(&app, &ada, &bob).await;
    block(&app, &ada, &bob).await;
    mute(&app, &bob, &ada, Some(24)).await;
    assert_eq!(usernames_of_listed(&app, &ada, "/api/blocks").await, ["bob"]);
    assert_eq!(usernames_of_listed(&app, &bob, "/api/blocks").await, Vec::<String>::new());
    assert_eq!(usernames_of_listed(&app, &ada, "/api/mutes").await, Vec::<String>::new());
    assert_eq!(usernames_of_listed(&app, &bob, "/api/mutes").await, ["ada"]);
    // Ada is not told Bob muted her.
    assert_eq!(profile(&app, &ada, "bob").await["isMuting"], false);
    let (status, _) = get(&app, &ada, "/api/blocks?limit=0").await;
    assert_eq!(status, 400);
}

async fn usernames_of_listed(app: &TestApp, who: &Member, path: &str) -> Vec<String> {
    let (status, body) = get(app, who, path).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().iter().map(|l| l["user"]["username"].as_str().unwrap().to_string()).collect()
}

async fn moderator(app: &TestApp) -> Member {
    let member = app.member("mod").await;
    crate::common::make_moderator(app, &member).await;
    member
}

async fn a_suspended_members_posts_leave_every_list_until_the_suspension_is_lifted(app: TestApp) {
    let moderator = moderator(&app).await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &ada, &cyd).await;
    let mut bobs = Vec::new();
    for i in 0..12 {
        bobs.push(id(&write(&app, &bob, &format!("bob {i}")).await));
        write(&app, &cyd, &format!("cyd {i}")).await;
    }
    let adas = write(&app, &ada, "Ada asks").await;
    let bobs_reply = reply(&app, &bob, id(&adas), "Bob answers").await;
    let cyds_repost = repost(&app, &cyd, bobs[0]).await;
    like(&app, &cyd, bobs[1]).await;
    like(&app, &bob, id(&adas)).await;
    // Ada's first page is kept ready: the suspension must drop it at once.
    assert!(friends(&app, &ada).await.contains(&bobs[11]));
    assert!(list_ids(&app, &ada, "/api/posts/feed?limit=10").await.contains(&bobs[11]));

    let path = format!("/api/moderation/members/{}/suspend", bob.id);
    let (status, body) = post(&app, &moderator, &path, json!({ "reason": "Spam" })).await;
    assert_eq!(status, 200, "{body}");

    let feed = list_ids(&app, &ada, "/api/posts/feed?limit=10").await;
    assert_eq!(feed.len(), 10, "the page is still whole: {feed:?}");
    assert!(bobs.iter().all(|bob| !feed.contains(bob)) && !feed.contains(&id(&cyds_repost)), "{feed:?}");
    let ranked = for_you(&app, &ada).await;
    assert!(bobs.iter().all(|bob| !ranked.contains(bob)), "{ranked:?}");
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&adas))).await;
    assert_eq!(thread["replies"][0]["isUnavailable"], true, "{thread}");
    let (status, body) = get(&app, &ada, "/api/users/bob").await;
    assert_eq!((status, body["message"].as_str()), (404, Some("This account is suspended")));
    let (status, body) = get(&app, &moderator, "/api/users/bob").await;
    assert_eq!((status, body["isSuspended"].as_bool()), (200, Some(true)), "moderators still see it");
    let (status, body) = get(&app, &ada, "/api/users/bob/posts").await;
    assert_eq!((status, body["message"].as_str()), (404, Some("This account is suspended")), "tabs as the profile");
    assert!(!list_ids(&app, &ada, "/api/users/cyd/posts").await.contains(&id(&cyds_repost)));
    assert!(!list_ids(&app, &ada, "/api/users/cyd/likes").await.contains(&bobs[1]));
    assert!(!usernames(&app, &ada, "/api/users/search?q=bob").await.contains(&"bob".to_string()));
    assert!(!usernames(&app, &ada, "/api/users/suggested").await.contains(&"bob".to_string()));
    assert_eq!(notified_by(&app, &ada).await, (vec![], 0));

    let path = format!("/api/moderation/members/{}/unsuspend", bob.id);
    let (status, body) = post(&app, &moderator, &path, json!({ "reason": "Appeal heard" })).await;
    assert_eq!(status, 200, "{body}");
    assert!(list_ids(&app, &ada, "/api/posts/feed?limit=10").await.contains(&bobs[11]));
    assert!(for_you(&app, &ada).await.contains(&bobs[11]));
    assert!(list_ids(&app, &ada, "/api/users/cyd/posts").await.contains(&id(&cyds_repost)));
    assert!(usernames(&app, &ada, "/api/users/search?q=bob").await.contains(&"bob".to_string()));
    assert_eq!(notified_by(&app, &ada).await, (vec!["bob".to_string(), "bob".to_string()], 2), "the like, the reply");
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&adas))).await;
    assert_eq!(thread["replies"][0]["id"].as_i64(), Some(id(&bobs_reply)));
    assert_eq!(thread["replies"][0]["content"], "Bob answers");
}

async fn a_removed_post_leaves_every_kept_page_at_once_and_its_author_still_opens_it(app: TestApp) {
    let moderator = moderator(&app).await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let bobs = write(&app, &bob, "Something cruel").await;
    let parent_of = reply(&app, &ada, id(&bobs), "That is cruel").await;
    assert!(friends(&app, &ada).await.contains(&id(&bobs)));
    // Blocking a moderator does not keep their notice away.
    block(&app, &bob, &moderator).await;

    let path = format!("/api/moderation/posts/{}/remove", id(&bobs));
    let (status, body) = post(&app, &moderator, &path, json!({ "reason": "Cruelty" })).await;
    assert_eq!(status, 200, "{body}");

    assert!(!friends(&app, &ada).await.contains(&id(&bobs)));
    assert!(!for_you(&app, &ada).await.contains(&id(&bobs)));
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&parent_of))).await;
    let above = &thread["ancestors"][0];
    assert_eq!((above["isDeleted"].as_bool(), above["content"].as_str()), (Some(true), Some("")), "{thread}");
    assert_eq!(above["isRemoved"], false, "others are not told more than that it is gone");
    let (status, _) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&bobs))).await;
    assert_eq!(status, 404);
    let (status, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&bobs))).await;
    assert_eq!(status, 200, "{thread}");
    let own = &thread["post"];
    assert_eq!((own["isRemoved"].as_bool(), own["content"].as_str()), (Some(true), Some("Something cruel")));
    let (_, notices) = get(&app, &bob, "/api/notifications").await;
    assert_eq!(
        (notices[0]["type"].as_str(), notices[0]["reason"].as_str()),
        (Some("removed"), Some("Cruelty")),
        "{notices}"
    );
}

/// A thread shows a hidden post as nothing but its place: no time, counts or the viewer's
/// like, even one they gave before the block.
async fn a_blocked_member_sees_nothing_of_the_blockers_post_in_a_thread(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let cyds = write(&app, &cyd, "Cyd asks").await;
    let adas_reply = reply(&app, &ada, id(&cyds), "Ada answers").await;
    like(&app, &bob, id(&adas_reply)).await;
    like(&app, &cyd, id(&adas_reply)).await;
    reply(&app, &cyd, id(&adas_reply), "Cyd answers Ada").await;
    repost(&app, &cyd, id(&adas_reply)).await;

    block(&app, &ada, &bob).await;

    let (_, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&cyds))).await;
    let shown = &thread["replies"][0];
    assert_eq!(shown["id"].as_i64(), Some(id(&adas_reply)), "{thread}");
    assert_eq!(shown["isUnavailable"], true);
    for (field, nothing) in [
        ("createdAt", json!("")),
        ("likeCount", json!(0)),
        ("replyCount", json!(0)),
        ("repostCount", json!(0)),
        ("isLiked", json!(false)),
        ("isReposted", json!(false)),
        ("isBookmarked", json!(false)),
        ("editableUntil", Value::Null),
        ("content", json!("")),
    ] {
        assert_eq!(shown[field], nothing, "{field} in {shown}");
    }
    assert_eq!((shown["author"]["id"].as_i64(), shown["author"]["username"].as_str()), (Some(0), Some("")));
    // Opened itself, it is the same placeholder.
    let (_, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&adas_reply))).await;
    assert_eq!(
        (thread["post"]["isUnavailable"].as_bool(), thread["post"]["likeCount"].as_i64()),
        (Some(true), Some(0))
    );
    assert_eq!(thread["post"]["createdAt"], "", "{thread}");
    // Others see it whole.
    let (_, thread) = get(&app, &cyd, &format!("/api/posts/{}/thread", id(&cyds))).await;
    assert_eq!(
        (thread["replies"][0]["likeCount"].as_i64(), thread["replies"][0]["isLiked"].as_bool()),
        (Some(2), Some(true))
    );
}

/// The profile of a member who blocked the caller says who it is and nothing more, as the web
/// app's "You can't view this profile" promises.
async fn a_blocked_member_cannot_view_the_blockers_profile(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let (status, body) = crate::posts::put(
        &app,
        &ada,
        "/api/users/profile",
        Some(json!({ "displayName": "Ada L.", "bio": "Where I live", "website": "https://ada.example" })),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    follow(&app, &cyd, &ada).await;
    follow(&app, &ada, &cyd).await;

    block(&app, &ada, &bob).await;

    let seen = profile(&app, &bob, "ada").await;
    assert_eq!((seen["isBlockedBy"].as_bool(), seen["username"].as_str()), (Some(true), Some("ada")));
    assert_eq!(seen["displayName"], "Ada L.");
    for (field, nothing) in [
        ("bio", json!("")),
        ("website", json!("")),
        ("headerImageUrl", Value::Null),
        ("followerCount", json!(0)),
        ("followingCount", json!(0)),
        ("invitedBy", Value::Null),
    ] {
        assert_eq!(seen[field], nothing, "{field} in {seen}");
    }
    // The blocker and everyone else see the profile as it is.
    let seen = profile(&app, &cyd, "ada").await;
    assert_eq!((seen["bio"].as_str(), seen["followerCount"].as_i64()), (Some("Where I live"), Some(1)));
    let seen = profile(&app, &ada, "ada").await;
    assert_eq!(seen["website"], "https://ada.example/");
}

both_databases!(
    a_suspended_members_posts_leave_every_list_until_the_suspension_is_lifted,
    a_removed_post_leaves_every_kept_page_at_once_and_its_author_still_opens_it,
    a_block_hides_each_from_the_other_everywhere_until_it_ends,
    a_mute_hides_a_member_from_the_muters_feeds_and_notifications_until_it_ends,
    a_page_stays_whole_when_posts_are_hidden,
    blocks_and_mutes_are_checked_and_private,
    a_blocked_member_sees_nothing_of_the_blockers_post_in_a_thread,
    a_blocked_member_cannot_view_the_blockers_profile,
);
