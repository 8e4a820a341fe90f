//! A member's sessions (`GET /api/auth/sessions`, `DELETE /api/auth/sessions/{id}`): listed
//! with the browser they were started in, ended one by one, only by their own member.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue, SET_COOKIE};
use serde_json::{Value, json};

use crate::accounts::{outbox, request_login};
use crate::both_databases;
use crate::common::{Member, TestApp, json as read};
use crate::live::Events;
use crate::mailbox::{self, api_verify_path};

const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_ON_IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 \
                                (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/// A browser with this user agent, logged in as `email` through the e-mailed link.
async fn log_in(app: &TestApp, email: &str, user_agent: &str) -> reqwest::Client {
    let before = mailbox::mail_to(&outbox(app), email).len();
    let (status, body) = request_login(app, email).await;
    assert_eq!(status, 200, "{body}");
    let link = mailbox::nth_mail(&outbox(app), email, before + 1).await.verify_link();
    let mut headers = HeaderMap::new();
    headers.insert(reqwest::header::ORIGIN, HeaderValue::from_str(&app.base).unwrap());
    let browser = reqwest::Client::builder()
        .user_agent(user_agent)
        .cookie_store(true)
        .default_headers(headers)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let (status, user) = read(browser.get(app.url(&api_verify_path(&link))).send().await.unwrap()).await;
    assert_eq!(status, 200, "{user}");
    browser
}

async fn sessions(app: &TestApp, browser: &reqwest::Client) -> Vec<Value> {
    let (status, body) = read(browser.get(app.url("/api/auth/sessions")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().expect("a list").clone()
}

async fn end(app: &TestApp, browser: &reqwest::Client, id: &str) -> (u16, Value) {
    read(browser.delete(app.url(&format!("/api/auth/sessions/{id}"))).send().await.unwrap()).await
}

async fn me_status(app: &TestApp, browser: &reqwest::Client) -> u16 {
    browser.get(app.url("/api/auth/me")).send().await.unwrap().status().as_u16()
}

/// The id of the one session in `list` that is not the current one.
fn other_id(list: &[Value]) -> String {
    let others: Vec<&Value> = list.iter().filter(|s| s["current"] == json!(false)).collect();
    assert_eq!(others.len(), 1, "{list:?}");
    others[0]["id"].as_str().unwrap().to_string()
}

async fn a_member_sees_each_session_with_its_browser_and_which_is_this_one(app: TestApp) {
    let ada = app.member("ada").await; // a session from a test, without a browser
    let laptop = log_in(&app, &ada.email, FIREFOX).await;
    app.clock.advance(Duration::from_secs(60));
    let phone = log_in(&app, &ada.email, SAFARI_ON_IPHONE).await;

    let list = sessions(&app, &laptop).await;
    assert_eq!(list.len(), 3, "{list:?}");
    let this = &list[0];
    assert_eq!(this["current"], true, "this session comes first: {list:?}");
    assert_eq!(
        (&this["browser"], &this["os"], &this["userAgent"]),
        (&json!("Firefox 128"), &json!("Linux"), &json!(FIREFOX))
    );
    assert_eq!(list.iter().filter(|s| s["current"] == true).count(), 1);
    let iphone = list.iter().find(|s| s["os"] == "iOS").expect("the phone's session");
    assert_eq!(iphone["browser"], "Safari 17");
    let bare = list.iter().find(|s| s["userAgent"].is_null()).expect("the session without a browser");
    assert_eq!((&bare["browser"], &bare["os"]), (&Value::Null, &Value::Null));
    for session in &list {
        for field in ["createdAt", "lastUsedAt"] {
            assert!(session[field].as_str().is_some_and(|t| t.ends_with('Z')), "{field} in {session}");
        }
    }

    // The phone sees the same sessions, with itself as the current one.
    let from_phone = sessions(&app, &phone).await;
    assert_eq!(from_phone[0]["id"], iphone["id"]);
    assert_eq!(from_phone[0]["current"], true);

    // A public id is no credential: neither a token nor a token's hash, and not a cookie.
    let hashes: Vec<String> =
        sqlx::query_scalar("SELECT id_hash FROM sessions").fetch_all(&app.state.db.read).await.unwrap();
    for session in &list {
        let id = session["id"].as_str().unwrap();
        assert!(id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        assert!(hashes.iter().all(|h| !h.contains(id)), "the id is not (part of) a hash");
        let cookie = format!("{}={id}", murmur::session_cookie::name(&app.state.config));
        let as_cookie = crate::common::client_for(&app.base, Some(&cookie));
        assert_eq!(me_status(&app, &as_cookie).await, 401);
    }
}

async fn a_member_ends_another_of_their_sessions_and_it_stops_at_once(app: TestApp) {
    let ada = app.member("ada").await;
    let laptop = log_in(&app, &ada.email, FIREFOX).await;
    let phone = log_in(&app, &ada.email, SAFARI_ON_IPHONE).await;
    let mut phone_stream = Events::open(&phone, &app.url("/api/events"), None).await;
    phone_stream.expect("hello").await;

    let list = sessions(&app, &laptop).await;
    let phones = list.iter().find(|s| s["os"] == "iOS").unwrap()["id"].as_str().unwrap().to_string();
    let (status, body) = end(&app, &laptop, &phones).await;
    assert_eq!(status, 204, "{body}");

    // The phone's open tab is told, and its next request is a visitor's.
    phone_stream.expect("session-ended").await;
    assert_eq!(me_status(&app, &phone).await, 401);
    // The laptop, and the session ended by nobody, live on.
    assert_eq!(me_status(&app, &laptop).await, 200);
    assert_eq!(me_status(&app, &ada.client).await, 200);
    let left = sessions(&app, &laptop).await;
    assert_eq!(left.len(), 2);
    assert!(left.iter().all(|s| s["id"] != json!(phones)));

    // It is gone: ending it again finds nothing.
    let (status, body) = end(&app, &laptop, &phones).await;
    assert_eq!((status, body), (404, json!({ "message": "Session not found" })));
}

async fn a_member_cannot_see_or_end_another_members_session(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let bobs = sessions(&app, &bob.client).await;
    let adas = sessions(&app, &ada.client).await;
    assert_eq!((bobs.len(), adas.len()), (1, 1), "each sees only their own");
    assert_ne!(bobs[0]["id"], adas[0]["id"]);

    let (status, body) = end(&app, &ada.client, bobs[0]["id"].as_str().unwrap()).await;
    assert_eq!(
        (status, body),
        (404, json!({ "message": "Session not found" })),
        "the same as a session that does not exist"
    );
    assert_eq!(me_status(&app, &bob.client).await, 200, "Bob's session lives on");
    assert_eq!(sessions(&app, &bob.client).await.len(), 1);
}

async fn ending_this_session_from_the_list_is_a_logout(app: TestApp) {
    let ada = app.member("ada").await;
    let laptop = log_in(&app, &ada.email, FIREFOX).await;
    let this = sessions(&app, &laptop).await.into_iter().find(|s| s["current"] == true).unwrap();
    let response =
        laptop.delete(app.url(&format!("/api/auth/sessions/{}", this["id"].as_str().unwrap()))).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let cookie = response.headers().get(SET_COOKIE).expect("the cookie is cleared").to_str().unwrap().to_string();
    assert!(cookie.contains("Max-Age=0"), "{cookie}");
    assert_eq!(me_status(&app, &laptop).await, 401);
    assert_eq!(me_status(&app, &ada.client).await, 200, "only this session ended");

    // Ending another session sets no cookie.
    let phone = log_in(&app, &ada.email, SAFARI_ON_IPHONE).await;
    let list = sessions(&app, &ada.client).await;
    let response = ada.client.delete(app.url(&format!("/api/auth/sessions/{}", other_id(&list)))).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert!(response.headers().get(SET_COOKIE).is_none());
    assert_eq!(me_status(&app, &phone).await, 401);
}

async fn a_malformed_session_id_is_not_found(app: TestApp) {
    let ada = app.member("ada").await;
    let real = sessions(&app, &ada.client).await[0]["id"].as_str().unwrap().to_string();
    for id in ["1", "not-a-session", &real.to_uppercase(), &format!("{real}0"), &"a".repeat(5000)] {
        let (status, body) = end(&app, &ada.client, id).await;
        assert_eq!((status, body), (404, json!({ "message": "Session not found" })), "{}", &id[..id.len().min(40)]);
    }
    assert_eq!(me_status(&app, &ada.client).await, 200);
}

async fn logging_out_everywhere_else_leaves_only_this_session_listed(app: TestApp) {
    let ada: Member = app.member("ada").await;
    let laptop = log_in(&app, &ada.email, FIREFOX).await;
    let _phone = log_in(&app, &ada.email, SAFARI_ON_IPHONE).await;
    assert_eq!(sessions(&app, &laptop).await.len(), 3);
    let status = laptop.post(app.url("/api/auth/logout-others")).send().await.unwrap().status();
    assert_eq!(status, 204);
    let left = sessions(&app, &laptop).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["current"], true);
}

async fn sessions_that_expired_or_went_idle_are_not_listed(app: TestApp) {
    let ada = app.member("ada").await;
    let _idle = log_in(&app, &ada.email, SAFARI_ON_IPHONE).await;
    // Six days on, Ada uses her first session (its last use is written); the phone is not used.
    app.clock.advance(Duration::from_secs(6 * 24 * 3600));
    assert_eq!(sessions(&app, &ada.client).await.len(), 2);
    // A day later the phone has gone a week without use: it is over, and not listed.
    app.clock.advance(Duration::from_secs(24 * 3600 + 60));
    let list = sessions(&app, &ada.client).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["current"], true);
}

/// The network of the test client (on the loopback interface), as a session lists it.
const LOOPBACK: &str = "127.0.0.0/24";

fn last_used(session: &Value) -> i64 {
    session["lastUsedAt"].as_str().unwrap().parse::<chrono::DateTime<chrono::Utc>>().unwrap().timestamp_millis()
}

async fn two_sessions_of_one_browser_tell_apart_by_when_and_where_they_were_last_used(app: TestApp) {
    let ada = app.member("ada").await;
    let first = log_in(&app, &ada.email, FIREFOX).await;
    let first_login = app.clock.now();
    app.clock.advance(Duration::from_secs(3600));
    let second = log_in(&app, &ada.email, FIREFOX).await;

    let list = sessions(&app, &second).await;
    let this = &list[0];
    let other = list.iter().find(|s| s["userAgent"] == json!(FIREFOX) && s["current"] == false).unwrap();
    assert_eq!((&this["current"], &this["network"]), (&json!(true), &json!(LOOPBACK)), "{list:?}");
    assert_eq!(other["network"], LOOPBACK, "recorded at login: {list:?}");
    assert!(last_used(other) <= first_login, "{other}");

    // The first browser is used again later: its last use moves, to within a few minutes.
    app.clock.advance(Duration::from_secs(600));
    let before = app.clock.now();
    assert_eq!(me_status(&app, &first).await, 200);
    let list = sessions(&app, &second).await;
    let other = list.iter().find(|s| s["current"] == false && s["userAgent"] == json!(FIREFOX)).unwrap();
    let used_at = last_used(other);
    assert!((before..=app.clock.now()).contains(&used_at), "{other}");

    // Within the few minutes, requests record nothing more (reads stay reads).
    app.clock.advance(Duration::from_secs(60));
    assert_eq!(me_status(&app, &first).await, 200);
    let list = sessions(&app, &second).await;
    let other = list.iter().find(|s| s["current"] == false && s["userAgent"] == json!(FIREFOX)).unwrap();
    assert_eq!(last_used(other), used_at, "written at most every few minutes: {other}");

    // Another member never sees them.
    let bob = app.member("bob").await;
    let (status, theirs) = crate::posts::get(&app, &bob, "/api/auth/sessions").await;
    assert_eq!(status, 200);
    assert!(!theirs.to_string().contains(other["id"].as_str().unwrap()), "{theirs}");
}

both_databases!(
    two_sessions_of_one_browser_tell_apart_by_when_and_where_they_were_last_used,
    a_member_sees_each_session_with_its_browser_and_which_is_this_one,
    a_member_ends_another_of_their_sessions_and_it_stops_at_once,
    a_member_cannot_see_or_end_another_members_session,
    ending_this_session_from_the_list_is_a_logout,
    a_malformed_session_id_is_not_found,
    logging_out_everywhere_else_leaves_only_this_session_listed,
    sessions_that_expired_or_went_idle_are_not_listed,
);
