//! Muted words: the routes and their refusals, and a muted word hiding posts from the Friends
//! and For You feeds, notifications, search and tag pages (pages stay whole), folding them in
//! threads; whole words, whatever their case and accents; until they end.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::mastodon::{AppClient, token_for};
use crate::posts::{delete, follow, get, id, post, reply, write};

async fn mute(app: &TestApp, who: &Member, body: Value) -> Value {
    let (status, word) = post(app, who, "/api/muted-words", body).await;
    assert_eq!(status, 201, "{word}");
    word
}

async fn contents(app: &TestApp, who: &Member, path: &str) -> Vec<String> {
    let (status, body) = get(app, who, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    body.as_array()
        .unwrap()
        .iter()
        .map(|p| p["repostOf"]["content"].as_str().or(p["content"].as_str()).unwrap_or_default().to_string())
        .collect()
}

async fn friends(app: &TestApp, who: &Member) -> Vec<String> {
    contents(app, who, "/api/posts/feed").await
}

async fn words(app: &TestApp, who: &Member) -> Vec<String> {
    let (status, body) = get(app, who, "/api/muted-words").await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().iter().map(|w| w["text"].as_str().unwrap().to_string()).collect()
}

async fn words_are_added_listed_and_removed_by_their_member(app: TestApp) {
    let ada = app.member("ada").await;

    let forever = mute(&app, &ada, json!({ "text": "  Spoilers  " })).await;
    let day = mute(&app, &ada, json!({ "text": "#Rust", "hours": 24 })).await;

    assert_eq!((&forever["text"], &forever["expiresAt"]), (&json!("Spoilers"), &Value::Null), "{forever}");
    let (created, ends) = (day["createdAt"].as_str().unwrap(), day["expiresAt"].as_str().unwrap());
    let hours = (chrono::DateTime::parse_from_rfc3339(ends).unwrap()
        - chrono::DateTime::parse_from_rfc3339(created).unwrap())
    .num_hours();
    assert_eq!(hours, 24, "{day}");
    assert_eq!(words(&app, &ada).await, ["#Rust", "Spoilers"]);
    // The same words again (another case, accents folded) set its time anew: still one.
    let again = mute(&app, &ada, json!({ "text": "SPOILERS" })).await;
    assert_eq!(id(&again), id(&forever), "{again}");
    assert_eq!(words(&app, &ada).await, ["SPOILERS", "#Rust"]);

    let (status, _) = delete(&app, &ada, &format!("/api/muted-words/{}", id(&day))).await;
    assert_eq!(status, 204);
    assert_eq!(words(&app, &ada).await, ["SPOILERS"]);
    let (status, body) = delete(&app, &ada, &format!("/api/muted-words/{}", id(&day))).await;
    assert_eq!((status, &body["message"]), (404, &json!("Muted word not found")), "{body}");
}

async fn bad_muted_words_are_refused_with_what_is_wrong(app: TestApp) {
    let ada = app.member("ada").await;
    let cases = [
        (json!({ "text": "" }), "Type a word, phrase or hashtag to mute"),
        (json!({ "text": "   " }), "Type a word, phrase or hashtag to mute"),
        (json!({ "text": "x".repeat(101) }), "A muted word can be at most 100 characters long"),
        (json!({ "text": "#!?" }), "A muted word needs at least one letter or digit"),
        (json!({ "text": "two\nlines" }), "A muted word cannot contain line breaks or other control characters"),
        (json!({ "text": "ok", "hours": 0 }), "hours must be from 1 to 8760 (or absent: until you remove it)"),
        (json!({ "text": "ok", "hours": 8761 }), "hours must be from 1 to 8760 (or absent: until you remove it)"),
    ];
    for (body, message) in cases {
        let (status, answer) = post(&app, &ada, "/api/muted-words", body.clone()).await;
        assert_eq!((status, answer["message"].as_str().unwrap_or_default()), (400, message), "{body}: {answer}");
    }
    let (status, answer) = post(&app, &ada, "/api/muted-words", json!({ "hours": 3 })).await;
    assert_eq!(status, 400, "{answer}");
    assert!(words(&app, &ada).await.is_empty());
    mute(&app, &ada, json!({ "text": "é".repeat(100) })).await;
}

async fn a_member_keeps_at_most_a_hundred_muted_words(app: TestApp) {
    let ada = app.member("ada").await;
    // Written directly: the API's safety allowance would slow a hundred adds down.
    for n in 1..100 {
        sqlx::query("INSERT INTO muted_words (member_id, text, word_key, created_at) VALUES ($1, $2, $3, 1)")
            .bind(ada.id)
            .bind(format!("w{n}"))
            .bind(format!(" w{n} "))
            .execute(&app.state.db.write)
            .await
            .unwrap();
    }
    mute(&app, &ada, json!({ "text": "w100" })).await;
    let (status, body) = post(&app, &ada, "/api/muted-words", json!({ "text": "w101" })).await;
    assert_eq!(
        (status, &body["message"]),
        (400, &json!("You can mute at most 100 words; remove one to add another")),
        "{body}"
    );
    // One already muted can still be set anew.
    mute(&app, &ada, json!({ "text": "W1", "hours": 1 })).await;
    assert_eq!(words(&app, &ada).await.len(), 100);
}

async fn a_muted_word_hides_posts_from_every_list_at_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let plain = write(&app, &bob, "Tea time").await;
    let muted = write(&app, &bob, "Rust is great #rust").await;
    let warned = {
        let (_, p) =
            post(&app, &bob, "/api/posts", json!({ "content": "Look at this", "spoilerText": "RUST talk" })).await;
        p
    };
    let mention = reply(&app, &bob, id(&plain), "@ada rust again").await;
    assert_eq!(friends(&app, &ada).await, ["Look at this", "Rust is great #rust", "Tea time"]);

    let word = mute(&app, &ada, json!({ "text": "rust" })).await;

    // Friends at once (the kept page went), For You, search, the tag page, notifications.
    assert_eq!(friends(&app, &ada).await, ["Tea time"]);
    assert_eq!(contents(&app, &ada, "/api/posts/for-you").await, ["Tea time"]);
    assert!(contents(&app, &ada, "/api/posts/search?q=great").await.is_empty());
    assert_eq!(contents(&app, &ada, "/api/posts/search?q=tea").await, ["Tea time"]);
    assert!(contents(&app, &ada, "/api/tags/rust/posts").await.is_empty());
    let (_, notes) = get(&app, &ada, "/api/notifications").await;
    assert!(notes.as_array().unwrap().iter().all(|n| n["post"]["id"] != json!(id(&mention))), "{notes}");
    let (_, unread) = get(&app, &ada, "/api/notifications/unread-count").await;
    assert_eq!(unread["count"], 0, "{unread}");
    // Others still see it all; the member still sees their own posts holding it.
    let carol = app.member("carol").await;
    follow(&app, &carol, &bob).await;
    assert_eq!(friends(&app, &carol).await.len(), 3);
    write(&app, &ada, "My own rust post").await;
    assert_eq!(friends(&app, &ada).await, ["My own rust post", "Tea time"]);
    // A repost of a muted post is hidden too.
    crate::posts::repost(&app, &carol, id(&warned)).await;
    follow(&app, &ada, &carol).await;
    assert_eq!(friends(&app, &ada).await, ["My own rust post", "Tea time"]);

    // Removed: everything shows again, at once.
    delete(&app, &ada, &format!("/api/muted-words/{}", id(&word))).await;
    assert_eq!(friends(&app, &ada).await.len(), 4);
    assert_eq!(contents(&app, &ada, "/api/tags/rust/posts").await.len(), 1);
    let _ = muted;
}

async fn matching_is_by_whole_words_whatever_their_case_and_accents(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    for text in
        ["A category of things", "My CAT sleeps", "Un café noir", "cafe au lait", "New York, NEW york!", "new and york"]
    {
        write(&app, &bob, text).await;
    }

    mute(&app, &ada, json!({ "text": "cat" })).await;
    mute(&app, &ada, json!({ "text": "Café" })).await;
    mute(&app, &ada, json!({ "text": "new york" })).await;

    assert_eq!(friends(&app, &ada).await, ["new and york", "A category of things"]);
}

async fn a_muted_word_for_a_time_ends_by_itself(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    write(&app, &bob, "Election news").await;
    mute(&app, &ada, json!({ "text": "election", "hours": 1 })).await;
    assert!(friends(&app, &ada).await.is_empty());

    app.clock.advance(Duration::from_secs(3600 + 6));

    assert_eq!(friends(&app, &ada).await, ["Election news"]);
    assert!(words(&app, &ada).await.is_empty());
}

async fn a_page_of_twenty_stays_twenty_when_muted_posts_are_in_the_middle(app: TestApp) {
    let ada = app.member("ada").await;
    // Three authors in turn: For You lets no author have more than two posts in a row.
    let authors = [app.member("bob").await, app.member("carol").await, app.member("dave").await];
    for author in &authors {
        follow(&app, &ada, author).await;
    }
    for n in 0..30 {
        let text = if (10..20).contains(&n) { format!("Muted {n}") } else { format!("Plain {n}") };
        write(&app, &authors[n % 3], &text).await;
    }
    mute(&app, &ada, json!({ "text": "muted" })).await;

    for path in ["/api/posts/feed?limit=20", "/api/posts/for-you?limit=20", "/api/posts/search?q=plain&limit=20"] {
        let page = contents(&app, &ada, path).await;
        assert_eq!(page.len(), 20, "{path}: {page:?}");
        assert!(page.iter().all(|c| c.starts_with("Plain")), "{path}: {page:?}");
    }
    let rest = contents(&app, &ada, "/api/posts/feed?limit=20&offset=20").await;
    assert!(rest.is_empty(), "{rest:?}");
}

async fn a_thread_folds_a_reply_holding_a_muted_word(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let root = write(&app, &ada, "What do you drink?").await;
    let muted = reply(&app, &bob, id(&root), "Coffee, always").await;
    let plain = reply(&app, &bob, id(&root), "Tea").await;
    mute(&app, &ada, json!({ "text": "coffee" })).await;

    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&root))).await;
    let replies = thread["replies"].as_array().unwrap();
    assert_eq!(replies.len(), 2, "{thread}");
    let folded: Vec<(i64, &Value)> =
        replies.iter().map(|r| (r["id"].as_i64().unwrap(), &r["hiddenByMutedWord"])).collect();
    assert_eq!(folded, [(id(&muted), &json!(true)), (id(&plain), &Value::Null)]);
    let (_, page) = get(&app, &ada, &format!("/api/posts/{}/replies", id(&root))).await;
    assert_eq!(page[0]["hiddenByMutedWord"], true, "{page}");
    // Its parent, opened from elsewhere, is folded above the post too; the post opened is not.
    let (_, below) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&muted))).await;
    assert_eq!(below["post"]["hiddenByMutedWord"], Value::Null, "{below}");
    let (_, bobs) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&root))).await;
    assert!(bobs["replies"].as_array().unwrap().iter().all(|r| r["hiddenByMutedWord"].is_null()), "{bobs}");
}

async fn a_muted_word_hides_posts_from_a_list_feed_as_from_friends(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &ada, &cyd).await;
    let (status, list) = post(&app, &ada, "/api/lists", json!({ "title": "Friends of tea" })).await;
    assert_eq!(status, 201, "{list}");
    let path = format!("/api/lists/{}/members", id(&list));
    let (status, body) = post(&app, &ada, &path, json!({ "userIds": [bob.id, cyd.id] })).await;
    assert!(status < 300, "{body}");
    write(&app, &bob, "Tea at four").await;
    write(&app, &cyd, "Best coffee in town").await;
    write(&app, &bob, "Green tea").await;
    let coffee_again = write(&app, &cyd, "More COFFEE").await;
    crate::posts::repost(&app, &bob, id(&coffee_again)).await;
    write(&app, &cyd, "Oolong").await;
    mute(&app, &ada, json!({ "text": "coffee" })).await;

    let posts = format!("/api/lists/{}/posts", id(&list));
    let shown = ["Oolong", "Green tea", "Tea at four"];
    assert_eq!(friends(&app, &ada).await, shown);
    assert_eq!(contents(&app, &ada, &posts).await, shown, "the list as Friends");
    assert_eq!(contents(&app, &ada, &format!("{posts}?limit=2")).await, shown[..2], "a page stays whole");

    // Read by author too (below the home timeline's floor, as after a trim; pages not read
    // before, so none was kept).
    for sql in [
        "UPDATE users SET home_floor = (SELECT MAX(id) + 1 FROM posts) WHERE id = $1",
        "DELETE FROM home_timeline WHERE member_id = $1",
    ] {
        sqlx::query(sql).bind(ada.id).execute(&app.state.db.write).await.unwrap();
    }
    assert_eq!(contents(&app, &ada, &format!("{posts}?limit=3")).await, shown, "read by author");
    assert_eq!(contents(&app, &ada, &format!("{posts}?limit=2&offset=1")).await, shown[1..]);
}

async fn a_profile_folds_a_post_holding_a_muted_word(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let coffee = write(&app, &bob, "Best coffee in town").await;
    write(&app, &bob, "Tea at four").await;
    mute(&app, &ada, json!({ "text": "coffee" })).await;

    let (status, page) = get(&app, &ada, "/api/users/bob/posts").await;
    assert_eq!(status, 200, "{page}");
    let folded: Vec<(i64, &Value)> =
        page.as_array().unwrap().iter().map(|p| (p["id"].as_i64().unwrap(), &p["hiddenByMutedWord"])).collect();
    assert_eq!(folded.len(), 2, "folded, not left out: {page}");
    assert_eq!(folded[1], (id(&coffee), &json!(true)), "{page}");
    assert_eq!(folded[0].1, &Value::Null, "{page}");
    let (_, own) = get(&app, &bob, "/api/users/bob/posts").await;
    assert!(own.as_array().unwrap().iter().all(|p| p["hiddenByMutedWord"].is_null()), "{own}");
}

async fn an_edit_brings_the_new_words_under_the_mute(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let written = write(&app, &bob, "Nothing to see").await;
    mute(&app, &ada, json!({ "text": "football" })).await;
    assert_eq!(friends(&app, &ada).await.len(), 1);

    let (status, edited) = crate::common::json(
        bob.client
            .patch(app.url(&format!("/api/posts/{}", id(&written))))
            .json(&json!({ "content": "Football tonight" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{edited}");
    app.clock.advance(Duration::from_secs(6));

    assert!(friends(&app, &ada).await.is_empty());
}

async fn mastodon_apps_read_muted_words_as_v2_filters(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let word = mute(&app, &ada, json!({ "text": "Spoilers", "hours": 24 })).await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read").await);

    let (status, filters) = ada_app.get("/api/v2/filters").await;

    assert_eq!(status, 200, "{filters}");
    let filter = &filters[0];
    assert_eq!(filters.as_array().unwrap().len(), 1, "{filters}");
    assert_eq!((&filter["id"], &filter["title"]), (&json!(id(&word).to_string()), &json!("Spoilers")), "{filter}");
    assert_eq!((&filter["filter_action"], &filter["expires_at"]), (&json!("hide"), &word["expiresAt"]), "{filter}");
    assert_eq!(filter["keywords"][0]["keyword"], "Spoilers");
    assert_eq!(filter["keywords"][0]["whole_word"], true);
    assert_eq!(bob_app.get("/api/v2/filters").await.1, json!([]));
}

both_databases!(
    words_are_added_listed_and_removed_by_their_member,
    bad_muted_words_are_refused_with_what_is_wrong,
    a_member_keeps_at_most_a_hundred_muted_words,
    a_muted_word_hides_posts_from_every_list_at_once,
    matching_is_by_whole_words_whatever_their_case_and_accents,
    a_muted_word_for_a_time_ends_by_itself,
    a_page_of_twenty_stays_twenty_when_muted_posts_are_in_the_middle,
    a_thread_folds_a_reply_holding_a_muted_word,
    a_muted_word_hides_posts_from_a_list_feed_as_from_friends,
    a_profile_folds_a_post_holding_a_muted_word,
    an_edit_brings_the_new_words_under_the_mute,
    mastodon_apps_read_muted_words_as_v2_filters,
);
