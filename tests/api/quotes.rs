//! Quote posts: a post may quote another (`quoteOfId`), which its card carries as the quoter's
//! reader may see it (`quoteOf`); the quoted author is told, may detach their post from a quote
//! (`quoteDetached`) and may turn quoting of a post off (`quotesAllowed`). Blocks forbid quoting
//! either way; what hides a post hides it inside a quote too.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, make_moderator};
use crate::posts::{delete, get, id, post, post_empty, put, repost, seen_by, write};

async fn quote(app: &TestApp, who: &Member, of: i64, content: &str) -> Value {
    let (status, body) = post(app, who, "/api/posts", json!({ "content": content, "quoteOfId": of })).await;
    assert_eq!(status, 201, "{body}");
    body
}

async fn quote_notifications(app: &TestApp, who: &Member) -> Vec<(String, String, i64)> {
    let (status, list) = get(app, who, "/api/notifications?types=quote").await;
    assert_eq!(status, 200, "{list}");
    list.as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["type"].as_str().unwrap().to_string(),
                n["actor"]["username"].as_str().unwrap().to_string(),
                n["post"]["id"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn block(app: &TestApp, who: &Member, whom: &Member) {
    let (status, body) = post(app, who, "/api/blocks", json!({ "userId": whom.id })).await;
    assert!((200..300).contains(&status), "{status} {body}");
}

async fn a_quote_carries_the_quoted_post_and_tells_its_author_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let original = write(&app, &ada, "Tea is a soup").await;

    let quoted = quote(&app, &bob, id(&original), "Hot take").await;

    assert_eq!(quoted["quoteOfId"], original["id"], "{quoted}");
    assert_eq!(quoted["quoteOf"]["content"], "Tea is a soup", "{quoted}");
    assert_eq!(quoted["quoteOf"]["author"]["username"], "ada");
    assert_eq!(quoted["quoteDetached"], false);
    // Every reader sees it, in lists too.
    let seen = seen_by(&app, &ada, id(&quoted)).await;
    assert_eq!(seen["quoteOf"]["id"], original["id"], "{seen}");
    let (_, bobs) = get(&app, &ada, "/api/users/bob/posts").await;
    assert_eq!(bobs[0]["quoteOf"]["content"], "Tea is a soup", "{bobs}");
    // A repost of the quote carries it in its original.
    let shared = repost(&app, &ada, id(&quoted)).await;
    assert_eq!(shared["repostOf"]["quoteOf"]["id"], original["id"], "{shared}");
    assert_eq!(quote_notifications(&app, &ada).await, [("quote".to_string(), "bob".to_string(), id(&quoted))]);
    // A self-quote tells nobody; the quoted post's own quote is not expanded a second level.
    let again = quote(&app, &bob, id(&quoted), "Quoting myself").await;
    assert_eq!(again["quoteOf"]["quoteOfId"], original["id"]);
    assert_eq!(again["quoteOf"]["quoteOf"], Value::Null, "{again}");
    assert!(quote_notifications(&app, &bob).await.is_empty());
    // The post a quote is of counts for nothing else: no reply, no repost.
    let seen = seen_by(&app, &ada, id(&original)).await;
    assert_eq!((seen["replyCount"].as_i64(), seen["repostCount"].as_i64()), (Some(0), Some(0)), "{seen}");
}

async fn quoting_a_repost_quotes_its_original_and_a_quote_may_be_a_reply(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let original = write(&app, &ada, "Original words").await;
    let shared = repost(&app, &bob, id(&original)).await;

    let quoted = quote(&app, &cyd, id(&shared), "Through a repost").await;
    let (status, replying) = post(
        &app,
        &cyd,
        "/api/posts",
        json!({ "content": "Reply and quote", "replyToId": id(&original), "quoteOfId": id(&original) }),
    )
    .await;

    assert_eq!(quoted["quoteOfId"], original["id"], "{quoted}");
    assert_eq!(status, 201, "{replying}");
    assert_eq!((&replying["replyToId"], &replying["quoteOfId"]), (&original["id"], &original["id"]));
    // A repost cannot quote.
    let (status, body) =
        post(&app, &cyd, "/api/posts", json!({ "repostOfId": id(&original), "quoteOfId": id(&original) })).await;
    assert_eq!((status, &body["message"]), (400, &json!("A repost cannot quote a post")));
}

async fn bad_or_missing_quoted_posts_are_refused_clearly(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let gone = write(&app, &ada, "Soon gone").await;
    delete(&app, &ada, &format!("/api/posts/{}", id(&gone))).await;

    let (missing, missing_body) = post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": 999_999 })).await;
    let (deleted, _) = post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": id(&gone) })).await;
    let (text, text_body) = post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": "one" })).await;
    let (zero, _) = post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": 0 })).await;
    let (empty, _) =
        post(&app, &bob, "/api/posts", json!({ "content": " ", "quoteOfId": id(&write(&app, &ada, "Hi").await) }))
            .await;

    assert_eq!((missing, &missing_body["message"]), (404, &json!("Post not found")));
    assert_eq!(deleted, 404);
    assert_eq!(text, 400, "{text_body}");
    assert!(text_body["message"].as_str().unwrap().contains("quoteOfId"), "{text_body}");
    assert_eq!(zero, 404);
    assert_eq!(empty, 400);
}

async fn blocks_forbid_quoting_either_way(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let adas = write(&app, &ada, "Ada's").await;
    let cyds = write(&app, &cyd, "Cyd's").await;
    block(&app, &ada, &bob).await;
    block(&app, &bob, &cyd).await;

    let (blocked, body) = post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": id(&adas) })).await;
    let (blocking, _) = post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": id(&cyds) })).await;

    assert_eq!((blocked, &body["message"]), (403, &json!("You can't interact with this member")));
    assert_eq!(blocking, 403);
}

async fn a_quoted_post_that_becomes_hidden_shows_as_unavailable(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let eve = app.member("eve").await;
    let moderator = app.member("mod").await;
    make_moderator(&app, &moderator).await;
    let blocks_later = write(&app, &ada, "Ada's").await;
    let deleted = write(&app, &ada, "Deleted later").await;
    let removed = write(&app, &cyd, "Removed later").await;
    let suspended = write(&app, &eve, "Eve's").await;
    let q_block = quote(&app, &bob, id(&blocks_later), "q1").await;
    let q_deleted = quote(&app, &bob, id(&deleted), "q2").await;
    let q_removed = quote(&app, &bob, id(&removed), "q3").await;
    let q_suspended = quote(&app, &bob, id(&suspended), "q4").await;

    block(&app, &ada, &bob).await;
    delete(&app, &ada, &format!("/api/posts/{}", id(&deleted))).await;
    let (status, body) =
        post(&app, &moderator, &format!("/api/moderation/posts/{}/remove", id(&removed)), json!({ "reason": "Spam" }))
            .await;
    assert!((200..300).contains(&status), "{status} {body}");
    let (status, body) = post(
        &app,
        &moderator,
        &format!("/api/moderation/members/{}/suspend", eve.id),
        json!({ "reason": "Spam wave" }),
    )
    .await;
    assert!((200..300).contains(&status), "{status} {body}");

    let of = |quote: &Value| quote["quoteOf"].clone();
    let blocked = of(&seen_by(&app, &bob, id(&q_block)).await);
    assert_eq!((&blocked["isUnavailable"], &blocked["content"]), (&json!(true), &json!("")), "{blocked}");
    let gone = of(&seen_by(&app, &bob, id(&q_deleted)).await);
    assert_eq!((&gone["isDeleted"], &gone["content"]), (&json!(true), &json!("")), "{gone}");
    let taken = of(&seen_by(&app, &bob, id(&q_removed)).await);
    assert_eq!((&taken["isDeleted"], &taken["content"]), (&json!(true), &json!("")), "{taken}");
    let away = of(&seen_by(&app, &bob, id(&q_suspended)).await);
    assert_eq!((&away["isUnavailable"], &away["author"]["username"]), (&json!(true), &json!("")), "{away}");
    // Another reader, whom Ada did not block, still sees Ada's post inside the quote.
    let (_, list) = get(&app, &cyd, "/api/users/bob/posts").await;
    let shown: Vec<&Value> = list.as_array().unwrap().iter().filter(|p| p["id"] == q_block["id"]).collect();
    assert_eq!(shown[0]["quoteOf"]["content"], "Ada's", "{list}");
    // A suspended author's post cannot be quoted anew: it is hidden.
    let (status, _) = post(&app, &cyd, "/api/posts", json!({ "content": "x", "quoteOfId": id(&suspended) })).await;
    assert_eq!(status, 404);
}

async fn only_the_author_turns_quoting_off_and_on(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let original = write(&app, &ada, "Mine").await;
    let path = format!("/api/posts/{}/quoting", id(&original));
    let before = quote(&app, &bob, id(&original), "Quoted while allowed").await;

    let (other, other_body) = put(&app, &bob, &path, Some(json!({ "allowed": false }))).await;
    let (off, off_body) = put(&app, &ada, &path, Some(json!({ "allowed": false }))).await;
    let (refused, refused_body) =
        post(&app, &bob, "/api/posts", json!({ "content": "x", "quoteOfId": id(&original) })).await;
    let own = quote(&app, &ada, id(&original), "I may quote myself").await;
    let (bad, _) = put(&app, &ada, &path, Some(json!({ "allowed": "no" }))).await;
    let (missing, _) = put(&app, &ada, "/api/posts/999999/quoting", Some(json!({ "allowed": true }))).await;
    let (on, _) = put(&app, &ada, &path, Some(json!({ "allowed": true }))).await;
    let after = quote(&app, &bob, id(&original), "Allowed again").await;

    assert_eq!((other, &other_body["message"]), (403, &json!("You can only change quoting of your own posts")));
    assert_eq!((off, &off_body["quotesAllowed"]), (200, &json!(false)), "{off_body}");
    assert_eq!((refused, &refused_body["message"]), (403, &json!("The author turned off quoting of this post")));
    assert_eq!(own["quoteOfId"], original["id"]);
    assert_eq!((bad, missing, on), (400, 404, 200));
    assert_eq!(after["quoteOfId"], original["id"]);
    // The quote made before stays whole.
    assert_eq!(seen_by(&app, &bob, id(&before)).await["quoteOf"]["content"], "Mine");
    assert_eq!(seen_by(&app, &bob, id(&original)).await["quotesAllowed"], true);
}

async fn the_quoted_author_detaches_their_post_from_a_quote(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let original = write(&app, &ada, "Mine").await;
    let other = write(&app, &ada, "Not quoted").await;
    let quoted = quote(&app, &bob, id(&original), "Quoting Ada").await;
    let detach = format!("/api/posts/{}/quotes/{}/detach", id(&original), id(&quoted));

    let (by_other, _) = post_empty(&app, &cyd, &detach).await;
    let (by_quoter, _) = post_empty(&app, &bob, &detach).await;
    let (not_quoting, not_body) =
        post_empty(&app, &ada, &format!("/api/posts/{}/quotes/{}/detach", id(&other), id(&quoted))).await;
    let (bad, _) = post_empty(&app, &ada, &format!("/api/posts/{}/quotes/x/detach", id(&original))).await;
    let (first, _) = post_empty(&app, &ada, &detach).await;
    let (again, _) = post_empty(&app, &ada, &detach).await;

    assert_eq!((by_other, by_quoter), (404, 404));
    assert_eq!((not_quoting, &not_body["message"]), (404, &json!("That post does not quote this one")));
    assert_eq!(bad, 400);
    assert_eq!((first, again), (204, 204));
    for reader in [&ada, &bob, &cyd] {
        let seen = seen_by(&app, reader, id(&quoted)).await;
        assert_eq!(
            (&seen["quoteDetached"], &seen["quoteOf"], &seen["quoteOfId"]),
            (&json!(true), &Value::Null, &Value::Null),
            "{seen}"
        );
    }
    // The quote's author is not told.
    let (_, bobs) = get(&app, &bob, "/api/notifications").await;
    assert_eq!(bobs.as_array().unwrap().len(), 0, "{bobs}");
}

async fn the_quote_notification_reads_in_every_list(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let original = write(&app, &ada, "Quote me").await;
    let first = quote(&app, &bob, id(&original), "One").await;
    let second = quote(&app, &cyd, id(&original), "Two").await;
    crate::posts::like(&app, &bob, id(&original)).await;

    let (_, count) = get(&app, &ada, "/api/notifications/unread-count").await;
    let (_, grouped) = get(&app, &ada, "/api/notifications?grouped=true").await;
    let (_, filtered) = get(&app, &ada, "/api/notifications?types=quote,like").await;

    assert_eq!(count["count"], 3, "{count}");
    let kinds: Vec<(&str, i64)> = grouped
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["type"].as_str().unwrap(), n["count"].as_i64().unwrap()))
        .collect();
    assert_eq!(kinds, [("like", 1), ("quote", 1), ("quote", 1)], "quotes are not grouped: {grouped}");
    assert_eq!(filtered.as_array().unwrap().len(), 3);
    assert_eq!(
        quote_notifications(&app, &ada).await,
        [("quote".to_string(), "cyd".to_string(), id(&second)), ("quote".to_string(), "bob".to_string(), id(&first))]
    );
    // Deleting a quote takes its notification away.
    delete(&app, &bob, &format!("/api/posts/{}", id(&first))).await;
    assert_eq!(quote_notifications(&app, &ada).await, [("quote".to_string(), "cyd".to_string(), id(&second))]);
}

async fn mastodon_apps_quote_and_read_quotes(app: TestApp) {
    use crate::mastodon::{AppClient, token_for};
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let original = write(&app, &ada, "Tea is a soup").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write").await);

    let (status, created) = bob_app
        .post("/api/v1/statuses", json!({"status": "Hot take", "quoted_status_id": id(&original).to_string()}))
        .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["quote"]["state"], "accepted", "{created}");
    assert_eq!(created["quote"]["quoted_status"]["id"], id(&original).to_string());
    let quote_id: i64 = created["id"].as_str().unwrap().parse().unwrap();
    let (_, notifications) = ada_app.get("/api/v1/notifications?types[]=quote").await;
    assert_eq!(notifications[0]["type"], "quote", "{notifications}");
    assert_eq!(notifications[0]["status"]["id"], quote_id.to_string());

    let (status, _) = post_empty(&app, &ada, &format!("/api/posts/{}/quotes/{quote_id}/detach", id(&original))).await;
    assert_eq!(status, 204);
    let (_, revoked) = bob_app.get(&format!("/api/v1/statuses/{quote_id}")).await;
    assert_eq!((&revoked["quote"]["state"], &revoked["quote"]["quoted_status"]), (&json!("revoked"), &Value::Null));
    let (_, plain) = ada_app.get(&format!("/api/v1/statuses/{}", id(&original))).await;
    assert_eq!(plain["quote"], Value::Null, "{plain}");
    let (status, body) = bob_app.post("/api/v1/statuses", json!({"status": "x", "quoted_status_id": "999999"})).await;
    assert_eq!(status, 404, "{body}");

    // A post that mentions Ada and quotes Carl: her notification shows Carl whole in the quote
    // (read apart: he is neither its actor nor its recipient), and reads alone as in the list.
    let carl = app.member("carl").await;
    let carls = write(&app, &carl, "Soup is a tea").await;
    let (status, created) = bob_app
        .post("/api/v1/statuses", json!({"status": "@ada see", "quoted_status_id": id(&carls).to_string()}))
        .await;
    assert_eq!(status, 200, "{created}");
    let (_, mentions) = ada_app.get("/api/v1/notifications?types[]=mention").await;
    assert_eq!(mentions[0]["status"]["id"], created["id"], "{mentions}");
    let quoted_author = &mentions[0]["status"]["quote"]["quoted_status"]["account"];
    assert_eq!(quoted_author["id"], carl.id.to_string(), "{mentions}");
    let (status, one) = ada_app.get(&format!("/api/v1/notifications/{}", mentions[0]["id"].as_str().unwrap())).await;
    assert_eq!((status, &one["account"]["id"]), (200, &json!(bob.id.to_string())), "{one}");
}

both_databases!(
    mastodon_apps_quote_and_read_quotes,
    a_quote_carries_the_quoted_post_and_tells_its_author_once,
    quoting_a_repost_quotes_its_original_and_a_quote_may_be_a_reply,
    bad_or_missing_quoted_posts_are_refused_clearly,
    blocks_forbid_quoting_either_way,
    a_quoted_post_that_becomes_hidden_shows_as_unavailable,
    only_the_author_turns_quoting_off_and_on,
    the_quoted_author_detaches_their_post_from_a_quote,
    the_quote_notification_reads_in_every_list,
);
