//! Invites: a member's codes, the allowance (3, then 3 more each calendar month), expiry, and
//! generation that never overdraws.

use std::time::Duration;

use chrono::{DateTime, Datelike, TimeZone, Utc};
use serde_json::{Value, json};

use crate::accounts::{outbox, request_sign_up, sign_up};
use crate::both_databases;
use crate::common::{TestApp, json};

const NONE_LEFT: &str = "Failed to create invite code. You may have reached your limit.";

async fn create(client: &reqwest::Client, app: &TestApp) -> (u16, Value) {
    json(client.post(app.url("/api/invites")).send().await.unwrap()).await
}

async fn invites_available(client: &reqwest::Client, app: &TestApp) -> i64 {
    let (status, me) = json(client.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    me["invitesAvailable"].as_i64().unwrap()
}

fn time(value: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(value.as_str().expect("an RFC 3339 string")).unwrap().with_timezone(&Utc)
}

async fn a_member_has_three_invites_then_the_specs_message(app: TestApp) {
    let ada = app.member("ada").await;
    assert_eq!(invites_available(&ada.client, &app).await, 3);
    let mut codes = Vec::new();
    for left in [2, 1, 0] {
        let (status, invite) = create(&ada.client, &app).await;
        assert_eq!(status, 201, "{invite}");
        let code = invite["code"].as_str().unwrap().to_string();
        assert_eq!(code.len(), 12);
        assert!(code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()), "{code}");
        assert_eq!(invite["isUsed"], false);
        assert_eq!(invite["usedAt"], Value::Null);
        assert!(invite["id"].is_i64());
        assert_eq!(invites_available(&ada.client, &app).await, left);
        codes.push(code);
    }
    let (status, body) = create(&ada.client, &app).await;
    assert_eq!((status, body), (400, json!({ "message": NONE_LEFT })));
    assert_eq!(invites_available(&ada.client, &app).await, 0);

    // Listed newest first; every code distinct.
    let (status, list) = json(ada.client.get(app.url("/api/invites")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let listed: Vec<&str> = list.as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect();
    let newest_first: Vec<&str> = codes.iter().rev().map(String::as_str).collect();
    assert_eq!(listed, newest_first);
}

async fn invites_expire_after_seven_days(app: TestApp) {
    let ada = app.member("ada").await;
    let (_, invite) = create(&ada.client, &app).await;
    assert_eq!(time(&invite["expiresAt"]) - time(&invite["createdAt"]), chrono::Duration::days(7));
    let code = invite["code"].as_str().unwrap();

    app.clock.advance(Duration::from_secs(7 * 24 * 3600 - 60));
    let (status, _) = request_sign_up(&app, "early@example.com", code).await;
    assert_eq!(status, 200, "valid just before the week is over");
    app.clock.advance(Duration::from_secs(61));
    let (status, body) = request_sign_up(&app, "late@example.com", code).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (400, "Invalid or expired invite code"));
}

async fn a_used_invite_shows_when_it_was_used(app: TestApp) {
    let ada = app.member("ada").await;
    let (_, invite) = create(&ada.client, &app).await;
    let code = invite["code"].as_str().unwrap();
    let (_, grace) = sign_up(&app, "grace@example.com", code).await;
    assert_eq!(grace["username"], "grace");

    let (_, list) = json(ada.client.get(app.url("/api/invites")).send().await.unwrap()).await;
    let listed = &list[0];
    assert_eq!(listed["code"], code);
    assert_eq!(listed["isUsed"], true);
    assert!(time(&listed["usedAt"]) >= time(&listed["createdAt"]));
    // A second sign-up with the same code is refused.
    let (status, _) = request_sign_up(&app, "third@example.com", code).await;
    assert_eq!(status, 400);
    assert!(crate::mailbox::mail_to(&outbox(&app), "third@example.com").is_empty());
}

async fn members_see_only_their_own_invites(app: TestApp) {
    let ada = app.member("ada").await;
    let grace = app.member("grace").await;
    create(&ada.client, &app).await;
    let (status, list) = json(grace.client.get(app.url("/api/invites")).send().await.unwrap()).await;
    assert_eq!((status, list), (200, json!([])));
    let (status, body) = json(app.client.post(app.url("/api/invites")).send().await.unwrap()).await;
    assert_eq!((status, body), (401, json!({ "message": "Unauthorized" })));
}

/// Moves the clock to one hour into the next calendar month (UTC).
fn move_to_next_month(app: &TestApp) {
    let now = Utc.timestamp_millis_opt(app.clock.now()).unwrap();
    let (year, month) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    let next_month = Utc.with_ymd_and_hms(year, month, 1, 1, 0, 0).unwrap();
    app.clock.advance((next_month - now).to_std().unwrap());
}

/// A client with a new session for a member (the move may be longer than the idle timeout).
async fn logged_in(app: &TestApp, user_id: i64) -> reqwest::Client {
    let token = murmur::sessions::create(&app.state.db.write, user_id, app.clock.now()).await.unwrap();
    let name = murmur::session_cookie::name(&app.state.config);
    crate::common::client_for(&app.base, Some(&format!("{name}={token}")))
}

async fn three_more_invites_arrive_with_each_calendar_month(app: TestApp) {
    let ada = app.member("ada").await;
    let grace = app.member("grace").await;
    for _ in 0..3 {
        assert_eq!(create(&ada.client, &app).await.0, 201);
    }
    assert_eq!(create(&ada.client, &app).await.0, 400);

    move_to_next_month(&app);
    let ada_client = logged_in(&app, ada.id).await;
    assert_eq!(invites_available(&ada_client, &app).await, 3);
    assert_eq!(invites_available(&ada_client, &app).await, 3, "once per month, not per call");
    assert_eq!(create(&ada_client, &app).await.0, 201);
    assert_eq!(invites_available(&ada_client, &app).await, 2);

    // Generating is what may come first in a month: it tops up before taking one.
    move_to_next_month(&app);
    let ada_client = logged_in(&app, ada.id).await;
    let (status, _) = create(&ada_client, &app).await;
    assert_eq!(status, 201);
    assert_eq!(invites_available(&ada_client, &app).await, 4);

    // A member who was away gets 3 for every month that began meanwhile, on top of the rest.
    let grace_client = logged_in(&app, grace.id).await;
    assert_eq!(invites_available(&grace_client, &app).await, 9, "3 to start, then 3 for each of two months");

    // Across a year boundary: last topped up twelve months ago.
    let month = murmur::invites::month_of(app.clock.now());
    sqlx::query("UPDATE users SET invites_available = 0, invites_month = $1 WHERE id = $2")
        .bind(month - 100)
        .bind(grace.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    assert_eq!(invites_available(&grace_client, &app).await, 36);
}

async fn parallel_generation_never_overdraws(app: TestApp) {
    let ada = app.member("ada").await;
    let attempts = (0..10).map(|_| {
        let client = ada.client.clone();
        let url = app.url("/api/invites");
        tokio::spawn(async move { client.post(url).send().await.unwrap().status().as_u16() })
    });
    let statuses: Vec<u16> = futures::future::join_all(attempts).await.into_iter().map(Result::unwrap).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 3, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 400).count(), 7, "{statuses:?}");
    assert_eq!(invites_available(&ada.client, &app).await, 0);
    let made: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invites WHERE owner_id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(made, 3);
}

async fn invite_generation_is_rate_limited_per_member(app: TestApp) {
    let ada = app.member("ada").await;
    sqlx::query("UPDATE users SET invites_available = 50 WHERE id = $1")
        .bind(ada.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    for _ in 0..10 {
        assert_eq!(create(&ada.client, &app).await.0, 201);
    }
    let response = ada.client.post(app.url("/api/invites")).send().await.unwrap();
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
    assert_eq!(invites_available(&ada.client, &app).await, 40, "a refused request takes nothing");
    app.clock.advance(Duration::from_secs(61));
    assert_eq!(create(&ada.client, &app).await.0, 201);
}

both_databases!(
    a_member_has_three_invites_then_the_specs_message,
    invites_expire_after_seven_days,
    a_used_invite_shows_when_it_was_used,
    members_see_only_their_own_invites,
    three_more_invites_arrive_with_each_calendar_month,
    parallel_generation_never_overdraws,
    invite_generation_is_rate_limited_per_member,
);
