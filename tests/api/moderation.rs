//! Moderation: members' reports (validation, one open report per thing, the hourly limit), who
//! may call the moderators' API and act on whom, each action with its log entry in one
//! transaction, what a suspension, a removal and taken invites do elsewhere, the invite tree,
//! the queue, the log every member reads, and `murmur role set`.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Value, json};

use crate::accounts::{follow as use_link, operator_code, outbox, request_login, request_sign_up, sign_up};
use crate::both_databases;
use crate::common::{Member, TestApp, json as read};
use crate::mailbox;
use crate::posts::{delete, get, id, like, post, post_empty, repost, seen_by, write};

const ONLY_MODERATORS: &str = "Only moderators can do this";
const NOT_ON_AN_ADMIN: &str = "Moderators can't act on an admin";
const NOT_ON_YOURSELF: &str = "You can't act on yourself";
const SUSPENDED: &str = "This account is suspended";
const INVALID_CODE: &str = "Invalid or expired invite code";
const INVITES_TAKEN: &str = "Your invites were taken away by moderators";

// ---- helpers -------------------------------------------------------------------------------

async fn with_role(app: &TestApp, username: &str, role: &str) -> Member {
    let member = app.member(username).await;
    sqlx::query("UPDATE users SET role = $1 WHERE id = $2")
        .bind(role)
        .bind(member.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    member
}

async fn report(app: &TestApp, who: &Member, body: Value) -> (u16, Value) {
    post(app, who, "/api/reports", body).await
}

/// Reports a post as spam, asserting it was taken; answers the report's id.
async fn report_post(app: &TestApp, who: &Member, post_id: i64) -> i64 {
    let (status, body) = report(app, who, json!({ "postId": post_id, "reason": "spam" })).await;
    assert_eq!(status, 201, "{body}");
    id(&body)
}

async fn scalar(app: &TestApp, sql: &'static str, bind: i64) -> i64 {
    sqlx::query_scalar(sql).bind(bind).fetch_one(&app.state.db.read).await.unwrap()
}

async fn log_rows(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM moderation_log")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

async fn open_reports(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM reports WHERE resolved_at IS NULL")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

async fn suspended_until(app: &TestApp, member: i64) -> Option<i64> {
    sqlx::query_scalar("SELECT suspended_until FROM users WHERE id = $1")
        .bind(member)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

fn suspend_path(member: i64) -> String {
    format!("/api/moderation/members/{member}/suspend")
}

pub(crate) async fn suspend(app: &TestApp, moderator: &Member, member: i64) -> Value {
    let (status, body) = post(app, moderator, &suspend_path(member), json!({ "reason": "Spam wave" })).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Every moderator's call of the OpenAPI document (all of `/api/moderation/` but the log), with
/// a body each would accept from a moderator, for a member `member` and a post `post`.
async fn moderator_calls(app: &TestApp, member: i64, post: i64, report: i64) -> Vec<(String, String, Value)> {
    let (status, doc) = read(app.client.get(app.url("/api/openapi.json")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let mut calls = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/moderation/") || path == "/api/moderation/log" {
            continue;
        }
        for method in item.as_object().unwrap().keys() {
            let filled = if path.contains("/reports/") {
                path.replace("{id}", &report.to_string())
            } else if path.contains("/posts/") {
                path.replace("{id}", &post.to_string())
            } else {
                path.replace("{id}", &member.to_string())
            };
            let body = if path.ends_with("/invites") {
                json!({ "allowed": false, "reason": "Because" })
            } else {
                json!({ "reason": "Because" })
            };
            calls.push((method.clone(), filled, body));
        }
    }
    assert!(calls.len() >= 7, "the moderators' calls are in the document: {calls:?}");
    calls
}

async fn call(app: &TestApp, who: &Member, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let request = who.client.request(method.to_uppercase().parse().unwrap(), app.url(path));
    let request = if method == "get" { request } else { request.json(body) };
    read(request.send().await.unwrap()).await
}

// ---- reports -------------------------------------------------------------------------------

async fn a_report_names_one_thing_with_a_known_reason(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Buy followers here").await);
    let long = "a".repeat(1001);

    for (body, status, message) in [
        (json!({ "reason": "spam" }), 400, "Say what you report: a postId, a userId or messageIds"),
        (
            json!({ "postId": hers, "userId": ada.id, "reason": "spam" }),
            400,
            "Report one thing at a time: a postId, a userId or messageIds",
        ),
        (json!({ "postId": hers, "reason": "rude" }), 400, "Choose a reason: spam, harassment, impersonation or other"),
        (json!({ "postId": hers }), 400, "Choose a reason: spam, harassment, impersonation or other"),
        (
            json!({ "postId": hers, "reason": "other", "comment": long }),
            400,
            "A comment can be at most 1000 characters long",
        ),
        (json!({ "userId": bob.id, "reason": "spam" }), 400, "You can't report yourself"),
        (json!({ "userId": 999_999, "reason": "spam" }), 404, "User not found"),
        (json!({ "postId": 999_999, "reason": "spam" }), 404, "Post not found"),
    ] {
        let (got, answer) = report(&app, &bob, body.clone()).await;
        assert_eq!((got, answer["message"].as_str()), (status, Some(message)), "{body}");
    }
    let (status, body) = report(&app, &ada, json!({ "postId": hers, "reason": "spam" })).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("You can't report your own post")));
    assert_eq!(open_reports(&app).await, 0, "nothing refused was stored");

    let (status, made) =
        report(&app, &bob, json!({ "postId": hers, "reason": "spam", "comment": "  a bot, surely \n" })).await;
    assert_eq!(status, 201, "{made}");
    let keys: BTreeSet<&str> = made.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["id", "reason", "comment", "createdAt", "postText", "messages"]));
    assert_eq!((&made["reason"], &made["comment"]), (&json!("spam"), &json!("a bot, surely")));
    let (status, of_member) = report(&app, &bob, json!({ "userId": ada.id, "reason": "impersonation" })).await;
    assert_eq!((status, &of_member["comment"]), (201, &json!("")));
    assert_ne!(id(&of_member), id(&made), "a post and its author are two things to report");
}

async fn a_second_report_of_the_same_thing_rewrites_the_first(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let moderator = with_role(&app, "mod", "moderator").await;
    let hers = id(&write(&app, &ada, "You are all idiots").await);
    let carols_repost = id(&repost(&app, &carol, hers).await);

    let first = report_post(&app, &bob, hers).await;
    let (status, again) =
        report(&app, &bob, json!({ "postId": hers, "reason": "harassment", "comment": "Worse than spam" })).await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(id(&again), first, "the same report, rewritten");
    assert_eq!((&again["reason"], &again["comment"]), (&json!("harassment"), &json!("Worse than spam")));
    // A repost's card shows the original: reporting it reports the original.
    let (_, through_repost) = report(&app, &bob, json!({ "postId": carols_repost, "reason": "other" })).await;
    assert_eq!(id(&through_repost), first);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM reports WHERE reporter_id = $1", bob.id).await, 1);
    // Another member's report is their own.
    assert_ne!(report_post(&app, &carol, hers).await, first);

    // Once the first is resolved, a new report is a new one.
    let (status, body) =
        post(&app, &moderator, &format!("/api/moderation/reports/{first}/dismiss"), json!({ "reason": "Banter" }))
            .await;
    assert_eq!(status, 200, "{body}");
    let later = report_post(&app, &bob, hers).await;
    assert!(later > first);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM reports WHERE reporter_id = $1", bob.id).await, 2);
}

async fn a_member_sends_at_most_20_reports_an_hour(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    app.at_start_of_window(murmur::clock::HOUR);
    for n in 0..20 {
        let post_id = id(&write(&app, &ada, &format!("Spam number {n}")).await);
        report_post(&app, &bob, post_id).await;
    }
    let last = id(&write(&app, &ada, "One too many").await);
    let response = bob
        .client
        .post(app.url("/api/reports"))
        .json(&json!({ "postId": last, "reason": "spam" }))
        .send()
        .await
        .unwrap();
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    let (status, body) = read(response).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["message"].as_str().unwrap().contains("Please wait"), "{body}");
    assert!((1..=3600).contains(&retry_after), "{retry_after}");
    assert_eq!(open_reports(&app).await, 20);
    // Another member still may; and Bob may again in the next hour.
    let carol = app.member("carol").await;
    report_post(&app, &carol, last).await;
    app.clock.advance(Duration::from_secs(retry_after));
    report_post(&app, &bob, last).await;
}

// ---- who may call and act --------------------------------------------------------------------

async fn members_get_403_from_every_moderator_call(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Hello").await);
    let report_id = report_post(&app, &bob, hers).await;

    for (method, path, body) in moderator_calls(&app, ada.id, hers, report_id).await {
        let (status, answer) = call(&app, &bob, &method, &path, &body).await;
        assert_eq!((status, answer), (403, json!({ "message": ONLY_MODERATORS })), "{method} {path}");
    }
    assert_eq!(log_rows(&app).await, 0);
    assert_eq!(open_reports(&app).await, 1);
    assert_eq!(suspended_until(&app, ada.id).await, None);
    assert_eq!(seen_by(&app, &bob, hers).await["isDeleted"], false);
}

async fn a_moderator_cannot_act_on_an_admin(app: TestApp) {
    let admin = with_role(&app, "boss", "admin").await;
    let moderator = with_role(&app, "mod", "moderator").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &admin, "Rules of the house").await);
    let report_id = report_post(&app, &bob, hers).await;

    for (method, path, body) in moderator_calls(&app, admin.id, hers, report_id).await {
        if method == "get" {
            continue; // reading the queue and the tree is not acting
        }
        let (status, answer) = call(&app, &moderator, &method, &path, &body).await;
        assert_eq!((status, answer), (403, json!({ "message": NOT_ON_AN_ADMIN })), "{method} {path}");
    }
    assert_eq!(log_rows(&app).await, 0);
    assert_eq!(suspended_until(&app, admin.id).await, None);

    // An admin may act on a moderator, and a moderator on a moderator.
    let other = with_role(&app, "mod2", "moderator").await;
    suspend(&app, &moderator, other.id).await;
    let (status, body) = post(
        &app,
        &admin,
        &format!("/api/moderation/members/{}/invites", moderator.id),
        json!({ "allowed": false, "reason": "Too many invites" }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

async fn nobody_acts_on_themselves(app: TestApp) {
    let admin = with_role(&app, "boss", "admin").await;
    let moderator = with_role(&app, "mod", "moderator").await;
    let bob = app.member("bob").await;
    for who in [&admin, &moderator] {
        let theirs = id(&write(&app, who, "Mine").await);
        let report_id = report_post(&app, &bob, theirs).await;
        for (method, path, body) in moderator_calls(&app, who.id, theirs, report_id).await {
            if method == "get" {
                continue;
            }
            let (status, answer) = call(&app, who, &method, &path, &body).await;
            assert_eq!(
                (status, answer),
                (403, json!({ "message": NOT_ON_YOURSELF })),
                "{} {method} {path}",
                who.username
            );
        }
    }
    assert_eq!(log_rows(&app).await, 0);
}

async fn unknown_members_posts_and_reports_are_404(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    for (method, path, body) in moderator_calls(&app, 999_999, 999_999, 999_999).await {
        if path == "/api/moderation/reports" {
            continue;
        }
        let (status, answer) = call(&app, &moderator, &method, &path, &body).await;
        assert_eq!(status, 404, "{method} {path}: {answer}");
    }
}

// ---- actions and their log -------------------------------------------------------------------

async fn each_action_answers_the_log_entry_it_wrote(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Cheap pills").await);
    let report_id = report_post(&app, &bob, hers).await;

    let mut entries = Vec::new();
    for (path, body) in [
        (format!("/api/moderation/reports/{report_id}/dismiss"), json!({ "reason": "Not spam" })),
        (format!("/api/moderation/posts/{hers}/remove"), json!({ "reason": "Spam after all" })),
        (suspend_path(ada.id), json!({ "reason": "Spammer", "days": 3 })),
        (format!("/api/moderation/members/{}/unsuspend", ada.id), json!({ "reason": "Appeal heard" })),
        (format!("/api/moderation/members/{}/invites", ada.id), json!({ "allowed": false, "reason": "Invited bots" })),
        (format!("/api/moderation/members/{}/invites", ada.id), json!({ "allowed": true, "reason": "Trust again" })),
        (suspend_path(ada.id), json!({ "reason": "For good" })),
    ] {
        let (status, entry) = post(&app, &moderator, &path, body).await;
        assert_eq!(status, 200, "{path}: {entry}");
        entries.push(entry);
    }
    let actions: Vec<&str> = entries.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["dismiss", "remove_post", "suspend", "unsuspend", "take_invites", "give_invites", "suspend"]);
    let named = |username: &str, display_name: &str| json!({ "username": username, "displayName": display_name });
    for entry in &entries {
        assert_eq!(entry["moderator"], named("mod", "Mod"), "{entry}");
        assert_eq!(entry["member"], named("ada", "Ada"), "{entry}");
    }
    assert_eq!(
        (&entries[0]["postId"], &entries[1]["postId"], &entries[2]["postId"]),
        (&json!(hers), &json!(hers), &Value::Null)
    );
    assert_eq!(entries[1]["reason"], "Spam after all");
    let until = chrono::DateTime::parse_from_rfc3339(entries[2]["until"].as_str().unwrap()).unwrap();
    let created = chrono::DateTime::parse_from_rfc3339(entries[2]["createdAt"].as_str().unwrap()).unwrap();
    assert_eq!(until - created, chrono::Duration::days(3));
    assert_eq!(entries[6]["until"], Value::Null, "until lifted");
    assert_eq!(suspended_until(&app, ada.id).await, Some(i64::MAX));

    // The log reads back the same entries, newest first; a member reads the role, not who acted.
    let (status, log) = get(&app, &bob, "/api/moderation/log").await;
    assert_eq!(status, 200, "{log}");
    let newest_first: Vec<Value> = entries
        .iter()
        .rev()
        .map(|entry| {
            let mut entry = entry.clone();
            entry["moderator"] = Value::Null;
            entry
        })
        .collect();
    assert_eq!(log, json!(newest_first));

    // An action that changes nothing is refused and writes nothing.
    let (status, _) = post(
        &app,
        &moderator,
        &format!("/api/moderation/members/{}/invites", bob.id),
        json!({ "allowed": true, "reason": "x" }),
    )
    .await;
    assert_eq!(status, 409);
    let (status, _) =
        post(&app, &moderator, &format!("/api/moderation/members/{}/unsuspend", bob.id), json!({ "reason": "x" }))
            .await;
    assert_eq!(status, 409);
    for reason in [json!(""), json!("   "), json!("a".repeat(1001))] {
        let (status, _) = post(&app, &moderator, &suspend_path(bob.id), json!({ "reason": reason })).await;
        assert_eq!(status, 400, "{reason}");
    }
    for days in [0, 3651] {
        let (status, body) =
            post(&app, &moderator, &suspend_path(bob.id), json!({ "reason": "x", "days": days })).await;
        assert_eq!((status, body["message"].as_str()), (400, Some("days must be between 1 and 3650")));
    }
    assert_eq!(log_rows(&app).await, 7);
    assert_eq!(suspended_until(&app, bob.id).await, None);
}

async fn an_action_whose_log_entry_cannot_be_written_does_not_happen(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Evidence").await);
    let report_id = report_post(&app, &bob, hers).await;
    // Suspended already (by hand, her session kept), so that lifting it has something to lift.
    let until = app.clock.now() + 5 * murmur::clock::DAY;
    sqlx::query("UPDATE users SET suspended_until = $1 WHERE id = $2")
        .bind(until)
        .bind(ada.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    // The log is gone: every action's last statement fails.
    sqlx::query("ALTER TABLE moderation_log RENAME TO moderation_log_away").execute(&app.state.db.write).await.unwrap();

    for (method, path, body) in moderator_calls(&app, ada.id, hers, report_id).await {
        if method == "get" {
            continue;
        }
        let (status, answer) = call(&app, &moderator, &method, &path, &body).await;
        assert_eq!(status, 500, "{path}: {answer}");
    }
    assert_eq!(open_reports(&app).await, 1, "the report is still open");
    assert_eq!(suspended_until(&app, ada.id).await, Some(until), "neither suspended anew nor lifted");
    assert_eq!(scalar(&app, "SELECT invites_taken FROM users WHERE id = $1", ada.id).await, 0);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM sessions WHERE user_id = $1", ada.id).await, 1);
    let (deleted_at, content): (Option<i64>, String) =
        sqlx::query_as("SELECT deleted_at, content FROM posts WHERE id = $1")
            .bind(hers)
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
    assert_eq!((deleted_at, content.as_str()), (None, "Evidence"), "the post is not removed");
    assert_eq!(
        scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications WHERE recipient_id = $1", ada.id).await,
        0
    );
}

async fn dismissing_resolves_every_open_report_of_that_thing_only(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let first = id(&write(&app, &ada, "First").await);
    let second = id(&write(&app, &ada, "Second").await);
    report_post(&app, &bob, first).await;
    let newest = report_post(&app, &carol, first).await;
    let of_second = report_post(&app, &bob, second).await;
    let (_, about_ada) = report(&app, &carol, json!({ "userId": ada.id, "reason": "spam" })).await;

    let (status, entry) =
        post(&app, &moderator, &format!("/api/moderation/reports/{newest}/dismiss"), json!({ "reason": "Fine" })).await;
    assert_eq!(status, 200, "{entry}");
    assert_eq!(open_reports(&app).await, 2, "the other post's and the member's reports stay open");
    let (_, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    let left: BTreeSet<i64> = queue.as_array().unwrap().iter().map(id).collect();
    assert_eq!(left, BTreeSet::from([id(&about_ada), of_second]));
    let (status, body) =
        post(&app, &moderator, &format!("/api/moderation/reports/{newest}/dismiss"), json!({ "reason": "Again" }))
            .await;
    assert_eq!((status, body["message"].as_str()), (409, Some("This report was already resolved")));
}

// ---- what actions do elsewhere ---------------------------------------------------------------

async fn a_suspension_ends_the_members_sessions_at_once(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Spam").await);
    report_post(&app, &bob, hers).await;
    // A second browser of hers.
    murmur::sessions::create(&app.state.db.write, ada.id, app.clock.now()).await.unwrap();
    assert_eq!(get(&app, &ada, "/api/auth/me").await.0, 200);

    suspend(&app, &moderator, ada.id).await;

    assert_eq!(get(&app, &ada, "/api/auth/me").await.0, 401, "her open session ended");
    assert_eq!(post(&app, &ada, "/api/posts", json!({ "content": "Still here?" })).await.0, 401);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM sessions WHERE user_id = $1", ada.id).await, 0);
    assert_eq!(open_reports(&app).await, 0, "her open reports are resolved");
    assert_eq!(get(&app, &bob, "/api/auth/me").await.0, 200, "nobody else's session ends");
}

async fn a_suspended_member_gets_no_login_link_until_lifted(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let code = operator_code(&app).await;
    // A link asked for before the suspension.
    let (status, _) = request_login(&app, &ada.email).await;
    assert_eq!(status, 200);
    let early = mailbox::nth_mail(&outbox(&app), &ada.email, 1).await.verify_link();

    suspend(&app, &moderator, ada.id).await;

    let (status, body) = request_login(&app, &ada.email).await;
    assert_eq!((status, body), (403, json!({ "message": SUSPENDED })));
    let (status, body) = request_sign_up(&app, &ada.email, &code).await;
    assert_eq!((status, body), (403, json!({ "message": SUSPENDED })));
    let (_, status, body) = use_link(&app, &early).await;
    assert_eq!((status, body), (403, json!({ "message": SUSPENDED })));
    // Strangers are answered as before.
    assert_eq!(request_login(&app, "stranger@example.com").await.0, 200);

    let (status, _) = post(
        &app,
        &moderator,
        &format!("/api/moderation/members/{}/unsuspend", ada.id),
        json!({ "reason": "Appeal heard" }),
    )
    .await;
    assert_eq!(status, 200);
    let (_, status, user) = use_link(&app, &early).await;
    assert_eq!((status, &user["username"]), (200, &json!("ada")), "the unused link works once lifted");
}

async fn a_suspension_ends_when_its_days_are_up(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let (status, _) = post(&app, &moderator, &suspend_path(ada.id), json!({ "reason": "Cool off", "days": 1 })).await;
    assert_eq!(status, 200);
    assert_eq!(request_login(&app, &ada.email).await.0, 403);

    app.clock.advance(Duration::from_secs(24 * 3600));
    assert_eq!(request_login(&app, &ada.email).await.0, 200, "over when its time is up, upkeep or not");
    let (_, tree) = get(&app, &moderator, &format!("/api/moderation/members/{}/invite-tree", ada.id)).await;
    assert_eq!(tree["member"]["status"], "active");
    assert!(suspended_until(&app, ada.id).await.is_some());
    murmur::jobs::upkeep(&app.state.db, &app.state.media, app.clock.now()).await.unwrap();
    assert_eq!(suspended_until(&app, ada.id).await, None, "upkeep clears it for the lists");
}

async fn a_suspended_members_invite_codes_are_refused(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let (status, invite) = post_empty(&app, &ada, "/api/invites").await;
    assert_eq!(status, 201, "{invite}");
    let code = invite["code"].as_str().unwrap();

    suspend(&app, &moderator, ada.id).await;
    let (status, body) = request_sign_up(&app, "grace@example.com", code).await;
    assert_eq!((status, body), (400, json!({ "message": INVALID_CODE })));

    post(&app, &moderator, &format!("/api/moderation/members/{}/unsuspend", ada.id), json!({ "reason": "ok" })).await;
    let (_, grace) = sign_up(&app, "grace@example.com", code).await;
    assert_eq!(grace["username"], "grace");
}

async fn taken_invites_refuse_new_codes_and_unused_ones(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let (_, invite) = post_empty(&app, &ada, "/api/invites").await;
    let code = invite["code"].as_str().unwrap();
    let invites = format!("/api/moderation/members/{}/invites", ada.id);

    let (status, _) = post(&app, &moderator, &invites, json!({ "allowed": false, "reason": "Invited bots" })).await;
    assert_eq!(status, 200);
    let (status, body) = post_empty(&app, &ada, "/api/invites").await;
    assert_eq!((status, body), (403, json!({ "message": INVITES_TAKEN })));
    let (status, body) = request_sign_up(&app, "grace@example.com", code).await;
    assert_eq!((status, body), (400, json!({ "message": INVALID_CODE })));
    assert_eq!(get(&app, &ada, "/api/auth/me").await.0, 200, "she can still use Murmur");

    let (status, _) = post(&app, &moderator, &invites, json!({ "allowed": true, "reason": "Trust again" })).await;
    assert_eq!(status, 200);
    assert_eq!(post_empty(&app, &ada, "/api/invites").await.0, 201);
    assert_eq!(request_sign_up(&app, "grace@example.com", code).await.0, 200);
}

async fn a_removed_post_is_gone_and_its_author_is_told_why(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "Something cruel").await);
    like(&app, &bob, hers).await;
    let bobs_repost = id(&repost(&app, &bob, hers).await);
    report_post(&app, &carol, hers).await;

    // Through the repost: the original is what goes.
    let (status, entry) = post(
        &app,
        &moderator,
        &format!("/api/moderation/posts/{bobs_repost}/remove"),
        json!({ "reason": "Harassment of a member" }),
    )
    .await;
    assert_eq!(status, 200, "{entry}");
    assert_eq!((&entry["action"], &entry["postId"]), (&json!("remove_post"), &json!(hers)));

    let (status, _) = get(&app, &carol, &format!("/api/posts/{hers}/thread")).await;
    assert_eq!(status, 404, "gone for everyone else");
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE id = $1", bobs_repost).await, 0);
    assert_eq!(scalar(&app, "SELECT like_count FROM posts WHERE id = $1", hers).await, 0);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM likes WHERE post_id = $1", hers).await, 0);
    let removed: (Option<i64>, Option<i64>, String) =
        sqlx::query_as("SELECT deleted_at, removed_at, content FROM posts WHERE id = $1")
            .bind(hers)
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
    assert!(removed.0.is_some() && removed.0 == removed.1, "{removed:?}");
    assert_eq!(removed.2, "Something cruel", "the text stays for its author and the moderators");
    assert_eq!(open_reports(&app).await, 0);

    let (_, notifications) = get(&app, &ada, "/api/notifications").await;
    assert_eq!(
        notifications.as_array().unwrap().iter().map(|n| n["type"].as_str().unwrap()).collect::<Vec<_>>(),
        ["removed"],
        "the like and repost notifications went with the post"
    );
    let told = &notifications[0];
    assert_eq!(told["post"], json!({ "id": hers, "content": "Something cruel" }));
    assert_eq!(told["reason"], "Harassment of a member");
    assert_eq!(told["actor"]["username"], "mod");
    let (_, bobs) = get(&app, &bob, "/api/notifications").await;
    assert_eq!(bobs, json!([]));

    let (status, _) =
        post(&app, &moderator, &format!("/api/moderation/posts/{hers}/remove"), json!({ "reason": "Again" })).await;
    assert_eq!(status, 404, "a removed post is not there to remove");
    let (status, _) = crate::posts::delete(&app, &ada, &format!("/api/posts/{hers}")).await;
    assert_eq!(status, 404, "nor to delete");
}

// ---- roles and the invite tree ---------------------------------------------------------------

async fn the_first_member_to_sign_up_is_admin(app: TestApp) {
    let (first, me) = sign_up(&app, "ada@example.com", &operator_code(&app).await).await;
    assert_eq!(me["role"], "admin");
    let (_, grace) = sign_up(&app, "grace@example.com", &operator_code(&app).await).await;
    assert_eq!(grace["role"], "member");
    let (status, queue) = read(first.get(app.url("/api/moderation/reports")).send().await.unwrap()).await;
    assert_eq!((status, queue), (200, json!([])));
}

async fn the_invite_tree_shows_who_invited_whom(app: TestApp) {
    let (ada, ada_user) = sign_up(&app, "ada@example.com", &operator_code(&app).await).await;
    let moderator = with_role(&app, "mod", "moderator").await;
    let code = |client: reqwest::Client| {
        let url = app.url("/api/invites");
        async move {
            let (status, invite) = read(client.post(url).send().await.unwrap()).await;
            assert_eq!(status, 201, "{invite}");
            invite["code"].as_str().unwrap().to_string()
        }
    };
    let (grace, grace_user) = sign_up(&app, "grace@example.com", &code(ada.clone()).await).await;
    let (_, henry) = sign_up(&app, "henry@example.com", &code(ada.clone()).await).await;
    let (_, ivy) = sign_up(&app, "ivy@example.com", &code(grace.clone()).await).await;
    suspend(&app, &moderator, id(&henry)).await;
    let (status, _) = post(
        &app,
        &moderator,
        &format!("/api/moderation/members/{}/invites", id(&grace_user)),
        json!({ "allowed": false, "reason": "Brought a bot" }),
    )
    .await;
    assert_eq!(status, 200);

    let in_tree = |user: &Value, status: &str, taken: bool, count: i64| {
        json!({ "id": user["id"], "username": user["username"], "displayName": user["displayName"],
                "status": status, "invitesTaken": taken, "invitedCount": count })
    };
    let tree_of = |user: &Value| format!("/api/moderation/members/{}/invite-tree", id(user));
    let (status, tree) = get(&app, &moderator, &tree_of(&grace_user)).await;
    assert_eq!(status, 200, "{tree}");
    assert_eq!(
        tree,
        json!({
            "member": in_tree(&grace_user, "active", true, 1),
            "invitedBy": in_tree(&ada_user, "active", false, 2),
            "invited": [in_tree(&ivy, "active", false, 0)],
        })
    );
    let (_, tree) = get(&app, &moderator, &tree_of(&ada_user)).await;
    assert_eq!(tree["invitedBy"], Value::Null, "the instance invited her");
    assert_eq!(
        tree["invited"],
        json!([in_tree(&grace_user, "active", true, 1), in_tree(&henry, "suspended", false, 0)])
    );
    let (_, page) = get(&app, &moderator, &format!("{}?limit=1&offset=1", tree_of(&ada_user))).await;
    assert_eq!(page["invited"].as_array().unwrap().iter().map(id).collect::<Vec<_>>(), [id(&henry)]);
}

async fn an_operator_sets_roles_from_the_command_line(app: TestApp) {
    let ada = app.member("ada").await;
    let database_url = app.state.config.database_url.clone();
    let murmur = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_murmur"))
            .args(args)
            .arg("--data-dir")
            .arg(app.data_dir.path())
            .env("DATABASE_URL", &database_url)
            .output()
            .expect("the murmur binary runs")
    };
    assert_eq!(get(&app, &ada, "/api/moderation/reports").await.0, 403);

    let done = murmur(&["role", "set", "@ada", "moderator"]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    assert_eq!(String::from_utf8_lossy(&done.stdout).trim(), "@ada is now a moderator");
    assert_eq!(get(&app, &ada, "/api/moderation/reports").await.0, 200);
    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(me["role"], "moderator");

    let unknown = murmur(&["role", "set", "nobody", "admin"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no member is called @nobody"));
    let bad_role = murmur(&["role", "set", "ada", "owner"]);
    assert!(!bad_role.status.success());
    assert!(String::from_utf8_lossy(&bad_role.stderr).contains("member, moderator or admin"));

    assert!(murmur(&["role", "set", "ada", "member"]).status.success());
    assert_eq!(get(&app, &ada, "/api/moderation/reports").await.0, 403);
}

// ---- the queue and the log -------------------------------------------------------------------

async fn the_queue_groups_open_reports_newest_first_without_reporters(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let dave = app.member("dave").await;
    let hers = id(&write(&app, &ada, "Crypto giveaway").await);
    let older = id(&write(&app, &ada, "Old spam").await);
    // Earlier history: a dismissed report about Ada.
    let dismissed = report_post(&app, &dave, older).await;
    post(&app, &moderator, &format!("/api/moderation/reports/{dismissed}/dismiss"), json!({ "reason": "Fine" })).await;

    let (_, first) = report(&app, &carol, json!({ "postId": hers, "reason": "spam", "comment": "Scam link" })).await;
    let (_, about_bob) = report(&app, &carol, json!({ "userId": bob.id, "reason": "impersonation" })).await;
    let (_, second) = report(&app, &dave, json!({ "postId": hers, "reason": "other" })).await;

    let (status, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    assert_eq!(status, 200, "{queue}");
    let groups = queue.as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let post_group = &groups[0];
    assert_eq!(post_group["id"], id(&second), "the newest open report names the group");
    assert_eq!((&post_group["target"], &post_group["reportCount"]), (&json!("post"), &json!(2)));
    assert_eq!((&post_group["post"]["id"], &post_group["post"]["content"]), (&json!(hers), &json!("Crypto giveaway")));
    assert_eq!(post_group["member"]["username"], "ada");
    // The reports as their reporters got them back, with the post's words for the moderators.
    let mut reported = json!([second, first]);
    for report in reported.as_array_mut().unwrap() {
        report["postText"] = json!("Crypto giveaway");
    }
    assert_eq!(post_group["reports"], reported);
    assert_eq!(post_group["history"]["earlierReports"], 1);
    let actions = post_group["history"]["actions"].as_array().unwrap();
    assert_eq!((actions.len(), &actions[0]["action"]), (1, &json!("dismiss")));

    let member_group = &groups[1];
    assert_eq!(member_group["id"], id(&about_bob));
    assert_eq!((&member_group["target"], &member_group["post"]), (&json!("member"), &Value::Null));
    assert_eq!(member_group["member"]["username"], "bob");
    assert_eq!(member_group["history"], json!({ "earlierReports": 0, "actions": [] }));

    for reporter in [&carol, &dave] {
        assert!(!queue.to_string().contains(&reporter.username), "the queue names no reporter");
    }
    let (_, page) = get(&app, &moderator, "/api/moderation/reports?limit=1&offset=1").await;
    assert_eq!(page.as_array().unwrap().iter().map(id).collect::<Vec<_>>(), [id(&about_bob)]);

    // A second report about Bob: his group comes first, still one group.
    let (_, again) = report(&app, &dave, json!({ "userId": bob.id, "reason": "spam" })).await;
    let (_, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    let groups: Vec<(i64, Value)> =
        queue.as_array().unwrap().iter().map(|g| (id(g), g["reportCount"].clone())).collect();
    assert_eq!(groups, [(id(&again), json!(2)), (id(&second), json!(2))]);
}

async fn a_report_keeps_the_words_it_reported_when_the_post_is_edited_or_deleted(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "You are all idiots").await);
    let (status, bobs) = report(&app, &bob, json!({ "postId": hers, "reason": "harassment" })).await;
    // The words are the moderators' to read, not the reporter's (who may not see the post).
    assert_eq!((status, &bobs["postText"]), (201, &Value::Null), "{bobs}");
    crate::edits::edit(&app, &ada, hers, "Lovely weather").await;
    // Carol reports it as it reads now; a report of a member keeps no words.
    report_post(&app, &carol, hers).await;
    report(&app, &carol, json!({ "userId": ada.id, "reason": "spam" })).await;

    assert_eq!(delete(&app, &ada, &format!("/api/posts/{hers}")).await.0, 204);

    let (status, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    assert_eq!(status, 200, "{queue}");
    let group = queue.as_array().unwrap().iter().find(|g| g["target"] == "post").expect("the post's group").clone();
    assert_eq!((&group["post"]["isDeleted"], &group["post"]["content"]), (&json!(true), &json!("")));
    let words: Vec<&Value> = group["reports"].as_array().unwrap().iter().map(|r| &r["postText"]).collect();
    assert_eq!(words, [&json!("Lovely weather"), &json!("You are all idiots")], "newest first, each as reported");
    let member_group = queue.as_array().unwrap().iter().find(|g| g["target"] == "member").unwrap().clone();
    assert_eq!(member_group["reports"][0]["postText"], Value::Null);
}

async fn every_member_reads_the_log_and_no_reporter_is_named(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "Spam").await);
    let reported = report_post(&app, &carol, hers).await;
    post(&app, &moderator, &format!("/api/moderation/reports/{reported}/dismiss"), json!({ "reason": "Not spam" }))
        .await;
    suspend(&app, &moderator, ada.id).await;

    let (status, log) = get(&app, &bob, "/api/moderation/log").await;
    assert_eq!(status, 200, "{log}");
    let entries = log.as_array().unwrap();
    assert_eq!(entries.iter().map(|e| e["action"].as_str().unwrap()).collect::<Vec<_>>(), ["suspend", "dismiss"]);
    let keys: BTreeSet<&str> = entries[1].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "id",
            "createdAt",
            "action",
            "reason",
            "moderatorRole",
            "moderator",
            "member",
            "postId",
            "until"
        ])
    );
    assert_eq!(entries[1]["reason"], "Not spam");
    assert!(!log.to_string().contains("carol"), "the reporter is never named: {log}");
    let (_, page) = get(&app, &carol, "/api/moderation/log?limit=1&offset=1").await;
    assert_eq!(page.as_array().unwrap().iter().map(id).collect::<Vec<_>>(), [id(&entries[1])]);
}

async fn the_log_names_the_role_to_members_and_the_moderator_to_moderators(app: TestApp) {
    let admin = with_role(&app, "boss", "admin").await;
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "Spam").await);
    let reported = report_post(&app, &carol, hers).await;
    post(&app, &moderator, &format!("/api/moderation/reports/{reported}/dismiss"), json!({ "reason": "Not spam" }))
        .await;
    suspend(&app, &admin, ada.id).await;

    let by = |log: &Value| -> Vec<(Value, Value)> {
        log.as_array()
            .unwrap()
            .iter()
            .map(|e| (e["moderatorRole"].clone(), e["moderator"]["username"].clone()))
            .collect()
    };
    let (status, log) = get(&app, &bob, "/api/moderation/log").await;
    assert_eq!(status, 200, "{log}");
    assert_eq!(by(&log), [(json!("admin"), Value::Null), (json!("moderator"), Value::Null)]);
    assert!(log.as_array().unwrap().iter().all(|e| e["moderator"].is_null()), "{log}");
    assert!(!log.to_string().contains("\"mod\"") && !log.to_string().contains("boss"), "no moderator named: {log}");
    for who in [&moderator, &admin] {
        let (status, log) = get(&app, who, "/api/moderation/log").await;
        assert_eq!(status, 200, "{log}");
        assert_eq!(by(&log), [(json!("admin"), json!("boss")), (json!("moderator"), json!("mod"))], "{}", who.username);
    }
}

async fn the_queue_links_each_post_and_counts_the_members_who_reported_it(app: TestApp) {
    let moderator = with_role(&app, "mod", "moderator").await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let dave = app.member("dave").await;
    let root = id(&write(&app, &bob, "What do you think?").await);
    let (_, reply) =
        post(&app, &ada, "/api/posts", json!({ "content": "Buy followers here", "replyToId": root })).await;
    let reply = id(&reply);
    for who in [&carol, &dave, &carol] {
        report_post(&app, who, reply).await;
    }
    report(&app, &carol, json!({ "userId": bob.id, "reason": "spam" })).await;

    let (status, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    assert_eq!(status, 200, "{queue}");
    let groups = queue.as_array().unwrap();
    let post_group = groups.iter().find(|g| g["target"] == "post").unwrap();
    // The post and what the thread link needs: the reply's id, and the post it answers.
    assert_eq!(
        (&post_group["postId"], &post_group["post"]["id"], &post_group["post"]["replyToId"]),
        (&json!(reply), &json!(reply), &json!(root))
    );
    assert_eq!(post_group["reportCount"], 2, "Carol and Dave, Carol once: {post_group}");
    let member_group = groups.iter().find(|g| g["target"] == "member").unwrap();
    assert_eq!((&member_group["postId"], &member_group["reportCount"]), (&Value::Null, &json!(1)));
    for reporter in [&carol, &dave] {
        assert!(!queue.to_string().contains(&reporter.username), "never who reported");
    }
    // A member gets no queue at all.
    let (status, _) = get(&app, &ada, "/api/moderation/reports").await;
    assert_eq!(status, 403);
}

both_databases!(
    the_log_names_the_role_to_members_and_the_moderator_to_moderators,
    the_queue_links_each_post_and_counts_the_members_who_reported_it,
    a_report_names_one_thing_with_a_known_reason,
    a_second_report_of_the_same_thing_rewrites_the_first,
    a_member_sends_at_most_20_reports_an_hour,
    members_get_403_from_every_moderator_call,
    a_moderator_cannot_act_on_an_admin,
    nobody_acts_on_themselves,
    unknown_members_posts_and_reports_are_404,
    each_action_answers_the_log_entry_it_wrote,
    an_action_whose_log_entry_cannot_be_written_does_not_happen,
    dismissing_resolves_every_open_report_of_that_thing_only,
    a_suspension_ends_the_members_sessions_at_once,
    a_suspended_member_gets_no_login_link_until_lifted,
    a_suspension_ends_when_its_days_are_up,
    a_suspended_members_invite_codes_are_refused,
    taken_invites_refuse_new_codes_and_unused_ones,
    a_removed_post_is_gone_and_its_author_is_told_why,
    the_first_member_to_sign_up_is_admin,
    the_invite_tree_shows_who_invited_whom,
    an_operator_sets_roles_from_the_command_line,
    the_queue_groups_open_reports_newest_first_without_reporters,
    a_report_keeps_the_words_it_reported_when_the_post_is_edited_or_deleted,
    every_member_reads_the_log_and_no_reporter_is_named,
);
