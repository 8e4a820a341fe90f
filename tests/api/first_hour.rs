//! The newcomer's first hour: following the inviter at sign-up, the first-run flag, changing
//! one's username, the Followers and Following lists, and the starter pack.

use std::time::Duration;

use murmur::clock::{DAY, MINUTE};
use serde_json::{Value, json};
use sqlx::Connection;

use crate::accounts::{operator_code, sign_up};
use crate::both_databases;
use crate::common::{Member, TestApp, client_for, json as read};
use crate::posts::{delete, follow, get, post, post_empty, put, write};

/// A code of `owner`'s, as the Invites page makes it.
async fn invite_code(app: &TestApp, owner: &Member) -> String {
    let (status, body) = post_empty(app, owner, "/api/invites").await;
    assert_eq!(status, 201, "{body}");
    body["code"].as_str().expect("a code").to_string()
}

/// Signs `email` up with `code` through the outbox and answers them as a `Member`.
async fn newcomer(app: &TestApp, email: &str, code: &str) -> Member {
    let (client, user) = sign_up(app, email, code).await;
    Member {
        id: user["id"].as_i64().unwrap(),
        username: user["username"].as_str().unwrap().to_string(),
        email: email.to_string(),
        client,
    }
}

async fn me(app: &TestApp, who: &Member) -> Value {
    let (status, me) = get(app, who, "/api/auth/me").await;
    assert_eq!(status, 200, "{me}");
    me
}

async fn counts(app: &TestApp, who: &Member, username: &str) -> (i64, i64) {
    let (status, user) = get(app, who, &format!("/api/users/{username}")).await;
    assert_eq!(status, 200, "{user}");
    (user["followerCount"].as_i64().unwrap(), user["followingCount"].as_i64().unwrap())
}

async fn is_following(app: &TestApp, who: &Member, whom: i64) -> bool {
    let (status, body) = get(app, who, &format!("/api/follows/{whom}/status")).await;
    assert_eq!(status, 200, "{body}");
    body["isFollowing"].as_bool().unwrap()
}

async fn notification_kinds(app: &TestApp, who: &Member) -> Vec<(String, String)> {
    let (status, list) = get(app, who, "/api/notifications").await;
    assert_eq!(status, 200, "{list}");
    let kind_and_actor =
        |n: &Value| (n["type"].as_str().unwrap().to_string(), n["actor"]["username"].as_str().unwrap().to_string());
    list.as_array().unwrap().iter().map(kind_and_actor).collect()
}

// ---------------------------------------------------------------------------------------------
// Sign-up follows the inviter

async fn signing_up_with_a_members_invite_follows_the_inviter(app: TestApp) {
    let ada = app.member("ada").await;
    let hello = write(&app, &ada, "Hello from Ada").await;
    let code = invite_code(&app, &ada).await;

    let grace = newcomer(&app, "grace@example.com", &code).await;

    assert!(is_following(&app, &grace, ada.id).await);
    assert_eq!(counts(&app, &grace, "ada").await, (1, 0));
    assert_eq!(counts(&app, &grace, &grace.username).await, (0, 1));
    // Ada's posts are in Grace's Friends feed, as after any follow.
    let (status, feed) = get(&app, &grace, "/api/posts/feed").await;
    assert_eq!(status, 200, "{feed}");
    let ids: Vec<&Value> = feed.as_array().unwrap().iter().map(|p| &p["id"]).collect();
    assert_eq!(ids, [&hello["id"]], "{feed}");
    // Ada is told, as of any follow.
    assert_eq!(notification_kinds(&app, &ada).await, [("follow".to_string(), grace.username.clone())]);

    // An ordinary follow: Grace can undo it.
    let (status, _) = delete(&app, &grace, &format!("/api/follows/{}", ada.id)).await;
    assert_eq!(status, 200);
    assert!(!is_following(&app, &grace, ada.id).await);
    assert_eq!(counts(&app, &grace, "ada").await, (0, 0));
}

async fn an_operators_invite_follows_nobody(app: TestApp) {
    let code = operator_code(&app).await;
    let grace = newcomer(&app, "grace@example.com", &code).await;
    assert_eq!(counts(&app, &grace, &grace.username).await, (0, 0));
    let follows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM follows").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(follows, 0);
}

/// `follow_inviter` as sign-up calls it, in a transaction of its own.
async fn follow_inviter(app: &TestApp, member: &Member, inviter: &Member) {
    let mut conn = app.state.db.write.acquire().await.unwrap();
    let mut tx = conn.begin().await.unwrap();
    murmur::follows::writes::follow_inviter(&mut tx, member.id, inviter.id, app.clock.now()).await.unwrap();
    tx.commit().await.unwrap();
}

async fn a_hidden_inviter_is_not_followed(app: TestApp) {
    // A suspended (or deleted) member's codes are refused before sign-up, and a newcomer has no
    // blocks yet: the rule is asked directly of the function sign-up calls, which must not
    // fail the sign-up either.
    let ada = app.member("ada").await;
    let grace = app.member("grace").await;
    sqlx::query("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, 0)")
        .bind(ada.id)
        .bind(grace.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    follow_inviter(&app, &grace, &ada).await;
    assert!(!is_following(&app, &grace, ada.id).await);

    let cyd = app.member("cyd").await;
    crate::common::suspend_in_database(&app, cyd.id).await;
    follow_inviter(&app, &grace, &cyd).await;
    assert!(!is_following(&app, &grace, cyd.id).await);
    assert_eq!(counts(&app, &grace, "grace").await, (0, 0));

    // The same call follows an inviter who is not hidden.
    let dee = app.member("dee").await;
    follow_inviter(&app, &grace, &dee).await;
    assert!(is_following(&app, &grace, dee.id).await);
}

// ---------------------------------------------------------------------------------------------
// The first-run flag

async fn a_new_member_finishes_first_run_once(app: TestApp) {
    let ada = app.member("ada").await;
    let grace = newcomer(&app, "grace@example.com", &invite_code(&app, &ada).await).await;
    let mine = me(&app, &grace).await;
    assert_eq!((&mine["firstRunDone"], &mine["usernameChangeableAt"]), (&json!(false), &Value::Null), "{mine}");
    // Members from before the step have been through it.
    assert_eq!(me(&app, &ada).await["firstRunDone"], true);

    for _ in 0..2 {
        let (status, body) = post_empty(&app, &grace, "/api/users/first-run").await;
        assert_eq!(status, 204, "{body}");
        assert_eq!(me(&app, &grace).await["firstRunDone"], true);
    }
    // Only the member's own record carries it.
    let (_, profile) = get(&app, &ada, &format!("/api/users/{}", grace.username)).await;
    assert!(profile.get("firstRunDone").is_none() && profile.get("usernameChangeableAt").is_none(), "{profile}");
    let (status, _) = read(app.client.post(app.url("/api/users/first-run")).send().await.unwrap()).await;
    assert_eq!(status, 401);
}

// ---------------------------------------------------------------------------------------------
// Changing the username

/// Changes `who`'s username, keeping the display name they were given (`Ada`).
async fn rename(app: &TestApp, who: &Member, username: &str) -> (u16, Value) {
    let mut name = who.username.clone();
    name[..1].make_ascii_uppercase();
    let body = json!({ "displayName": name, "username": username });
    put(app, who, "/api/users/profile", Some(body)).await
}

/// `who` with a new session (after the clock moved past their old one's end).
pub async fn again(app: &TestApp, who: &Member) -> Member {
    let token = murmur::sessions::create(&app.state.db.write, who.id, app.clock.now()).await.unwrap();
    let cookie = format!("{}={token}", murmur::session_cookie::name(&app.state.config));
    Member {
        id: who.id,
        username: who.username.clone(),
        email: who.email.clone(),
        client: client_for(&app.base, Some(&cookie)),
    }
}

/// Past a member's first day, when their first choice of username is no longer free.
fn after_the_first_day(app: &TestApp) {
    app.clock.advance(Duration::from_millis((murmur::users::model::FREE_FIRST_CHOICE_WITHIN + MINUTE) as u64));
}

async fn a_member_changes_their_username_and_the_old_one_finds_them_for_thirty_days(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    after_the_first_day(&app);
    let (status, user) = rename(&app, &ada, " Ada_L ").await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["username"], "ada_l");
    let changeable = user["usernameChangeableAt"].as_str().expect("a time").to_string();
    assert_eq!(me(&app, &ada).await["usernameChangeableAt"], json!(changeable));

    // The old name answers her profile, named as she is now, so the web app can redirect.
    let (status, profile) = get(&app, &bob, "/api/users/ada").await;
    assert_eq!((status, &profile["username"], &profile["id"]), (200, &json!("ada_l"), &json!(ada.id)), "{profile}");
    let (status, profile) = get(&app, &bob, "/api/users/ada_l").await;
    assert_eq!((status, &profile["id"]), (200, &json!(ada.id)));

    // Nobody else takes the old name while it is held (nor a look-alike of her display name,
    // which she changes now).
    let (status, _) = put(&app, &ada, "/api/users/profile", Some(json!({ "displayName": "Lovelace" }))).await;
    assert_eq!(status, 200);
    let (status, body) = rename(&app, &bob, "ada").await;
    assert_eq!((status, body["message"].as_str()), (409, Some("That username is taken.")), "{body}");

    app.clock.advance(Duration::from_millis((30 * DAY + MINUTE) as u64));
    let bob = again(&app, &bob).await;
    let (status, body) = get(&app, &bob, "/api/users/ada").await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = rename(&app, &bob, "ada").await;
    assert_eq!((status, &body["username"]), (200, &json!("ada")), "{body}");
}

async fn a_username_changes_at_most_once_in_thirty_days(app: TestApp) {
    let ada = app.member("ada").await;
    after_the_first_day(&app);
    let (status, _) = rename(&app, &ada, "ada_l").await;
    assert_eq!(status, 200);
    let (status, body) = rename(&app, &ada, "lovelace").await;
    assert_eq!(status, 400, "{body}");
    let next = murmur::clock::to_date(app.clock.now() + 30 * DAY);
    let message = body["message"].as_str().unwrap();
    assert!(
        message.starts_with("You can change your username once in 30 days") && message.contains(&next),
        "{message}"
    );
    // The same name, or none, is no change: the rest of the profile still saves.
    let (status, user) = rename(&app, &ada, "ADA_L").await;
    assert_eq!((status, &user["username"]), (200, &json!("ada_l")), "{user}");
    let (status, _) = put(&app, &ada, "/api/users/profile", Some(json!({ "displayName": "Ada" }))).await;
    assert_eq!(status, 200);

    // Her old name is hers to take back.
    let (status, user) = rename(&app, &ada, "ada").await;
    assert_eq!((status, &user["username"]), (200, &json!("ada")), "{user}");
    let (status, _) = rename(&app, &ada, "lovelace").await;
    assert_eq!(status, 400, "taking a name back does not restart the clock, nor end it");

    app.clock.advance(Duration::from_millis((30 * DAY + MINUTE) as u64));
    let ada = again(&app, &ada).await;
    let (status, user) = rename(&app, &ada, "lovelace").await;
    assert_eq!((status, &user["username"]), (200, &json!("lovelace")), "{user}");
}

async fn a_newcomer_chooses_a_username_at_once(app: TestApp) {
    let ada = app.member("ada").await;
    let grace = newcomer(&app, "friend.of.ada@example.com", &invite_code(&app, &ada).await).await;
    assert_eq!(grace.username, "friend_of_ada");
    let (status, user) = rename(&app, &grace, "grace").await;
    assert_eq!((status, &user["username"]), (200, &json!("grace")), "{user}");
    assert_eq!(user["usernameChangeableAt"], Value::Null, "the first choice on the first day is free: {user}");
    assert_eq!(me(&app, &grace).await["usernameChangeableAt"], Value::Null);

    // The change after it is the once-in-30-days one.
    let (status, user) = rename(&app, &grace, "grace_h").await;
    assert_eq!((status, &user["username"]), (200, &json!("grace_h")), "{user}");
    assert!(user["usernameChangeableAt"].is_string(), "the clock starts at the second change: {user}");
    let (status, body) = rename(&app, &grace, "hopper").await;
    assert_eq!(status, 400, "{body}");
}

async fn a_first_choice_after_the_first_day_starts_the_clock(app: TestApp) {
    let ada = app.member("ada").await;
    let grace = newcomer(&app, "friend.of.ada@example.com", &invite_code(&app, &ada).await).await;
    after_the_first_day(&app);
    let (status, user) = rename(&app, &grace, "grace").await;
    assert_eq!((status, &user["username"]), (200, &json!("grace")), "{user}");
    assert!(user["usernameChangeableAt"].is_string(), "{user}");
}

async fn a_username_is_checked_as_at_sign_up(app: TestApp) {
    let ada = app.member("ada").await;
    app.member("bob").await;
    for (name, status, message) in [
        ("ab", 400, "Usernames are 3 to 20 characters: letters, digits and underscores."),
        ("ada lovelace", 400, "Usernames are 3 to 20 characters: letters, digits and underscores."),
        ("émile", 400, "Usernames are 3 to 20 characters: letters, digits and underscores."),
        ("a\u{0}a", 400, "Usernames are 3 to 20 characters: letters, digits and underscores."),
        ("search", 400, "That username is not available."),
        ("admin", 400, "That username is not available."),
        ("bob", 409, "That username is taken."),
        ("BOB", 409, "That username is taken."),
        ("b0b", 400, "That username looks like another member's name or username."),
    ] {
        let (got, body) = rename(&app, &ada, name).await;
        assert_eq!((got, body["message"].as_str()), (status, Some(message)), "{name:?}");
    }
    let (status, _) = put(&app, &ada, "/api/users/profile", Some(json!({ "displayName": "Ada", "username": 7 }))).await;
    assert_eq!(status, 400);
    assert_eq!(me(&app, &ada).await["username"], "ada", "nothing changed");
}

async fn a_mention_follows_the_member_to_their_new_username(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hello = write(&app, &ada, "Hello @bob!").await;
    let mention = &hello["entities"][0];
    assert_eq!((&mention["value"], &mention["userId"]), (&json!("bob"), &json!(bob.id)), "{hello}");

    let (status, _) = rename(&app, &bob, "robert").await;
    assert_eq!(status, 200);
    let (status, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", hello["id"])).await;
    assert_eq!(status, 200, "{thread}");
    let post = &thread["post"];
    assert_eq!(post["content"], "Hello @bob!", "the text is as written");
    let mention = &post["entities"][0];
    assert_eq!(
        (&mention["type"], &mention["value"], &mention["userId"], &mention["start"], &mention["end"]),
        (&json!("mention"), &json!("robert"), &json!(bob.id), &json!(6), &json!(10)),
        "{post}"
    );
}

async fn a_new_username_shows_on_the_members_kept_pages(app: TestApp) {
    let bob = app.member("bob").await;
    write(&app, &bob, "Mine").await;
    let (_, feed) = get(&app, &bob, "/api/posts/feed").await;
    assert_eq!(feed[0]["author"]["username"], "bob");
    let (status, _) = rename(&app, &bob, "robert").await;
    assert_eq!(status, 200);
    let (_, feed) = get(&app, &bob, "/api/posts/feed").await;
    assert_eq!(feed[0]["author"]["username"], "robert", "{feed}");
}

// ---------------------------------------------------------------------------------------------
// Followers and Following

fn usernames_and_following(list: &Value) -> Vec<(String, bool)> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|u| (u["username"].as_str().unwrap().to_string(), u["isFollowing"].as_bool().unwrap()))
        .collect()
}

fn pairs(expected: &[(&str, bool)]) -> Vec<(String, bool)> {
    expected.iter().map(|(name, following)| (name.to_string(), *following)).collect()
}

async fn followers_and_following_are_listed_newest_first(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    for who in [&bob, &cyd, &dee] {
        follow(&app, who, &ada).await;
        app.clock.advance(Duration::from_secs(1));
    }
    follow(&app, &ada, &cyd).await;
    follow(&app, &bob, &cyd).await;

    let (status, list) = get(&app, &bob, "/api/users/ada/followers").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(usernames_and_following(&list), pairs(&[("dee", false), ("cyd", true), ("bob", false)]));
    assert_eq!(list[0]["displayName"], "Dee");
    assert!(list[0].get("email").is_none(), "{list}");
    let (_, first) = get(&app, &bob, "/api/users/ada/followers?limit=2").await;
    let (_, second) = get(&app, &bob, "/api/users/ada/followers?limit=2&offset=2").await;
    assert_eq!(usernames_and_following(&first), pairs(&[("dee", false), ("cyd", true)]));
    assert_eq!(usernames_and_following(&second), pairs(&[("bob", false)]));

    let (status, list) = get(&app, &dee, "/api/users/ada/following").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(usernames_and_following(&list), pairs(&[("cyd", false)]));
    let (_, list) = get(&app, &ada, "/api/users/cyd/followers").await;
    assert_eq!(usernames_and_following(&list), pairs(&[("bob", false), ("ada", false)]));
}

async fn hidden_members_are_left_out_of_follow_lists_before_the_page_is_cut(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let mut fans = Vec::new();
    for name in ["cyd", "dee", "eve", "fay"] {
        let fan = app.member(name).await;
        follow(&app, &fan, &ada).await;
        app.clock.advance(Duration::from_secs(1));
        fans.push(fan);
    }
    // Fay blocked Bob, Bob blocked Eve, and Dee is suspended.
    let (status, _) = post(&app, &fans[3], "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201);
    let (status, _) = post(&app, &bob, "/api/blocks", json!({ "userId": fans[2].id })).await;
    assert_eq!(status, 201);
    crate::common::suspend_in_database(&app, fans[1].id).await;
    let (_, list) = get(&app, &bob, "/api/users/ada/followers?limit=1").await;
    assert_eq!(usernames_and_following(&list), pairs(&[("cyd", false)]));
    // Ada, who blocked nobody, sees the rest.
    let (_, list) = get(&app, &ada, "/api/users/ada/followers").await;
    assert_eq!(usernames_and_following(&list), pairs(&[("fay", false), ("eve", false), ("cyd", false)]));
}

async fn a_blocked_member_sees_no_follow_lists_of_the_blocker(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &cyd, &ada).await;
    follow(&app, &ada, &cyd).await;
    let (status, _) = post(&app, &ada, "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201);
    for path in ["/api/users/ada/followers", "/api/users/ada/following"] {
        let (status, list) = get(&app, &bob, path).await;
        assert_eq!((status, list), (200, json!([])), "{path}");
        let (_, list) = get(&app, &cyd, path).await;
        assert_eq!(list.as_array().map(Vec::len), Some(1), "{path}: {list}");
    }
}

async fn follow_lists_refuse_bad_pages_and_unknown_members(app: TestApp) {
    let ada = app.member("ada").await;
    for (path, status) in [
        ("/api/users/ada/followers?limit=0", 400),
        ("/api/users/ada/following?limit=51", 400),
        ("/api/users/ada/followers?offset=-1", 400),
        ("/api/users/ada/followers?limit=x", 400),
        ("/api/users/nobody/followers", 404),
        ("/api/users/nobody/following", 404),
    ] {
        let (got, body) = get(&app, &ada, path).await;
        assert_eq!(got, status, "{path}: {body}");
        assert!(body["message"].is_string(), "{path}: {body}");
    }
    let (status, _) = read(app.client.get(app.url("/api/users/ada/followers")).send().await.unwrap()).await;
    assert_eq!(status, 401);
}

// ---------------------------------------------------------------------------------------------
// The starter pack

async fn starter_pack(app: &TestApp, who: &Member) -> Value {
    let (status, pack) = get(app, who, "/api/users/starter-pack").await;
    assert_eq!(status, 200, "{pack}");
    pack
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap()).collect()
}

async fn a_newcomers_starter_pack_is_whom_their_inviter_follows(app: TestApp) {
    let ada = app.member("ada").await;
    let [bob, cyd, dee, eve] =
        [app.member("bob").await, app.member("cyd").await, app.member("dee").await, app.member("eve").await];
    let fans = [app.member("fan1").await, app.member("fan2").await];
    // Cyd is the most followed, then Bob, then Dee.
    for fan in &fans {
        follow(&app, fan, &cyd).await;
    }
    follow(&app, &fans[0], &bob).await;
    for whom in [&bob, &cyd, &dee, &eve, &fans[1]] {
        follow(&app, &ada, whom).await;
    }
    let code = invite_code(&app, &ada).await;
    let grace = newcomer(&app, "grace@example.com", &code).await;
    follow(&app, &ada, &grace).await;
    // Grace follows Fan2 already, and blocked Eve.
    follow(&app, &grace, &fans[1]).await;
    let (status, _) = post(&app, &grace, "/api/blocks", json!({ "userId": eve.id })).await;
    assert_eq!(status, 201);

    let pack = starter_pack(&app, &grace).await;
    assert_eq!(pack["inviter"]["username"], "ada", "{pack}");
    assert!(pack["inviter"].get("email").is_none(), "{pack}");
    assert_eq!(names(&pack["members"]), ["cyd", "bob", "dee"], "{pack}");

    // Someone else's pack is their own inviter's: Ada's came from the instance.
    let pack = starter_pack(&app, &ada).await;
    assert_eq!(pack, json!({ "inviter": null, "members": [] }));
    let (status, _) = read(app.client.get(app.url("/api/users/starter-pack")).send().await.unwrap()).await;
    assert_eq!(status, 401);
}

async fn a_hidden_inviter_gives_no_starter_pack(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let grace = newcomer(&app, "grace@example.com", &invite_code(&app, &ada).await).await;
    assert_eq!(names(&starter_pack(&app, &grace).await["members"]), ["bob"]);

    let (status, _) = post(&app, &ada, "/api/blocks", json!({ "userId": grace.id })).await;
    assert_eq!(status, 201);
    assert_eq!(starter_pack(&app, &grace).await, json!({ "inviter": null, "members": [] }));
    let (status, _) = delete(&app, &ada, &format!("/api/blocks/{}", grace.id)).await;
    assert_eq!(status, 204);
    crate::common::suspend_in_database(&app, ada.id).await;
    assert_eq!(starter_pack(&app, &grace).await, json!({ "inviter": null, "members": [] }));
}

both_databases!(
    signing_up_with_a_members_invite_follows_the_inviter,
    an_operators_invite_follows_nobody,
    a_hidden_inviter_is_not_followed,
    a_new_member_finishes_first_run_once,
    a_member_changes_their_username_and_the_old_one_finds_them_for_thirty_days,
    a_username_changes_at_most_once_in_thirty_days,
    a_newcomer_chooses_a_username_at_once,
    a_first_choice_after_the_first_day_starts_the_clock,
    a_username_is_checked_as_at_sign_up,
    a_mention_follows_the_member_to_their_new_username,
    a_new_username_shows_on_the_members_kept_pages,
    followers_and_following_are_listed_newest_first,
    hidden_members_are_left_out_of_follow_lists_before_the_page_is_cut,
    a_blocked_member_sees_no_follow_lists_of_the_blocker,
    follow_lists_refuse_bad_pages_and_unknown_members,
    a_newcomers_starter_pack_is_whom_their_inviter_follows,
    a_hidden_inviter_gives_no_starter_pack,
);
