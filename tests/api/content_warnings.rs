//! Content warnings: a post's short warning (`spoilerText`), written and edited with the post,
//! kept in its history, read by everyone who reads the post, and the member's setting that
//! opens such posts at once; the same through the Mastodon API (`spoiler_text`, `sensitive`,
//! `reading:expand:spoilers`).

use reqwest::Method;
use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, json as read};
use crate::mastodon::{AppClient, token_for};
use crate::posts::{get, id, post, put, repost, seen_by};

async fn patch(app: &TestApp, who: &Member, post_id: i64, body: Value) -> (u16, Value) {
    read(who.client.request(Method::PATCH, app.url(&format!("/api/posts/{post_id}"))).json(&body).send().await.unwrap())
        .await
}

async fn warned(app: &TestApp, who: &Member, content: &str, warning: &str) -> Value {
    let (status, body) = post(app, who, "/api/posts", json!({ "content": content, "spoilerText": warning })).await;
    assert_eq!(status, 201, "{body}");
    body
}

async fn stored_warning(app: &TestApp, post_id: i64) -> Option<String> {
    sqlx::query_scalar("SELECT spoiler_text FROM posts WHERE id = $1")
        .bind(post_id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

async fn a_post_with_a_warning_carries_it_for_every_reader(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;

    let created = warned(&app, &ada, "Snape kills Dumbledore", "  Book spoilers, cafe\u{301}  ").await;

    assert_eq!(created["spoilerText"], "Book spoilers, caf\u{e9}", "{created}");
    assert_eq!(created["content"], "Snape kills Dumbledore");
    let seen = seen_by(&app, &bob, id(&created)).await;
    assert_eq!(seen["spoilerText"], "Book spoilers, caf\u{e9}", "{seen}");
    let (_, adas) = get(&app, &bob, "/api/users/ada/posts").await;
    assert_eq!(adas[0]["spoilerText"], "Book spoilers, caf\u{e9}", "{adas}");
    // A repost shows its original's warning; the repost row has none of its own.
    let shared = repost(&app, &bob, id(&created)).await;
    assert_eq!((&shared["spoilerText"], &shared["repostOf"]["spoilerText"]), (&Value::Null, &created["spoilerText"]));
    // A post without one says so.
    let (_, plain) = post(&app, &ada, "/api/posts", json!({ "content": "Tea" })).await;
    assert_eq!(plain["spoilerText"], Value::Null, "{plain}");
}

async fn a_blank_warning_is_none_and_a_long_one_is_refused(app: TestApp) {
    let ada = app.member("ada").await;

    let blank = warned(&app, &ada, "Nothing to hide", " \t ").await;
    let (empty_status, empty) = post(&app, &ada, "/api/posts", json!({ "content": "Also", "spoilerText": "" })).await;
    let fits = warned(&app, &ada, "Fits", &"é".repeat(100)).await;
    let (long_status, long) =
        post(&app, &ada, "/api/posts", json!({ "content": "Too long", "spoilerText": "w".repeat(101) })).await;
    let (line_status, line) =
        post(&app, &ada, "/api/posts", json!({ "content": "Two lines", "spoilerText": "war\nnews" })).await;
    let (nul_status, nul) = post(&app, &ada, "/api/posts", json!({ "content": "Nul", "spoilerText": "a\u{0}b" })).await;

    assert_eq!(blank["spoilerText"], Value::Null, "{blank}");
    assert_eq!(stored_warning(&app, id(&blank)).await, None);
    assert_eq!((empty_status, &empty["spoilerText"]), (201, &Value::Null), "{empty}");
    assert_eq!(fits["spoilerText"].as_str().unwrap().chars().count(), 100);
    assert_eq!(
        (long_status, &long["message"]),
        (400, &json!("A content warning can be at most 100 characters long")),
        "{long}"
    );
    assert_eq!(
        (line_status, &line["message"]),
        (400, &json!("A content warning cannot contain line breaks or other control characters")),
        "{line}"
    );
    assert_eq!(nul_status, 400, "{nul}");
    // Nothing refused was written.
    let count: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM posts").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(count, 3);
}

async fn a_repost_cannot_carry_a_warning(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (_, original) = post(&app, &ada, "/api/posts", json!({ "content": "Plain" })).await;

    let (status, body) =
        post(&app, &bob, "/api/posts", json!({ "repostOfId": id(&original), "spoilerText": "Hidden" })).await;

    assert_eq!((status, &body["message"]), (400, &json!("A repost cannot have a content warning")), "{body}");
}

async fn an_edit_changes_keeps_or_removes_the_warning_and_history_keeps_the_old_one(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let created = warned(&app, &ada, "The ending", "Spoilers").await;
    let post_id = id(&created);

    let (status, changed) =
        patch(&app, &ada, post_id, json!({ "content": "The ending", "spoilerText": "Finale spoilers" })).await;
    assert_eq!((status, &changed["spoilerText"]), (200, &json!("Finale spoilers")), "{changed}");
    // Left out, the warning stays as it is.
    let (_, kept) = patch(&app, &ada, post_id, json!({ "content": "The ending, again" })).await;
    assert_eq!(kept["spoilerText"], "Finale spoilers", "{kept}");
    // Null (or blank) takes it away.
    let (_, removed) = patch(&app, &ada, post_id, json!({ "content": "The ending, again", "spoilerText": null })).await;
    assert_eq!(removed["spoilerText"], Value::Null, "{removed}");
    let (long_status, long) =
        patch(&app, &ada, post_id, json!({ "content": "The ending, again", "spoilerText": "w".repeat(101) })).await;
    assert_eq!(long_status, 400, "{long}");

    assert_eq!(stored_warning(&app, post_id).await, None);
    assert_eq!(seen_by(&app, &bob, post_id).await["spoilerText"], Value::Null);
    let (_, history) = get(&app, &bob, &format!("/api/posts/{post_id}/history")).await;
    let versions: Vec<(&str, &Value)> =
        history.as_array().unwrap().iter().map(|v| (v["content"].as_str().unwrap(), &v["spoilerText"])).collect();
    assert_eq!(
        versions,
        [
            ("The ending, again", &json!("Finale spoilers")),
            ("The ending", &json!("Finale spoilers")),
            ("The ending", &json!("Spoilers")),
        ],
        "{history}"
    );
}

async fn another_member_sees_the_warning_but_cannot_change_it(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let created = warned(&app, &ada, "Plot twist", "Spoilers").await;

    let (status, body) = patch(&app, &bob, id(&created), json!({ "content": "Plot twist", "spoilerText": null })).await;

    assert_eq!(status, 403, "{body}");
    assert_eq!(stored_warning(&app, id(&created)).await.as_deref(), Some("Spoilers"));
    assert_eq!(seen_by(&app, &bob, id(&created)).await["spoilerText"], "Spoilers");
}

async fn deleting_a_post_takes_its_warning_with_its_text(app: TestApp) {
    let ada = app.member("ada").await;
    let created = warned(&app, &ada, "Gone soon", "Spoilers").await;

    let (status, _) = crate::posts::delete(&app, &ada, &format!("/api/posts/{}", id(&created))).await;

    assert_eq!(status, 204);
    assert_eq!(stored_warning(&app, id(&created)).await, None);
}

async fn the_expand_setting_round_trips_on_the_members_own_record(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(me["expandContentWarnings"], false, "{me}");

    let (status, on) = put(&app, &ada, "/api/users/preferences", Some(json!({ "expandContentWarnings": true }))).await;
    assert_eq!((status, &on["expandContentWarnings"]), (200, &json!(true)), "{on}");
    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(me["expandContentWarnings"], true, "{me}");
    // A request that names no setting changes none.
    let (_, same) = put(&app, &ada, "/api/users/preferences", Some(json!({}))).await;
    assert_eq!(same["expandContentWarnings"], true, "{same}");
    // Nobody else reads it, nor has theirs changed.
    let (_, profile) = get(&app, &bob, "/api/users/ada").await;
    assert!(profile.get("expandContentWarnings").is_none(), "{profile}");
    let (_, bobs) = get(&app, &bob, "/api/auth/me").await;
    assert_eq!(bobs["expandContentWarnings"], false, "{bobs}");
    let (status, off) =
        put(&app, &ada, "/api/users/preferences", Some(json!({ "expandContentWarnings": false }))).await;
    assert_eq!((status, &off["expandContentWarnings"]), (200, &json!(false)), "{off}");
    let (bad, body) = put(&app, &ada, "/api/users/preferences", Some(json!({ "expandContentWarnings": "yes" }))).await;
    assert_eq!(bad, 400, "{body}");
}

async fn mastodon_apps_write_and_read_warnings_and_the_setting(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write").await);

    let (status, created) = ada_app
        .post("/api/v1/statuses", json!({"status": "The ending", "spoiler_text": "Spoilers", "sensitive": true}))
        .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!((&created["spoiler_text"], &created["sensitive"]), (&json!("Spoilers"), &json!(true)), "{created}");
    let post_id: i64 = created["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(seen_by(&app, &bob, post_id).await["spoilerText"], "Spoilers");
    let (_, seen) = bob_app.get(&format!("/api/v1/statuses/{post_id}")).await;
    assert_eq!((&seen["spoiler_text"], &seen["sensitive"]), (&json!("Spoilers"), &json!(true)), "{seen}");
    let (_, source) = ada_app.get(&format!("/api/v1/statuses/{post_id}/source")).await;
    assert_eq!(source["spoiler_text"], "Spoilers", "{source}");

    // An edit without spoiler_text keeps it; a blank one takes it away, as Mastodon's.
    let path = format!("/api/v1/statuses/{post_id}");
    let (_, kept) = ada_app.put(&path, json!({"status": "The ending, edited"})).await;
    assert_eq!(kept["spoiler_text"], "Spoilers", "{kept}");
    let (_, removed) = ada_app.put(&path, json!({"status": "The ending, edited", "spoiler_text": ""})).await;
    assert_eq!((&removed["spoiler_text"], &removed["sensitive"]), (&json!(""), &json!(false)), "{removed}");
    let (_, history) = bob_app.get(&format!("/api/v1/statuses/{post_id}/history")).await;
    let warnings: Vec<&Value> = history.as_array().unwrap().iter().map(|v| &v["spoiler_text"]).collect();
    assert_eq!(warnings, [&json!("Spoilers"), &json!("Spoilers"), &json!("")], "{history}");
    // Another member's app cannot take a warning off.
    let (status, body) = bob_app.put(&path, json!({"status": "mine now", "spoiler_text": ""})).await;
    assert!(status == 403 || status == 404, "{status} {body}");

    // Too long, or sensitive with no warning: refused with what is wrong.
    let (status, body) =
        ada_app.post("/api/v1/statuses", json!({"status": "x", "spoiler_text": "w".repeat(101)})).await;
    assert_eq!((status, &body["error"]), (422, &json!("A content warning can be at most 100 characters long")));
    let (status, body) = ada_app.post("/api/v1/statuses", json!({"status": "x", "sensitive": true})).await;
    assert_eq!(status, 422, "{body}");
    let (status, plain) = ada_app.post("/api/v1/statuses", json!({"status": "x", "spoiler_text": "  "})).await;
    assert_eq!((status, &plain["spoiler_text"], &plain["sensitive"]), (200, &json!(""), &json!(false)), "{plain}");

    let (_, preferences) = ada_app.get("/api/v1/preferences").await;
    assert_eq!(preferences["reading:expand:spoilers"], false, "{preferences}");
    put(&app, &ada, "/api/users/preferences", Some(json!({ "expandContentWarnings": true }))).await;
    let (_, preferences) = ada_app.get("/api/v1/preferences").await;
    assert_eq!(preferences["reading:expand:spoilers"], true, "{preferences}");
    let (_, bobs) = bob_app.get("/api/v1/preferences").await;
    assert_eq!(bobs["reading:expand:spoilers"], false, "{bobs}");
}

both_databases!(
    a_post_with_a_warning_carries_it_for_every_reader,
    a_blank_warning_is_none_and_a_long_one_is_refused,
    a_repost_cannot_carry_a_warning,
    an_edit_changes_keeps_or_removes_the_warning_and_history_keeps_the_old_one,
    another_member_sees_the_warning_but_cannot_change_it,
    deleting_a_post_takes_its_warning_with_its_text,
    the_expand_setting_round_trips_on_the_members_own_record,
    mastodon_apps_write_and_read_warnings_and_the_setting,
);
