//! Members: profiles, a member's posts, replies, media and likes, suggestions, search and
//! profile edits.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::fixtures::png;
use crate::media::uploaded;
use crate::posts::{delete, follow, get, id, ids, like, post, put, reply, repost, write};

fn usernames(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap()).collect()
}

async fn search(app: &TestApp, who: &Member, q: &str) -> Vec<String> {
    let url = format!("/api/users/search?q={}", url_encode(q));
    let (status, body) = get(app, who, &url).await;
    assert_eq!(status, 200, "{q}: {body}");
    usernames(&body).into_iter().map(String::from).collect()
}

fn url_encode(s: &str) -> String {
    s.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

async fn a_profile_is_public_but_email_is_only_for_its_owner(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, own) = get(&app, &ada, "/api/users/ada").await;
    assert_eq!(status, 200);
    assert_eq!(own["email"], "ada@example.com");
    assert_eq!(own["invitesAvailable"], 3);
    let (status, public) = get(&app, &bob, "/api/users/ada").await;
    assert_eq!(status, 200);
    assert_eq!(public["id"], ada.id);
    assert_eq!(public["displayName"], "Ada");
    assert!(public.get("email").is_none(), "{public}");
    assert_eq!(public["invitesAvailable"], 0);
    let (status, body) = get(&app, &bob, "/api/users/ADA").await;
    assert_eq!((status, body["username"].as_str()), (200, Some("ada")));
    let (status, body) = get(&app, &bob, "/api/users/nobody").await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "User not found"));
    for path in
        ["/api/users/nobody/posts", "/api/users/nobody/replies", "/api/users/nobody/media", "/api/users/nobody/likes"]
    {
        let (status, body) = get(&app, &bob, path).await;
        assert_eq!((status, body["message"].as_str()), (404, Some("User not found")), "{path}");
    }
}

async fn a_members_posts_list_posts_and_reposts_newest_first_without_replies(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let bobs = write(&app, &bob, "bob's").await;
    let first = write(&app, &ada, "first").await;
    let second = write(&app, &ada, "second").await;
    let answer = reply(&app, &ada, id(&bobs), "a reply").await;
    let shared = repost(&app, &ada, id(&bobs)).await;
    let gone = write(&app, &ada, "gone").await;
    delete(&app, &ada, &format!("/api/posts/{}", id(&gone))).await;

    let (status, list) = get(&app, &bob, "/api/users/ada/posts").await;
    let (_, page) = get(&app, &bob, "/api/users/ada/posts?limit=2&offset=1").await;
    let (_, replies) = get(&app, &bob, "/api/users/ada/replies").await;

    assert_eq!(status, 200);
    assert_eq!(ids(&list), [id(&shared), id(&second), id(&first)]);
    assert_eq!(ids(&page), [id(&second), id(&first)]);
    assert_eq!(ids(&replies), [id(&answer)]);
}

/// Posts of `who` (past the per-minute limit: the clock moves on a minute every 30 posts).
async fn write_many(app: &TestApp, who: &Member, n: usize, reply_to: Option<i64>) -> Vec<i64> {
    let mut written = Vec::with_capacity(n);
    for i in 0..n {
        if i > 0 && i % 30 == 0 {
            app.clock.advance(Duration::from_secs(60));
        }
        let post = match reply_to {
            Some(to) => reply(app, who, to, &format!("reply {i}")).await,
            None => write(app, who, &format!("post {i}")).await,
        };
        written.push(id(&post));
    }
    app.clock.advance(Duration::from_secs(60));
    written
}

async fn the_replies_tab_pages_through_every_reply_of_the_member(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let bobs = write(&app, &bob, "bob's").await;
    let mut replies = write_many(&app, &ada, 25, Some(id(&bobs))).await;
    let posts = write_many(&app, &ada, 5, None).await;
    let gone = reply(&app, &ada, id(&bobs), "gone").await;
    delete(&app, &ada, &format!("/api/posts/{}", id(&gone))).await;
    replies.reverse();

    let (status, first) = get(&app, &bob, "/api/users/ada/replies").await;
    let (_, second) = get(&app, &bob, "/api/users/ada/replies?offset=20").await;
    let (_, tab) = get(&app, &bob, "/api/users/ada/posts").await;

    assert_eq!(status, 200, "{first}");
    assert_eq!(ids(&first), replies[..20]);
    assert_eq!(ids(&second), replies[20..]);
    assert!(first.as_array().unwrap().iter().all(|r| r["replyToId"] == id(&bobs)));
    assert_eq!(ids(&tab), posts.into_iter().rev().collect::<Vec<_>>());
}

/// Writes `body` as a post of `who` with one uploaded image; answers its id.
async fn write_with_image(app: &TestApp, who: &Member, mut body: Value) -> i64 {
    body["imageUrls"] = json!([uploaded(app, who, png(64, 48)).await]);
    let (status, created) = post(app, who, "/api/posts", body).await;
    assert_eq!(status, 201, "{created}");
    id(&created)
}

async fn the_media_tab_lists_the_members_own_posts_with_images(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let pictured = write_with_image(&app, &ada, json!({ "content": "a picture" })).await;
    write(&app, &ada, "words only").await;
    let bobs = write_with_image(&app, &bob, json!({ "content": "bob's picture" })).await;
    let pictured_reply = write_with_image(&app, &ada, json!({ "content": "a picture back", "replyToId": bobs })).await;
    repost(&app, &ada, bobs).await;
    let gone = write_with_image(&app, &ada, json!({ "content": "gone" })).await;
    delete(&app, &ada, &format!("/api/posts/{gone}")).await;

    let (status, media) = get(&app, &bob, "/api/users/ada/media").await;
    let (_, page) = get(&app, &bob, "/api/users/ada/media?limit=1&offset=1").await;

    assert_eq!(status, 200, "{media}");
    assert_eq!(ids(&media), [pictured_reply, pictured]);
    assert!(media.as_array().unwrap().iter().all(|p| p["imageUrls"].as_array().unwrap().len() == 1), "{media}");
    assert_eq!(ids(&page), [pictured]);
}

async fn a_members_likes_list_newest_like_first(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let older = write(&app, &bob, "older post").await;
    let newer = write(&app, &bob, "newer post").await;
    let gone = write(&app, &bob, "gone").await;
    like(&app, &ada, id(&newer)).await;
    app.clock.advance(Duration::from_secs(5));
    like(&app, &ada, id(&older)).await;
    like(&app, &ada, id(&gone)).await;
    delete(&app, &bob, &format!("/api/posts/{}", id(&gone))).await;

    let (status, likes) = get(&app, &bob, "/api/users/ada/likes").await;
    assert_eq!(status, 200);
    assert_eq!(ids(&likes), [id(&older), id(&newer)]);
    // isLiked is the caller's: bob liked none of them.
    assert_eq!(likes[0]["isLiked"], false);
    let (_, mine) = get(&app, &ada, "/api/users/ada/likes?limit=1").await;
    assert_eq!(ids(&mine), [id(&older)]);
    assert_eq!(mine[0]["isLiked"], true);
}

async fn suggestions_put_friends_of_friends_first_then_the_most_followed(app: TestApp) {
    let me = app.member("myself").await;
    let friend = app.member("friend").await;
    let fof = app.member("fof").await;
    let popular = app.member("popular").await;
    let quiet = app.member("quiet").await;
    let fans = [app.member("fan1").await, app.member("fan2").await];
    follow(&app, &me, &friend).await;
    follow(&app, &friend, &fof).await;
    for fan in &fans {
        follow(&app, fan, &popular).await;
    }
    follow(&app, &fans[0], &quiet).await;

    let (status, list) = get(&app, &me, "/api/users/suggested").await;
    assert_eq!(status, 200);
    let names = usernames(&list);
    // Not me, not whom I follow; fof first, then by followers.
    assert_eq!(&names[..3], ["fof", "popular", "quiet"]);
    assert!(!names.contains(&"myself") && !names.contains(&"friend"), "{names:?}");
    assert_eq!(names.len(), 5);
    assert!(list[0].get("email").is_none());

    let (_, two) = get(&app, &me, "/api/users/suggested?limit=2").await;
    assert_eq!(usernames(&two), ["fof", "popular"]);
    for query in ["limit=0", "limit=51"] {
        let (status, _) = get(&app, &me, &format!("/api/users/suggested?{query}")).await;
        assert_eq!(status, 400, "{query}");
    }
}

async fn search_matches_names_case_insensitively_exact_and_prefix_first(app: TestApp) {
    let me = app.member("searcher").await;
    for name in ["annabel", "ann", "joanna", "bob"] {
        app.member(name).await;
    }
    assert_eq!(search(&app, &me, "ANN").await, ["ann", "annabel", "joanna"]);
    assert_eq!(search(&app, &me, "  bo ").await, ["bob"]);
    // Display names match too.
    let (status, _) =
        put(&app, &me, "/api/users/profile", Some(json!({ "displayName": "Zed 100% Real", "bio": "", "website": "" })))
            .await;
    assert_eq!(status, 200);
    assert_eq!(search(&app, &me, "zed").await, ["searcher"]);
    // LIKE wildcards match themselves.
    assert_eq!(search(&app, &me, "100%").await, ["searcher"]);
    assert!(search(&app, &me, "%").await.len() == 1);
    assert!(search(&app, &me, "_").await.is_empty());
    assert!(search(&app, &me, "nobody").await.is_empty());

    for q in ["", "%20%20", &"a".repeat(101)] {
        let (status, body) = get(&app, &me, &format!("/api/users/search?q={q}")).await;
        assert_eq!(status, 400, "{q}: {body}");
    }
    let (status, _) = get(&app, &me, "/api/users/search").await;
    assert_eq!(status, 400);
    let (_, limited) = get(&app, &me, "/api/users/search?q=n&limit=1").await;
    assert_eq!(limited.as_array().unwrap().len(), 1);
}

async fn search_pages_hold_the_best_matches_each_once(app: TestApp) {
    let me = app.member("searcher").await;
    let mut members = std::collections::HashMap::new();
    // kimmy is also an exact match by display name: found once, in the best group. She takes
    // the name before @kim joins (after, it would look like @kim's and be refused).
    let kimmy = app.member("kimmy").await;
    let (status, _) =
        put(&app, &kimmy, "/api/users/profile", Some(json!({ "displayName": "KIM", "bio": "", "website": "" }))).await;
    assert_eq!(status, 200);
    members.insert("kimmy", kimmy);
    for name in ["kim", "kimberly", "akim", "bokim"] {
        members.insert(name, app.member(name).await);
    }
    // Followers: akim 3, kimberly 2, kimmy 1, kim and bokim none.
    for (n, (name, followers)) in [("akim", 3), ("kimberly", 2), ("kimmy", 1)].into_iter().enumerate() {
        for i in 0..followers {
            let fan = app.member(&format!("fan{n}{i}")).await;
            crate::posts::follow(&app, &fan, &members[name]).await;
        }
    }
    let page = |limit: i64| {
        let me = &me;
        let app = &app;
        async move {
            let (status, body) = get(app, me, &format!("/api/users/search?q=kim&limit={limit}")).await;
            assert_eq!(status, 200, "{body}");
            usernames(&body).into_iter().map(String::from).collect::<Vec<_>>()
        }
    };
    assert_eq!(page(10).await, ["kimmy", "kim", "kimberly", "akim", "bokim"]);
    assert_eq!(page(2).await, ["kimmy", "kim"]);
    assert_eq!(page(3).await, ["kimmy", "kim", "kimberly"]);
    assert_eq!(page(4).await, ["kimmy", "kim", "kimberly", "akim"]);
}

async fn a_member_edits_their_profile(app: TestApp) {
    let ada = app.member("ada").await;
    let edit = json!({ "displayName": "  Ada Lovelace ", "bio": "Analyst", "website": " HTTPS://Ada.Dev " });
    let (status, me) = put(&app, &ada, "/api/users/profile", Some(edit)).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(
        (me["displayName"].as_str(), me["bio"].as_str(), me["website"].as_str()),
        (
            Some("Ada Lovelace"),
            Some("Analyst"),
            // Stored as the URL that was checked, normalized.
            Some("https://ada.dev/")
        )
    );
    assert_eq!(me["email"], "ada@example.com");
    let (_, seen) = get(&app, &ada, "/api/users/ada").await;
    assert_eq!(seen["displayName"], "Ada Lovelace");
    assert_eq!(seen["website"], "https://ada.dev/");
    // Clearing the website is fine.
    let (status, me) =
        put(&app, &ada, "/api/users/profile", Some(json!({ "displayName": "Ada", "bio": "", "website": "" }))).await;
    assert_eq!((status, me["website"].as_str()), (200, Some("")));
}

async fn bad_profile_edits_are_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let cases = [
        (json!({ "displayName": "  ", "bio": "", "website": "" }), "Display name cannot be empty"),
        (
            json!({ "displayName": "a".repeat(51), "bio": "", "website": "" }),
            "Display name can be at most 50 characters long",
        ),
        (
            json!({ "displayName": "Ada", "bio": "b".repeat(161), "website": "" }),
            "Bio can be at most 160 characters long",
        ),
        (
            json!({ "displayName": "Ada", "bio": "", "website": "javascript:alert(1)" }),
            "Website must be a web address starting with http:// or https://",
        ),
        (
            json!({ "displayName": "Ada", "bio": "", "website": "ftp://files.example" }),
            "Website must be a web address starting with http:// or https://",
        ),
        (
            json!({ "displayName": "Ada", "bio": "", "website": "https:alert(1)" }),
            "Website must be a web address starting with http:// or https://",
        ),
        (
            json!({ "displayName": "Ada", "bio": "", "website": "https://user:pw@x.example" }),
            "Website cannot contain a user name or password",
        ),
        (
            json!({ "displayName": "Ada", "bio": "", "website": "https://bank.example@evil.example" }),
            "Website cannot contain a user name or password",
        ),
        (
            json!({ "displayName": "Ada", "bio": "", "website": format!("https://example.com/{}", "a".repeat(190)) }),
            "Website can be at most 200 characters long",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = put(&app, &ada, "/api/users/profile", Some(body.clone())).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(answer["message"], message, "{body}");
    }
    let (status, _) = put(&app, &ada, "/api/users/profile", Some(json!({ "bio": "no name" }))).await;
    assert_eq!(status, 400);
    let (_, me) = get(&app, &ada, "/api/users/ada").await;
    assert_eq!(me["displayName"], "Ada");
}

async fn suggested_and_search_are_never_read_as_usernames(app: TestApp) {
    let ada = app.member("ada").await;
    // Even if members with these names existed (sign-up refuses them), the calls win.
    app.member("suggested").await;
    app.member("search").await;
    let (status, list) = get(&app, &ada, "/api/users/suggested").await;
    assert_eq!(status, 200);
    assert!(list.is_array(), "{list}");
    let (status, body) = get(&app, &ada, "/api/users/search").await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Enter something to search for")));
}

both_databases!(
    suggested_and_search_are_never_read_as_usernames,
    a_profile_is_public_but_email_is_only_for_its_owner,
    a_members_posts_list_posts_and_reposts_newest_first_without_replies,
    the_replies_tab_pages_through_every_reply_of_the_member,
    the_media_tab_lists_the_members_own_posts_with_images,
    a_members_likes_list_newest_like_first,
    suggestions_put_friends_of_friends_first_then_the_most_followed,
    search_matches_names_case_insensitively_exact_and_prefix_first,
    search_pages_hold_the_best_matches_each_once,
    a_member_edits_their_profile,
    bad_profile_edits_are_refused,
);
