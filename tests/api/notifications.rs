//! Notifications: made by follows, likes, reposts, replies and mentions; once each; gone when
//! undone while unread; read and marked only by their recipient. Also: every social endpoint
//! is in the OpenAPI document.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, follow, get, id, like, post, put, reply, repost, write};

async fn list(app: &TestApp, who: &Member) -> Vec<Value> {
    let (status, body) = get(app, who, "/api/notifications").await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().clone()
}

fn kinds(list: &[Value]) -> Vec<&str> {
    list.iter().map(|n| n["type"].as_str().unwrap()).collect()
}

async fn unread(app: &TestApp, who: &Member) -> i64 {
    let (status, body) = get(app, who, "/api/notifications/unread-count").await;
    assert_eq!(status, 200, "{body}");
    body["count"].as_i64().unwrap()
}

async fn each_kind_of_notification_is_made_newest_first(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let p = write(&app, &ada, "hello").await;
    follow(&app, &bob, &ada).await;
    like(&app, &bob, id(&p)).await;
    repost(&app, &bob, id(&p)).await;
    let r = reply(&app, &bob, id(&p), "hi @ada and @carol and @nobody_here").await;

    let got = list(&app, &ada).await;
    // A reply that mentions its parent's author notifies them once, as a reply.
    assert_eq!(kinds(&got), ["reply", "repost", "like", "follow"]);
    let follow_n = &got[3];
    assert_eq!(
        follow_n["actor"],
        json!({ "id": bob.id, "username": "bob", "displayName": "Bob", "profileImageUrl": null })
    );
    assert_eq!(follow_n["isRead"], false);
    assert!(follow_n.get("post").is_none(), "{follow_n}");
    assert!(chrono::DateTime::parse_from_rfc3339(follow_n["createdAt"].as_str().unwrap()).is_ok());
    assert_eq!(got[2]["post"], json!({ "id": id(&p), "content": "hello" }));
    assert_eq!(got[0]["post"], json!({ "id": id(&r), "content": "hi @ada and @carol and @nobody_here" }));
    assert_eq!(unread(&app, &ada).await, 4);

    let carols = list(&app, &carol).await;
    assert_eq!(kinds(&carols), ["mention"]);
    assert_eq!(carols[0]["post"]["id"], id(&r));
    assert!(list(&app, &bob).await.is_empty());
}

async fn nobody_is_notified_of_their_own_actions(app: TestApp) {
    let ada = app.member("ada").await;
    let p = write(&app, &ada, "talking to myself, @ada").await;
    like(&app, &ada, id(&p)).await;
    repost(&app, &ada, id(&p)).await;
    reply(&app, &ada, id(&p), "me again").await;
    assert!(list(&app, &ada).await.is_empty());
}

async fn a_notification_is_made_once_and_withdrawn_while_unread(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let p = write(&app, &ada, "hello").await;
    let like_path = format!("/api/posts/{}/like", id(&p));

    // like, unlike, like: one notification.
    like(&app, &bob, id(&p)).await;
    delete(&app, &bob, &like_path).await;
    assert!(list(&app, &ada).await.is_empty(), "unliking withdraws the unread notification");
    like(&app, &bob, id(&p)).await;
    assert_eq!(kinds(&list(&app, &ada).await), ["like"]);

    // Once read, it stays through unlike and like again, still one.
    let (status, _) = put(&app, &ada, "/api/notifications/read-all", None).await;
    assert_eq!(status, 204);
    delete(&app, &bob, &like_path).await;
    like(&app, &bob, id(&p)).await;
    let got = list(&app, &ada).await;
    assert_eq!(kinds(&got), ["like"]);
    assert_eq!(got[0]["isRead"], true);

    // Unfollow and unrepost withdraw theirs.
    follow(&app, &bob, &ada).await;
    repost(&app, &bob, id(&p)).await;
    assert_eq!(kinds(&list(&app, &ada).await), ["repost", "follow", "like"]);
    delete(&app, &bob, &format!("/api/follows/{}", ada.id)).await;
    delete(&app, &bob, &format!("/api/posts/{}/repost", id(&p))).await;
    assert_eq!(kinds(&list(&app, &ada).await), ["like"]);
}

async fn deleting_a_post_removes_the_notifications_about_it(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let p = write(&app, &ada, "soon gone").await;
    like(&app, &bob, id(&p)).await;
    let r = reply(&app, &bob, id(&p), "a reply mentioning @ada").await;
    let mention = write(&app, &bob, "hey @ada").await;
    assert_eq!(kinds(&list(&app, &ada).await), ["mention", "reply", "like"]);
    put(&app, &ada, "/api/notifications/read-all", None).await;

    delete(&app, &ada, &format!("/api/posts/{}", id(&p))).await;
    assert_eq!(kinds(&list(&app, &ada).await), ["mention", "reply"], "read or not, the like of a deleted post goes");
    delete(&app, &bob, &format!("/api/posts/{}", id(&r))).await;
    delete(&app, &bob, &format!("/api/posts/{}", id(&mention))).await;
    assert!(list(&app, &ada).await.is_empty());
}

async fn only_the_recipient_reads_and_marks_a_notification(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let eve = app.member("eve").await;
    follow(&app, &bob, &ada).await;
    follow(&app, &ada, &bob).await;
    let adas = list(&app, &ada).await;
    let n = id(&adas[0]);

    let (status, body) = put(&app, &eve, &format!("/api/notifications/{n}/read"), None).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "Notification not found"));
    let (status, _) = put(&app, &ada, "/api/notifications/999999/read", None).await;
    assert_eq!(status, 404);
    assert!(list(&app, &eve).await.is_empty());
    assert_eq!(unread(&app, &ada).await, 1);

    let (status, _) = put(&app, &ada, &format!("/api/notifications/{n}/read"), None).await;
    assert_eq!(status, 204);
    let (status, _) = put(&app, &ada, &format!("/api/notifications/{n}/read"), None).await;
    assert_eq!(status, 204, "marking read twice is fine");
    assert_eq!(list(&app, &ada).await[0]["isRead"], true);
    assert_eq!(unread(&app, &ada).await, 0);
    // read-all only touches the caller's.
    put(&app, &eve, "/api/notifications/read-all", None).await;
    assert_eq!(unread(&app, &bob).await, 1);
    put(&app, &bob, "/api/notifications/read-all", None).await;
    assert_eq!(unread(&app, &bob).await, 0);
}

async fn the_list_is_bounded(app: TestApp) {
    let ada = app.member("ada").await;
    for query in ["limit=0", "limit=101", "offset=-1"] {
        let (status, _) = get(&app, &ada, &format!("/api/notifications?{query}")).await;
        assert_eq!(status, 400, "{query}");
    }
    let p = write(&app, &ada, "popular").await;
    for i in 0..3 {
        let fan = app.member(&format!("fan{i}")).await;
        like(&app, &fan, id(&p)).await;
    }
    let (status, two) = get(&app, &ada, "/api/notifications?limit=2").await;
    assert_eq!(status, 200);
    assert_eq!(two.as_array().unwrap().len(), 2);
    let (_, all) = get(&app, &ada, "/api/notifications?limit=100").await;
    assert_eq!(all.as_array().unwrap().len(), 3);
}

async fn grouped(app: &TestApp, who: &Member, query: &str) -> Vec<Value> {
    let (status, body) = get(app, who, &format!("/api/notifications?grouped=true{query}")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().clone()
}

/// Each item as `(groupKey, count, [actor usernames], isRead)`.
fn summary(list: &[Value]) -> Vec<(String, i64, Vec<String>, bool)> {
    list.iter()
        .map(|n| {
            let actors = n["actors"].as_array().unwrap().iter().map(|a| a["username"].as_str().unwrap().to_string());
            (
                n["groupKey"].as_str().unwrap().to_string(),
                n["count"].as_i64().unwrap(),
                actors.collect(),
                n["isRead"] == true,
            )
        })
        .collect()
}

fn item(key: &str, count: i64, actors: &[&str], read: bool) -> (String, i64, Vec<String>, bool) {
    (key.to_string(), count, actors.iter().map(|a| a.to_string()).collect(), read)
}

async fn likes_and_reposts_of_one_post_are_one_group(app: TestApp) {
    let ada = app.member("ada").await;
    let [bob, cyd, dan, eve, fay] = [
        app.member("bob").await,
        app.member("cyd").await,
        app.member("dan").await,
        app.member("eve").await,
        app.member("fay").await,
    ];
    let p = write(&app, &ada, "popular").await;
    let q = write(&app, &ada, "quiet").await;
    let (p_, q_) = (id(&p), id(&q));
    like(&app, &bob, p_).await;
    like(&app, &cyd, p_).await;
    follow(&app, &dan, &ada).await;
    like(&app, &dan, p_).await;
    like(&app, &eve, q_).await;
    repost(&app, &bob, p_).await;

    let dans_follow = format!("n-{}", id(&list(&app, &ada).await[3]));
    let like_p = format!("like-{p_}");
    assert_eq!(
        summary(&grouped(&app, &ada, "").await),
        [
            item(&format!("repost-{p_}"), 1, &["bob"], false),
            item(&format!("like-{q_}"), 1, &["eve"], false),
            item(&like_p, 3, &["dan", "cyd", "bob"], false),
            item(&dans_follow, 1, &["dan"], false),
        ]
    );
    assert_eq!(unread(&app, &ada).await, 4, "a group is counted once");
    // The flat list still has every notification, each standing for itself.
    let flat = list(&app, &ada).await;
    assert_eq!(flat.len(), 6);
    assert_eq!(summary(&flat[2..3]), [item(&like_p, 1, &["dan"], false)]);

    // Opening the group reads all of it.
    let head = grouped(&app, &ada, "").await[2]["id"].as_i64().unwrap();
    let (status, _) = put(&app, &ada, &format!("/api/notifications/{head}/read"), None).await;
    assert_eq!(status, 204);
    assert_eq!(unread(&app, &ada).await, 3);
    assert_eq!(grouped(&app, &ada, "").await[2]["isRead"], true);

    // A new like brings the group to the top, unread, with the newest actor first.
    like(&app, &fay, p_).await;
    let now = grouped(&app, &ada, "").await;
    assert_eq!(summary(&now[..1]), [item(&like_p, 4, &["fay", "dan", "cyd"], false)]);
    assert_eq!(now.len(), 4);
    assert_eq!(unread(&app, &ada).await, 4);

    // Hidden members leave the group: a muted newest actor gives the place back to the one
    // before, a blocked one is neither counted nor shown.
    let (status, body) = post(&app, &ada, "/api/mutes", json!({ "userId": fay.id })).await;
    assert!(status < 300, "{body}");
    let (status, body) = post(&app, &ada, "/api/blocks", json!({ "userId": cyd.id })).await;
    assert!(status < 300, "{body}");
    assert_eq!(
        summary(&grouped(&app, &ada, "").await),
        [
            item(&format!("repost-{p_}"), 1, &["bob"], false),
            item(&format!("like-{q_}"), 1, &["eve"], false),
            item(&like_p, 2, &["dan", "bob"], true),
            item(&dans_follow, 1, &["dan"], false),
        ]
    );
    assert_eq!(unread(&app, &ada).await, 3, "the muted member's unread like is not counted");

    // Items are paged as items.
    let (status, page) = get(&app, &ada, "/api/notifications?grouped=true&limit=2&offset=2").await;
    assert_eq!(status, 200);
    assert_eq!(summary(page.as_array().unwrap())[0].0, like_p);
}

async fn the_list_is_narrowed_to_the_kinds_asked_for(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let p = write(&app, &ada, "hello").await;
    follow(&app, &bob, &ada).await;
    like(&app, &bob, id(&p)).await;
    reply(&app, &bob, id(&p), "hi").await;
    write(&app, &bob, "@ada look").await;

    let (status, body) = get(&app, &ada, "/api/notifications?types=mention,reply").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(kinds(body.as_array().unwrap()), ["mention", "reply"]);
    assert_eq!(kinds(&grouped(&app, &ada, "&types=follow").await), ["follow"]);
    assert_eq!(kinds(&grouped(&app, &ada, "&types=like,").await), ["like"]);

    let (status, body) = get(&app, &ada, "/api/notifications?types=mention,favourite").await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("unknown kind \"favourite\""), "{body}");
    let (status, body) = get(&app, &ada, "/api/notifications?grouped=yes").await;
    assert_eq!(status, 400, "{body}");
}

async fn every_social_endpoint_is_in_the_openapi_document(app: TestApp) {
    let visitor = &app.client;
    let (status, doc) = crate::common::json(visitor.get(app.url("/api/openapi.json")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let endpoints = [
        ("post", "/api/posts"),
        ("delete", "/api/posts/{id}"),
        ("post", "/api/posts/{id}/like"),
        ("delete", "/api/posts/{id}/like"),
        ("delete", "/api/posts/{id}/repost"),
        ("post", "/api/posts/{id}/vote"),
        ("get", "/api/posts/{id}/thread"),
        ("get", "/api/posts/{id}/replies"),
        ("get", "/api/posts/feed"),
        ("get", "/api/posts/for-you"),
        ("get", "/api/users/{username}"),
        ("get", "/api/users/{username}/posts"),
        ("get", "/api/users/{username}/replies"),
        ("get", "/api/users/{username}/media"),
        ("get", "/api/users/{username}/likes"),
        ("get", "/api/users/suggested"),
        ("get", "/api/users/search"),
        ("put", "/api/users/profile"),
        ("get", "/api/follows/{userId}/status"),
        ("post", "/api/follows"),
        ("delete", "/api/follows/{userId}"),
        ("get", "/api/notifications"),
        ("put", "/api/notifications/{id}/read"),
        ("put", "/api/notifications/read-all"),
        ("get", "/api/notifications/unread-count"),
    ];
    for (method, path) in endpoints {
        assert!(doc["paths"][path][method].is_object(), "{method} {path} is not in the OpenAPI document");
    }
    assert!(doc["components"]["schemas"]["Post"].is_object());
}

/// What the member's Notifications screen showed is seen: read up to the newest shown, and the
/// notifications marker their apps read is there; an app setting that marker does the same.
async fn seeing_notifications_reads_them_and_sets_the_marker_apps_read(app: TestApp) {
    use crate::mastodon::{AppClient, token_for};
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let p = write(&app, &ada, "hello").await;
    follow(&app, &bob, &ada).await;
    reply(&app, &bob, id(&p), "hi").await;
    let shown = list(&app, &ada).await;
    assert_eq!(unread(&app, &ada).await, 2);
    // One arrives after the screen was drawn: not seen.
    follow(&app, &carol, &ada).await;

    let newest_shown = shown[0]["id"].as_i64().unwrap();
    let (status, body) = put(&app, &ada, "/api/notifications/seen", Some(json!({ "lastSeenId": newest_shown }))).await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(unread(&app, &ada).await, 1, "the one that came later is still unread");
    let read: Vec<(String, bool)> = list(&app, &ada)
        .await
        .iter()
        .map(|n| (n["actor"]["username"].as_str().unwrap().to_string(), n["isRead"].as_bool().unwrap()))
        .collect();
    assert_eq!(read, [("carol".into(), false), ("bob".into(), true), ("bob".into(), true)]);

    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let (_, markers) = ada_app.get("/api/v1/markers?timeline[]=notifications").await;
    assert_eq!(markers["notifications"]["last_read_id"], newest_shown.to_string(), "{markers}");

    // An app moving the marker to the newest reads the rest, as the screen would.
    let newest = list(&app, &ada).await[0]["id"].as_i64().unwrap();
    let (status, set) =
        ada_app.post("/api/v1/markers", json!({ "notifications": { "last_read_id": newest.to_string() } })).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(unread(&app, &ada).await, 0);

    for bad in [json!({ "lastSeenId": 0 }), json!({ "lastSeenId": -3 }), json!({}), json!({ "lastSeenId": "x" })] {
        let (status, body) = put(&app, &ada, "/api/notifications/seen", Some(bad.clone())).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

both_databases!(
    each_kind_of_notification_is_made_newest_first,
    nobody_is_notified_of_their_own_actions,
    a_notification_is_made_once_and_withdrawn_while_unread,
    deleting_a_post_removes_the_notifications_about_it,
    only_the_recipient_reads_and_marks_a_notification,
    the_list_is_bounded,
    likes_and_reposts_of_one_post_are_one_group,
    the_list_is_narrowed_to_the_kinds_asked_for,
    every_social_endpoint_is_in_the_openapi_document,
    seeing_notifications_reads_them_and_sets_the_marker_apps_read,
);

// The API suite's core, once more through PgBouncer in transaction mode (`poolers`).
crate::through_pgbouncer!(
    each_kind_of_notification_is_made_newest_first,
    only_the_recipient_reads_and_marks_a_notification,
);
