//! Editing a post (issue 29): the author's hour, the history of earlier texts, and the text's
//! mentions, tags and search following the edit.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, json as read};
use crate::posts::{delete, get, id, ids, post, repost, seen_by, write};

pub(crate) async fn patch(app: &TestApp, who: &Member, post_id: i64, body: Value) -> (u16, Value) {
    read(who.client.request(Method::PATCH, app.url(&format!("/api/posts/{post_id}"))).json(&body).send().await.unwrap())
        .await
}

pub(crate) async fn edit(app: &TestApp, who: &Member, post_id: i64, content: &str) -> Value {
    let (status, body) = patch(app, who, post_id, json!({ "content": content })).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn history(app: &TestApp, who: &Member, post_id: i64) -> Vec<String> {
    let (status, body) = get(app, who, &format!("/api/posts/{post_id}/history")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().iter().map(|v| v["content"].as_str().unwrap().to_string()).collect()
}

async fn list(app: &TestApp, who: &Member, path: &str) -> Vec<i64> {
    let (status, body) = get(app, who, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    ids(&body)
}

/// How many times `who` was told of a mention in post `post_id`.
async fn mentions_of(app: &TestApp, who: &Member, post_id: i64) -> usize {
    let (status, body) = get(app, who, "/api/notifications").await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().iter().filter(|n| n["type"] == "mention" && n["post"]["id"] == post_id).count()
}

both_databases!(
    an_author_edits_a_post_and_its_history_lists_the_earlier_texts_newest_first,
    a_post_is_edited_only_by_its_author_within_the_hour_while_its_poll_has_no_votes,
    an_edit_notifies_new_mentions_once_and_takes_back_none,
    tags_and_search_follow_the_edited_text,
    an_edit_keeps_some_of_the_posts_images_but_never_adds_one,
    a_member_who_cannot_see_a_post_cannot_read_its_history,
    an_author_corrects_image_descriptions_and_the_history_keeps_each_versions_images,
);

async fn an_author_edits_a_post_and_its_history_lists_the_earlier_texts_newest_first(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = write(&app, &ada, "First draft").await;
    let post_id = id(&first);
    assert_eq!(first["editedAt"], Value::Null, "a new post is not edited");
    assert_eq!(history(&app, &bob, post_id).await, Vec::<String>::new());
    let shared = repost(&app, &bob, post_id).await;

    app.clock.advance(Duration::from_secs(60));
    let edited = edit(&app, &ada, post_id, "Second draft").await;
    assert_eq!(edited["content"], "Second draft");
    assert!(edited["editedAt"].is_string(), "{edited}");
    assert_eq!(edited["createdAt"], first["createdAt"], "an edit keeps the post's time");
    app.clock.advance(Duration::from_secs(60));
    edit(&app, &ada, post_id, "Final text").await;

    assert_eq!(history(&app, &bob, post_id).await, ["Second draft", "First draft"]);
    let (_, versions) = get(&app, &bob, &format!("/api/posts/{post_id}/history")).await;
    assert_eq!(versions[1]["writtenAt"], first["createdAt"]);
    assert_eq!(versions[1]["replacedAt"], edited["editedAt"]);
    assert_eq!(versions[0]["writtenAt"], edited["editedAt"]);
    let (_, paged) = get(&app, &bob, &format!("/api/posts/{post_id}/history?limit=1&offset=1")).await;
    assert_eq!(paged[0]["content"], "First draft");
    // Everyone reads the current text: the post, a repost of it, and the Friends feed.
    assert_eq!(seen_by(&app, &bob, post_id).await["content"], "Final text");
    let (_, bobs) = get(&app, &bob, "/api/users/bob/posts").await;
    let shown = bobs.as_array().unwrap().iter().find(|p| p["id"] == shared["id"]).unwrap();
    assert_eq!(shown["repostOf"]["content"], "Final text");
    assert!(shown["repostOf"]["editedAt"].is_string());
    let (_, feed) = get(&app, &ada, "/api/posts/feed").await;
    assert_eq!(feed[0]["content"], "Final text", "the author's own Friends page shows the edit at once");
    // The same text again changes nothing.
    edit(&app, &ada, post_id, "Final text").await;
    assert_eq!(history(&app, &ada, post_id).await.len(), 2);
}

async fn a_post_is_edited_only_by_its_author_within_the_hour_while_its_poll_has_no_votes(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let post_id = id(&write(&app, &ada, "Mine").await);

    let (status, body) = patch(&app, &bob, post_id, json!({ "content": "Yours now" })).await;
    assert_eq!((status, body["message"].as_str()), (403, Some("You can only edit your own posts")));
    assert_eq!(seen_by(&app, &ada, post_id).await["content"], "Mine");
    for (bad, why) in [(json!({ "content": "  " }), "blank"), (json!({ "content": "x".repeat(501) }), "too long")] {
        let (status, body) = patch(&app, &ada, post_id, bad).await;
        assert_eq!(status, 400, "{why}: {body}");
        assert!(body["message"].is_string(), "{body}");
    }
    let (status, _) = patch(&app, &ada, 999_999, json!({ "content": "Nothing" })).await;
    assert_eq!(status, 404);
    let shared = repost(&app, &bob, post_id).await;
    let (status, _) = patch(&app, &bob, id(&shared), json!({ "content": "A repost" })).await;
    assert_eq!(status, 400, "a repost has no text of its own");

    // A poll takes edits until its first vote.
    let (status, poll) =
        post(&app, &ada, "/api/posts", json!({ "content": "Tea?", "pollOptions": ["Yes", "No"] })).await;
    assert_eq!(status, 201, "{poll}");
    edit(&app, &ada, id(&poll), "Tea or not?").await;
    let (status, body) = post(&app, &bob, &format!("/api/posts/{}/vote", id(&poll)), json!({ "option": "Yes" })).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = patch(&app, &ada, id(&poll), json!({ "content": "Coffee?" })).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("This post can no longer be edited")));

    // The hour: 59 minutes in, still; past 60, no more.
    app.clock.advance(Duration::from_secs(59 * 60));
    edit(&app, &ada, post_id, "Mine, edited").await;
    app.clock.advance(Duration::from_secs(61));
    let (status, body) = patch(&app, &ada, post_id, json!({ "content": "Too late" })).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("This post can no longer be edited")));

    // A deleted post is not found.
    let gone = id(&write(&app, &ada, "Short-lived").await);
    delete(&app, &ada, &format!("/api/posts/{gone}")).await;
    let (status, _) = patch(&app, &ada, gone, json!({ "content": "Back" })).await;
    assert_eq!(status, 404);
    let (status, _) = get(&app, &ada, &format!("/api/posts/{gone}/history")).await;
    assert_eq!(status, 404);
}

async fn an_edit_notifies_new_mentions_once_and_takes_back_none(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let post_id = id(&write(&app, &ada, "Hello @bob").await);
    assert_eq!(mentions_of(&app, &bob, post_id).await, 1);

    let edited = edit(&app, &ada, post_id, "Hello @bob and @cyd").await;
    assert_eq!((mentions_of(&app, &bob, post_id).await, mentions_of(&app, &cyd, post_id).await), (1, 1));
    let mentioned: Vec<&str> = edited["entities"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "mention")
        .map(|e| e["value"].as_str().unwrap())
        .collect();
    assert_eq!(mentioned, ["bob", "cyd"], "{edited}");

    // Removing a mention takes nothing back; mentioning again tells nobody twice.
    let plain = edit(&app, &ada, post_id, "Hello everyone").await;
    assert_eq!(plain["entities"], json!([]));
    assert_eq!((mentions_of(&app, &bob, post_id).await, mentions_of(&app, &cyd, post_id).await), (1, 1));
    edit(&app, &ada, post_id, "Hello again @bob @cyd").await;
    assert_eq!((mentions_of(&app, &bob, post_id).await, mentions_of(&app, &cyd, post_id).await), (1, 1));
}

async fn tags_and_search_follow_the_edited_text(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let post_id = id(&write(&app, &ada, "Morning in the #garden with tomatoes").await);
    assert_eq!(list(&app, &bob, "/api/tags/garden/posts").await, [post_id]);
    assert_eq!(list(&app, &bob, "/api/posts/search?q=tomatoes").await, [post_id]);

    edit(&app, &ada, post_id, "Evening with #rust and cucumbers").await;
    assert_eq!(list(&app, &bob, "/api/tags/garden/posts").await, Vec::<i64>::new());
    assert_eq!(list(&app, &bob, "/api/tags/rust/posts").await, [post_id]);
    let (_, tag) = get(&app, &bob, "/api/tags/garden").await;
    assert_eq!(tag["postCount"], 0, "{tag}");
    assert_eq!(list(&app, &bob, "/api/posts/search?q=tomatoes").await, Vec::<i64>::new());
    assert_eq!(list(&app, &bob, "/api/posts/search?q=cucumbers").await, [post_id]);
    assert_eq!(list(&app, &bob, "/api/posts/search?q=%23rust").await, [post_id]);
}

async fn an_edit_keeps_some_of_the_posts_images_but_never_adds_one(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let mut urls = Vec::new();
    for _ in 0..3 {
        urls.push(crate::media::uploaded(&app, &ada, crate::fixtures::png(8, 8)).await);
    }
    let (status, made) =
        post(&app, &ada, "/api/posts", json!({ "content": "Three pictures", "imageUrls": &urls[..2] })).await;
    assert_eq!(status, 201, "{made}");
    let shown: Vec<String> = serde_json::from_value(made["imageUrls"].clone()).unwrap();
    assert_eq!(shown.len(), 2);

    // An image not the post's own (another upload, or the same one named twice) is refused.
    let extra = format!("/objects/{}", crate::media::id_of(&urls[2]));
    for bad in [json!([shown[0], extra]), json!([shown[0], shown[0]]), json!(["/objects/nothing"])] {
        let (status, body) = patch(&app, &ada, id(&made), json!({ "content": "Four?", "imageUrls": bad })).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // Left out, the images stay; named, only those stay.
    let kept = edit(&app, &ada, id(&made), "Still two").await;
    assert_eq!(kept["imageUrls"], json!(shown));
    let (status, one) = patch(&app, &ada, id(&made), json!({ "content": "Just one", "imageUrls": [shown[1]] })).await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["imageUrls"], json!([shown[1]]));
    assert_eq!(seen_by(&app, &bob, id(&made)).await["imageUrls"], json!([shown[1]]));
    let (status, _) = patch(&app, &ada, id(&made), json!({ "content": "Back to two", "imageUrls": shown })).await;
    assert_eq!(status, 400, "a removed image does not come back");
}

async fn a_member_who_cannot_see_a_post_cannot_read_its_history(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let post_id = id(&write(&app, &ada, "Before").await);
    edit(&app, &ada, post_id, "After").await;
    let (status, body) = post(&app, &ada, "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = get(&app, &bob, &format!("/api/posts/{post_id}/history")).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(history(&app, &ada, post_id).await, ["Before"]);
}

/// The images of each of a post's earlier versions, newest version first: (URL, description).
async fn history_images(app: &TestApp, who: &Member, post_id: i64) -> Vec<Vec<(String, Value)>> {
    let (status, body) = get(app, who, &format!("/api/posts/{post_id}/history")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array()
        .unwrap()
        .iter()
        .map(|v| {
            v["images"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| (i["url"].as_str().unwrap().to_string(), i["alt"].clone()))
                .collect()
        })
        .collect()
}

async fn an_author_corrects_image_descriptions_and_the_history_keeps_each_versions_images(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = crate::media::uploaded(&app, &ada, crate::fixtures::png(8, 8)).await;
    let second = crate::media::uploaded(&app, &ada, crate::fixtures::png(8, 8)).await;
    let images = json!([{ "url": first, "alt": "A cat" }, { "url": second }]);
    let (status, made) = post(&app, &ada, "/api/posts", json!({ "content": "Pets", "images": images })).await;
    assert_eq!(status, 201, "{made}");
    let post_id = id(&made);
    let shown: Vec<String> = serde_json::from_value(made["imageUrls"].clone()).unwrap();

    // Refused: both ways of naming the images at once, a description for an image the post
    // does not keep, one too long; another member's edit.
    let both = json!({ "content": "Pets", "imageUrls": shown, "images": [{ "url": shown[0] }] });
    let elsewhere = json!({ "content": "Pets", "images": [{ "url": "/objects/nothing", "alt": "?" }] });
    let too_long = json!({ "content": "Pets", "images": [{ "url": shown[0], "alt": "a".repeat(1501) }] });
    for bad in [both, elsewhere, too_long] {
        let (status, body) = patch(&app, &ada, post_id, bad.clone()).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (status, body) =
        patch(&app, &bob, post_id, json!({ "content": "Pets", "images": [{ "url": shown[0], "alt": "Bob's cat" }] }))
            .await;
    assert_eq!(status, 403, "{body}");

    // The descriptions are corrected; the text stays.
    let corrected = json!([{ "url": shown[0], "alt": "A grey cat asleep" }, { "url": shown[1], "alt": "A dog" }]);
    let (status, edited) = patch(&app, &ada, post_id, json!({ "content": "Pets", "images": corrected })).await;
    assert_eq!(status, 200, "{edited}");
    let alts: Vec<&Value> = edited["images"].as_array().unwrap().iter().map(|i| &i["alt"]).collect();
    assert_eq!(alts, [&json!("A grey cat asleep"), &json!("A dog")]);
    let seen = seen_by(&app, &bob, post_id).await;
    assert_eq!(seen["images"][0]["alt"], "A grey cat asleep", "{seen}");

    // An image leaves: the history keeps it, with the description each version gave it.
    let (status, edited) =
        patch(&app, &ada, post_id, json!({ "content": "Pets", "images": [{ "url": shown[1], "alt": "A dog" }] })).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["imageUrls"], json!([shown[1]]));
    assert_eq!(
        history_images(&app, &bob, post_id).await,
        [
            vec![(shown[0].clone(), json!("A grey cat asleep")), (shown[1].clone(), json!("A dog"))],
            vec![(shown[0].clone(), json!("A cat")), (shown[1].clone(), Value::Null)],
        ]
    );

    // The orphan cleanup keeps an image a version still shows, and lets it go with the post.
    app.clock.advance(Duration::from_secs(2 * 24 * 3600));
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 0);
    let kept = app.client.get(app.url(&shown[0])).send().await.unwrap();
    assert_eq!(kept.status(), 200, "an earlier version's image is still served");
    let (status, body) = delete(&app, &ada, &format!("/api/posts/{post_id}")).await;
    assert!(status < 300, "{body}");
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 2);
}
