//! One product behind two interfaces (issue 61): the same story told through Murmur's API and
//! through the Mastodon API, and what the member meets compared. Each rule is the domain's, so
//! the two answer alike: a muted word folds a reply in a thread, a mute lasts one of the same
//! lengths, a fifth image is refused with one message, a suspended member's post is not there,
//! a blocked or suspended member's profile reads alike, and an edit after the hour is refused
//! alike.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, make_moderator};
use crate::mastodon::{AppClient, token_for};
use crate::moderation::suspend;
use crate::posts::{get, id, post, put, reply, write};

async fn app_of<'a>(app: &'a TestApp, member: &Member) -> AppClient<'a> {
    AppClient::new(app, &token_for(app, member, "read write follow").await)
}

async fn a_muted_word_folds_a_reply_in_both_threads(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = app_of(&app, &ada).await;
    let root = write(&app, &ada, "What do you drink?").await;
    let muted = reply(&app, &bob, id(&root), "Coffee, always").await;
    let plain = reply(&app, &bob, id(&root), "Tea").await;
    let (status, word) = post(&app, &ada, "/api/muted-words", json!({ "text": "coffee" })).await;
    assert_eq!(status, 201, "{word}");

    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&root))).await;
    let web: Vec<(i64, bool)> = thread["replies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_i64().unwrap(), r["hiddenByMutedWord"] == true))
        .collect();
    let (status, context) = ada_app.get(&format!("/api/v1/statuses/{}/context", id(&root))).await;
    assert_eq!(status, 200, "{context}");
    let apps: Vec<(i64, bool)> = context["descendants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap().parse().unwrap(), !s["filtered"].as_array().unwrap().is_empty()))
        .collect();
    assert_eq!(web, [(id(&muted), true), (id(&plain), false)]);
    assert_eq!(apps, web, "the app's thread folds what the web's does");
    let folded = &context["descendants"][0]["filtered"][0];
    assert_eq!(folded["keyword_matches"], json!(["coffee"]), "{folded}");
    assert_eq!(folded["filter"]["filter_action"], "warn", "{folded}");
}

async fn a_mute_lasts_the_same_lengths_through_both(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let ada_app = app_of(&app, &ada).await;
    let refused = "A mute lasts 1 hour, 1 day or 1 week, or until you unmute";

    let (status, body) = post(&app, &ada, "/api/mutes", json!({ "userId": bob.id, "durationHours": 2 })).await;
    assert_eq!((status, body["message"].as_str()), (400, Some(refused)), "{body}");
    for seconds in [7200, 300, 31_536_000, 90] {
        let (status, body) =
            ada_app.post(&format!("/api/v1/accounts/{}/mute", bob.id), json!({ "duration": seconds })).await;
        assert_eq!((status, body["error"].as_str()), (422, Some(refused)), "{seconds}: {body}");
    }

    let (status, body) = post(&app, &ada, "/api/mutes", json!({ "userId": bob.id, "durationHours": 24 })).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) =
        ada_app.post(&format!("/api/v1/accounts/{}/mute", cyd.id), json!({ "duration": 86_400 })).await;
    assert_eq!(status, 200, "{body}");
    let (_, mutes) = get(&app, &ada, "/api/mutes").await;
    let at = |value: &Value| chrono::DateTime::parse_from_rfc3339(value.as_str().unwrap()).unwrap();
    let lengths: Vec<i64> =
        mutes.as_array().unwrap().iter().map(|m| (at(&m["expiresAt"]) - at(&m["createdAt"])).num_hours()).collect();
    assert_eq!(lengths, [24, 24], "a day is a day through either: {mutes}");
}

async fn a_fifth_image_is_refused_alike(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let mut urls = Vec::new();
    for _ in 0..5 {
        urls.push(crate::media::uploaded(&app, &ada, crate::fixtures::png(8, 8)).await);
    }
    let ids: Vec<String> = urls.iter().map(|url| crate::media::id_of(url)).collect();
    let (status, web) = post(&app, &ada, "/api/posts", json!({ "content": "Five", "imageUrls": urls })).await;
    assert_eq!(status, 400, "{web}");
    let (status, apps) = ada_app.post("/api/v1/statuses", json!({ "status": "Five", "media_ids": ids })).await;
    assert_eq!(status, 422, "{apps}");
    assert_eq!(web["message"], apps["error"], "one rule, one message");
    assert_eq!(web["message"], "A post can have at most 4 images");
}

async fn a_suspended_members_post_is_not_there_through_either(app: TestApp) {
    let ada = app.member("ada").await;
    let eve = app.member("eve").await;
    let mod_ = app.member("mod").await;
    make_moderator(&app, &mod_).await;
    let ada_app = app_of(&app, &ada).await;
    let eves = write(&app, &eve, "Buy followers here").await;
    suspend(&app, &mod_, eve.id).await;

    // The web keeps its place in a thread, telling nothing of it; an app has no placeholder.
    let (status, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&eves))).await;
    assert_eq!(status, 200, "{thread}");
    assert_eq!((&thread["post"]["isUnavailable"], &thread["post"]["content"]), (&json!(true), &json!("")), "{thread}");
    let (status, body) = ada_app.get(&format!("/api/v1/statuses/{}", id(&eves))).await;
    assert_eq!(status, 404, "{body}");
}

async fn an_edit_after_the_hour_is_refused_alike(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let old = write(&app, &ada, "Helo").await;
    app.clock.advance(Duration::from_secs(61 * 60));
    let (status, web) = crate::edits::patch(&app, &ada, id(&old), json!({ "content": "Hello" })).await;
    assert_eq!(status, 409, "{web}");
    let (status, apps) = ada_app.put(&format!("/api/v1/statuses/{}", id(&old)), json!({ "status": "Hello" })).await;
    assert!((400..500).contains(&status), "{status} {apps}");
    assert_eq!(web["message"], apps["error"], "one rule, one message");
}

/// Bob blocked Ada: to Ada his profile is who he is and nothing more, through either interface:
/// no bio, no counts, no posts and no network; a suspended member is not there for her at all,
/// and a moderator still reads them through both.
async fn a_blocked_or_suspended_members_profile_reads_alike(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let eve = app.member("eve").await;
    let mod_ = app.member("mod").await;
    make_moderator(&app, &mod_).await;
    let ada_app = app_of(&app, &ada).await;
    let mod_app = app_of(&app, &mod_).await;
    let (status, body) =
        put(&app, &bob, "/api/users/profile", Some(json!({ "displayName": "Bob", "bio": "Birds", "website": "" })))
            .await;
    assert_eq!(status, 200, "{body}");
    write(&app, &bob, "A heron today").await;
    let (status, body) = post(&app, &bob, "/api/follows", json!({ "followingId": eve.id })).await;
    assert!((200..300).contains(&status), "{status} {body}");
    let (status, body) = post(&app, &bob, "/api/blocks", json!({ "userId": ada.id })).await;
    assert!((200..300).contains(&status), "{status} {body}");

    let (status, web) = get(&app, &ada, "/api/users/bob").await;
    assert_eq!(status, 200, "{web}");
    let (status, apps) = ada_app.get(&format!("/api/v1/accounts/{}", bob.id)).await;
    assert_eq!(status, 200, "{apps}");
    assert_eq!(
        (&web["isBlockedBy"], &web["bio"], &web["followingCount"]),
        (&json!(true), &json!(""), &json!(0)),
        "{web}"
    );
    assert_eq!(
        (&apps["note"], &apps["following_count"], &apps["statuses_count"]),
        (&json!(""), &json!(0), &json!(0)),
        "{apps}"
    );
    let (_, web_posts) = get(&app, &ada, "/api/users/bob/posts").await;
    let (_, app_posts) = ada_app.get(&format!("/api/v1/accounts/{}/statuses", bob.id)).await;
    assert_eq!((web_posts, app_posts), (json!([]), json!([])));
    let (_, web_following) = get(&app, &ada, "/api/users/bob/following").await;
    let (_, app_following) = ada_app.get(&format!("/api/v1/accounts/{}/following", bob.id)).await;
    assert_eq!((web_following, app_following), (json!([]), json!([])));

    suspend(&app, &mod_, eve.id).await;
    let (web, _) = get(&app, &ada, "/api/users/eve").await;
    let (apps, _) = ada_app.get(&format!("/api/v1/accounts/{}", eve.id)).await;
    assert_eq!((web, apps), (404, 404), "a suspended member is not there for a member");
    let (web, body) = get(&app, &mod_, "/api/users/eve").await;
    assert_eq!((web, &body["isSuspended"]), (200, &json!(true)), "{body}");
    let (apps, body) = mod_app.get(&format!("/api/v1/accounts/{}", eve.id)).await;
    assert_eq!(apps, 200, "moderators read a suspended member through apps too: {body}");
}

both_databases!(
    a_muted_word_folds_a_reply_in_both_threads,
    a_mute_lasts_the_same_lengths_through_both,
    a_fifth_image_is_refused_alike,
    a_suspended_members_post_is_not_there_through_either,
    a_blocked_or_suspended_members_profile_reads_alike,
    an_edit_after_the_hour_is_refused_alike,
);
