//! Accounts: magic-link sign-up and login, verification, sessions, and their abuse limits.

use std::time::Duration;

use murmur::clock::{HOUR, MINUTE};
use reqwest::header::SET_COOKIE;
use serde_json::{Value, json};

use crate::common::{Backend, TestApp, client_for, json};
use crate::mailbox::{self, api_verify_path, token_of};
use crate::smtp::SmtpServer;
use crate::{both_databases, both_databases_with};

const INVALID_CODE: &str = "Invalid or expired invite code";
const INVALID_LINK: &str = "Invalid or expired link";

/// Like `both_databases!`, for tests that change the configuration (`|config| …`) first.
/// For tests that start their app themselves (`async fn name(backend: Backend)`).
macro_rules! per_backend {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name($crate::common::Backend::Sqlite).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name($crate::common::Backend::Postgres).await;
            }
        }
    )+};
}

// ---------------------------------------------------------------------------------------------
// Helpers shared with the other areas' tests

/// A fresh operator invite code (as `murmur invite create` makes).
pub async fn operator_code(app: &TestApp) -> String {
    murmur::invites::insert_code(&app.state.db.write, None, app.clock.now()).await.expect("insert code").1
}

pub async fn request_sign_up(app: &TestApp, email: &str, code: &str) -> (u16, Value) {
    let body = json!({ "email": email, "inviteCode": code });
    json(app.client.post(app.url("/api/auth/request-magic-link")).json(&body).send().await.unwrap()).await
}

pub async fn request_login(app: &TestApp, email: &str) -> (u16, Value) {
    let body = json!({ "email": email });
    json(app.client.post(app.url("/api/auth/request-login-link")).json(&body).send().await.unwrap()).await
}

/// The outbox of an app without SMTP_URL.
pub fn outbox(app: &TestApp) -> std::path::PathBuf {
    app.data_dir.path().join("outbox")
}

/// Calls verify for an e-mailed link with a fresh visitor's client (which keeps the cookie).
pub async fn follow(app: &TestApp, link: &str) -> (reqwest::Client, u16, Value) {
    let client = client_for(&app.base, None);
    let (status, body) = json(client.get(app.url(&api_verify_path(link))).send().await.unwrap()).await;
    (client, status, body)
}

/// Signs up through the outbox, as a person would; answers their logged-in client and user.
pub async fn sign_up(app: &TestApp, email: &str, code: &str) -> (reqwest::Client, Value) {
    let before = mailbox::mail_to(&outbox(app), email).len();
    let (status, body) = request_sign_up(app, email, code).await;
    assert_eq!(status, 200, "{body}");
    let mail = mailbox::nth_mail(&outbox(app), email, before + 1).await;
    let (client, status, user) = follow(app, &mail.verify_link()).await;
    assert_eq!(status, 200, "{user}");
    (client, user)
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.state.db.read).await.unwrap()
}

fn set_cookie(response: &reqwest::Response) -> String {
    response.headers().get(SET_COOKIE).expect("a Set-Cookie header").to_str().unwrap().to_string()
}

// ---------------------------------------------------------------------------------------------
// Sign-up

async fn sign_up_round_trip_through_the_outbox(app: TestApp) {
    let code = operator_code(&app).await;
    let (status, body) = request_sign_up(&app, " Ada.Lovelace@Example.com ", &code).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Check your email! We sent you a magic link to log in.");

    let mail = mailbox::nth_mail(&outbox(&app), "ada.lovelace@example.com", 1).await;
    assert_eq!(mail.subject(), "Finish signing up for Murmur");
    assert!(mail.has_text_and_html(), "{}", mail.raw);
    let link = mail.verify_link();
    assert!(link.starts_with(&format!("{}/auth/verify?token=", app.base)), "{link}");
    assert!(link.ends_with(&format!("&invite={code}")), "{link}");
    assert_eq!(token_of(&link).len(), 43);
    // The database keeps only the token's hash.
    let stored: String =
        sqlx::query_scalar("SELECT token_hash FROM magic_links").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(stored, murmur::secrets::hash_token(&token_of(&link)));
    assert!(!mail.raw.contains(&stored));

    let (client, status, user) = follow(&app, &link).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["username"], "ada_lovelace");
    assert_eq!(user["displayName"], "Ada Lovelace");
    assert_eq!(user["email"], "ada.lovelace@example.com");
    assert_eq!(user["invitesAvailable"], 3);
    assert_eq!(user["followerCount"], 0);
    assert_eq!(user["bio"], "");
    for field in ["id", "website", "profileImageUrl", "headerImageUrl", "createdAt", "followingCount"] {
        assert!(user.get(field).is_some(), "{field} missing from {user}");
    }

    // The session works, and the invite is used by the new member.
    let (status, me) = json(client.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(me["id"], user["id"]);
    let (status, same) = json(client.get(app.url("/api/auth/user")).send().await.unwrap()).await;
    assert_eq!((status, &same["username"]), (200, &me["username"]));
    let used_by: Option<i64> = sqlx::query_scalar("SELECT used_by FROM invites WHERE code = $1")
        .bind(&code)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(used_by, user["id"].as_i64());

    // Logging in later works with a login link.
    let (status, _) = json(client.post(app.url("/api/auth/logout")).send().await.unwrap()).await;
    assert_eq!(status, 204);
    let (status, body) = request_login(&app, "ada.lovelace@example.com").await;
    assert_eq!(status, 200, "{body}");
    let mail = mailbox::nth_mail(&outbox(&app), "ada.lovelace@example.com", 2).await;
    assert_eq!(mail.subject(), "Your Murmur login link");
    let link = mail.verify_link();
    assert!(!link.contains("invite="), "{link}");
    let (_, status, again) = follow(&app, &link).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["id"], user["id"]);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM users").await, 1);
}

async fn sign_up_round_trip_through_a_real_smtp_server(backend: Backend) {
    let Some(smtp) = SmtpServer::start().await else { return };
    let url = smtp.url();
    let Some(app) = TestApp::spawn_with(backend, |c| c.smtp_url = Some(url)).await else { return };

    let code = operator_code(&app).await;
    let (status, body) = request_sign_up(&app, "grace@example.com", &code).await;
    assert_eq!(status, 200, "{body}");
    // Sign-up mail is sent before the answer: it is on the server already.
    let received = mailbox::mail_to(&smtp.maildir(), "grace@example.com");
    assert_eq!(received.len(), 1, "the SMTP server received the message before the answer");
    let mail = &received[0];
    assert_eq!(mail.subject(), "Finish signing up for Murmur");
    assert!(mail.has_text_and_html());
    assert!(mail.header("From").unwrap().contains("no-reply@murmur.test"));
    assert!(mail.header("X-RcptTo").unwrap().contains("grace@example.com"), "the envelope recipient");
    let (client, status, user) = follow(&app, &mail.verify_link()).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["username"], "grace");

    // Login mail goes through SMTP too (from a spawned task).
    json(client.post(app.url("/api/auth/logout")).send().await.unwrap()).await;
    let (status, _) = request_login(&app, "grace@example.com").await;
    assert_eq!(status, 200);
    let mail = mailbox::nth_mail(&smtp.maildir(), "grace@example.com", 2).await;
    assert_eq!(mail.subject(), "Your Murmur login link");
    let (_, status, again) = follow(&app, &mail.verify_link()).await;
    assert_eq!((status, &again["id"]), (200, &user["id"]));
    // Nothing went to the outbox.
    assert!(mailbox::all_mail(&outbox(&app)).is_empty());
}

async fn sign_up_refuses_missing_unknown_used_and_expired_codes(app: TestApp) {
    let send = |body: Value| {
        let request = app.client.post(app.url("/api/auth/request-magic-link")).json(&body);
        async move { json(request.send().await.unwrap()).await }
    };
    // missing and empty
    for body in [json!({ "email": "ada@example.com" }), json!({ "email": "ada@example.com", "inviteCode": "  " })] {
        let (status, answer) = send(body).await;
        assert_eq!((status, answer["message"].as_str().unwrap()), (400, "Please enter your invite code."));
    }
    // unknown, and not even code-shaped
    for code in ["ZZZZZZZZZZZZ", "nope", "ABCD-EFGH-IJKL"] {
        let (status, answer) = request_sign_up(&app, "ada@example.com", code).await;
        assert_eq!((status, answer["message"].as_str().unwrap()), (400, INVALID_CODE), "{code}");
    }
    // used
    let used = operator_code(&app).await;
    sign_up(&app, "first@example.com", &used).await;
    let (status, answer) = request_sign_up(&app, "ada@example.com", &used).await;
    assert_eq!((status, answer["message"].as_str().unwrap()), (400, INVALID_CODE));
    // expired (7 days)
    let expiring = operator_code(&app).await;
    app.clock.advance(Duration::from_secs(7 * 24 * 3600 + 1));
    let (status, answer) = request_sign_up(&app, "ada@example.com", &expiring).await;
    assert_eq!((status, answer["message"].as_str().unwrap()), (400, INVALID_CODE));
    // Nothing was sent to the refused address.
    assert!(mailbox::mail_to(&outbox(&app), "ada@example.com").is_empty());
}

async fn codes_are_compared_trimmed_and_upper_cased(app: TestApp) {
    let code = operator_code(&app).await;
    let typed = format!("  {}\n", code.to_lowercase());
    let (status, body) = request_sign_up(&app, "ada@example.com", &typed).await;
    assert_eq!(status, 200, "{body}");
    let mail = mailbox::nth_mail(&outbox(&app), "ada@example.com", 1).await;
    assert!(mail.verify_link().ends_with(&format!("&invite={code}")));
}

async fn sign_up_refuses_invalid_addresses(app: TestApp) {
    let code = operator_code(&app).await;
    for (email, message) in [("", "Please enter your email address."), ("ada@", "Please enter a valid email address.")]
    {
        let (status, body) = request_sign_up(&app, email, &code).await;
        assert_eq!((status, body["message"].as_str().unwrap()), (400, message));
        let (status, body) = request_login(&app, email).await;
        assert_eq!((status, body["message"].as_str().unwrap()), (400, message));
    }
}

async fn a_member_signing_up_again_gets_a_login_link_and_keeps_the_invite(app: TestApp) {
    let member = app.member("ada").await;
    let code = operator_code(&app).await;
    let (status, body) = request_sign_up(&app, &member.email, &code).await;
    assert_eq!(status, 200);
    let (_, stranger_body) = request_sign_up(&app, "new@example.com", &code).await;
    assert_eq!(body, stranger_body, "the same answer as a sign-up");
    let mail = mailbox::nth_mail(&outbox(&app), &member.email, 1).await;
    assert_eq!(mail.subject(), "Your Murmur login link");
    let (_, status, user) = follow(&app, &mail.verify_link()).await;
    assert_eq!((status, user["id"].as_i64()), (200, Some(member.id)));
    let unused: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invites WHERE code = $1 AND used_at IS NULL")
        .bind(&code)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(unused, 1, "logging in does not use the invite");
}

async fn usernames_are_unique_and_never_reserved_words(app: TestApp) {
    let mut names = Vec::new();
    for email in [
        "ada@one.example",
        "ada@two.example",
        "Ada+x@three.example",
        "search@x.example",
        "me@x.example",
        "suggested@x.example",
    ] {
        let code = operator_code(&app).await;
        let (_, user) = sign_up(&app, email, &code).await;
        names.push(user["username"].as_str().unwrap().to_string());
    }
    assert_eq!(names, ["ada", "ada2", "ada3", "search2", "me0", "suggested2"]);
}

// ---------------------------------------------------------------------------------------------
// Verification

async fn a_link_works_once(app: TestApp) {
    let code = operator_code(&app).await;
    request_sign_up(&app, "ada@example.com", &code).await;
    let link = mailbox::nth_mail(&outbox(&app), "ada@example.com", 1).await.verify_link();
    let (_, first, _) = follow(&app, &link).await;
    assert_eq!(first, 200);
    let (_, again, body) = follow(&app, &link).await;
    assert_eq!((again, body["message"].as_str().unwrap()), (400, INVALID_LINK));
}

async fn a_link_expires_after_15_minutes(app: TestApp) {
    let member = app.member("ada").await;
    request_login(&app, &member.email).await;
    let early = mailbox::nth_mail(&outbox(&app), &member.email, 1).await.verify_link();
    request_login(&app, &member.email).await;
    let late = mailbox::nth_mail(&outbox(&app), &member.email, 2).await.verify_link();

    app.clock.advance(Duration::from_secs(14 * 60));
    let (_, status, _) = follow(&app, &early).await;
    assert_eq!(status, 200, "still valid after 14 minutes");
    app.clock.advance(Duration::from_secs(60));
    let (_, status, body) = follow(&app, &late).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (400, INVALID_LINK), "expired after 15 minutes");
}

async fn malformed_and_unknown_tokens_are_refused(app: TestApp) {
    let unknown = murmur::secrets::random_token();
    for path in [
        "/api/auth/verify".to_string(),
        "/api/auth/verify?token=".to_string(),
        "/api/auth/verify?token=short".to_string(),
        format!("/api/auth/verify?token={unknown}"),
        format!("/api/auth/verify?token={unknown}&invite=ABCDEFGHIJKL"),
    ] {
        let (status, body) = json(app.client.get(app.url(&path)).send().await.unwrap()).await;
        assert_eq!((status, body["message"].as_str().unwrap()), (400, INVALID_LINK), "{path}");
    }
}

async fn twenty_concurrent_verifies_of_one_link_make_one_session(app: TestApp) {
    let member = app.member("ada").await;
    request_login(&app, &member.email).await;
    let link = mailbox::nth_mail(&outbox(&app), &member.email, 1).await.verify_link();
    let sessions_before = count(&app, "SELECT COUNT(*) FROM sessions").await;

    let attempts = (0..20).map(|_| {
        let url = app.url(&api_verify_path(&link));
        let client = client_for(&app.base, None);
        tokio::spawn(async move { client.get(url).send().await.unwrap().status().as_u16() })
    });
    let statuses: Vec<u16> = futures::future::join_all(attempts).await.into_iter().map(Result::unwrap).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 200 || *s == 400), "{statuses:?}");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM sessions").await, sessions_before + 1);
}

async fn one_invite_claimed_by_two_concurrent_verifies_makes_one_account(app: TestApp) {
    let code = operator_code(&app).await;
    request_sign_up(&app, "ada@example.com", &code).await;
    request_sign_up(&app, "grace@example.com", &code).await;
    let ada = mailbox::nth_mail(&outbox(&app), "ada@example.com", 1).await.verify_link();
    let grace = mailbox::nth_mail(&outbox(&app), "grace@example.com", 1).await.verify_link();

    let (a, b) = tokio::join!(follow(&app, &ada), follow(&app, &grace));
    let mut statuses = [a.1, b.1];
    statuses.sort();
    assert_eq!(statuses, [200, 400], "one sign-up wins: {:?} {:?}", a.2, b.2);
    let loser = if a.1 == 400 { &a.2 } else { &b.2 };
    assert_eq!(loser["message"], INVALID_CODE);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM users").await, 1);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM sessions").await, 1);

    // The losing link stays useless.
    let losing_link = if a.1 == 400 { &ada } else { &grace };
    let (_, status, _) = follow(&app, losing_link).await;
    assert_eq!(status, 400);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM users").await, 1);
}

async fn a_cross_site_verify_is_refused(app: TestApp) {
    let member = app.member("ada").await;
    request_login(&app, &member.email).await;
    let link = mailbox::nth_mail(&outbox(&app), &member.email, 1).await.verify_link();
    let response = reqwest::Client::new()
        .get(app.url(&api_verify_path(&link)))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert!(response.headers().get(SET_COOKIE).is_none());
    // The link was not used up: the member can still follow it.
    let (_, status, _) = follow(&app, &link).await;
    assert_eq!(status, 200);
}

// ---------------------------------------------------------------------------------------------
// Login links and enumeration

async fn login_link_answers_members_and_strangers_alike(app: TestApp) {
    let member = app.member("ada").await;
    let send =
        |email: &str| app.client.post(app.url("/api/auth/request-login-link")).json(&json!({ "email": email })).send();
    let for_member = send(&member.email).await.unwrap();
    let for_stranger = send("stranger@example.com").await.unwrap();
    assert_eq!(for_member.status(), for_stranger.status());
    assert_eq!(for_member.status(), 200);
    for header in ["content-type", "content-length", "set-cookie", "retry-after"] {
        assert_eq!(for_member.headers().get(header), for_stranger.headers().get(header), "{header}");
    }
    let member_body = for_member.text().await.unwrap();
    assert_eq!(member_body, for_stranger.text().await.unwrap());
    assert_eq!(
        serde_json::from_str::<Value>(&member_body).unwrap()["message"],
        "If an account exists, we've sent you a magic link."
    );

    // Only the member gets mail; the stranger's (unsent) link cannot log anyone in.
    mailbox::nth_mail(&outbox(&app), &member.email, 1).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(mailbox::mail_to(&outbox(&app), "stranger@example.com").is_empty());
    assert_eq!(count(&app, "SELECT COUNT(*) FROM magic_links").await, 2, "the same database work for both");
}

async fn a_login_link_leads_on_to_the_page_the_member_came_for(app: TestApp) {
    let ada = app.member("ada").await;
    let send = |next: &str| {
        let body = json!({ "email": ada.email, "next": next });
        app.client.post(app.url("/api/auth/request-login-link")).json(&body).send()
    };
    let (status, body) = json(send("/post/42?reply=1").await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let link = mailbox::nth_mail(&outbox(&app), &ada.email, 1).await.verify_link();
    assert!(link.ends_with("&next=%2Fpost%2F42%3Freply%3D1"), "{link}");
    let (_, status, user) = follow(&app, &link).await;
    assert_eq!((status, &user["id"]), (200, &json!(ada.id)), "{user}");

    // Never another site: refused before any link is made.
    for next in ["//evil.example", "//evil.example/post/1", "/\\evil.example", "https://evil.example/", "post/42"] {
        let (status, body) = json(send(next).await.unwrap()).await;
        assert_eq!(
            (status, body["message"].as_str()),
            (400, Some("next must be a page of this site, such as /post/42")),
            "{next:?}"
        );
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM magic_links").await, 1);
}

// ---------------------------------------------------------------------------------------------
// Sessions

async fn the_session_cookie_is_http_only_lax_and_site_wide(app: TestApp) {
    let member = app.member("ada").await;
    request_login(&app, &member.email).await;
    let link = mailbox::nth_mail(&outbox(&app), &member.email, 1).await.verify_link();
    let response = client_for(&app.base, None).get(app.url(&api_verify_path(&link))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let cookie = set_cookie(&response);
    assert!(cookie.starts_with("murmur_session="), "{cookie}");
    let value = cookie.split(';').next().unwrap().trim_start_matches("murmur_session=");
    assert!(value.len() >= 22, "at least 128 bits: {cookie}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(cookie.split("; ").any(|part| part == flag), "{flag} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "no Secure over http: {cookie}");
    assert_eq!(response.headers()["cache-control"], "no-store");
    // The database holds the session's hash, not the cookie value.
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE id_hash = $1")
        .bind(murmur::secrets::hash_token(value))
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(stored, 1);
    let plain: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE id_hash = $1")
        .bind(value)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(plain, 0);
}

async fn over_https_the_cookie_is_secure_and_host_prefixed(app: TestApp) {
    assert!(app.state.config.is_https());
    // Called over plain http (the test has no TLS) with the custom header instead of an
    // Origin, which would not match the https public URL.
    let client = reqwest::Client::builder()
        .default_headers(
            [(reqwest::header::HeaderName::from_static("x-requested-with"), "murmur".parse().unwrap())]
                .into_iter()
                .collect(),
        )
        .build()
        .unwrap();
    let code = operator_code(&app).await;
    let (status, body) = json(
        client
            .post(app.url("/api/auth/request-magic-link"))
            .json(&json!({ "email": "ada@example.com", "inviteCode": code }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let link = mailbox::nth_mail(&outbox(&app), "ada@example.com", 1).await.verify_link();
    assert!(link.starts_with("https://murmur.example/auth/verify?token="), "{link}");
    let response = client.get(app.url(&api_verify_path(&link))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let cookie = set_cookie(&response);
    assert!(cookie.starts_with("__Host-murmur_session="), "{cookie}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Secure"] {
        assert!(cookie.split("; ").any(|part| part == flag), "{flag} in {cookie}");
    }
    assert!(!cookie.contains("Domain="), "__Host- cookies carry no Domain: {cookie}");
    let pair = cookie.split(';').next().unwrap();
    let me = client.get(app.url("/api/auth/me")).header("cookie", pair).send().await.unwrap();
    assert_eq!(me.status(), 200);
    // The unprefixed name is not accepted over https.
    let plain = pair.replace("__Host-murmur_session", "murmur_session");
    let me = client.get(app.url("/api/auth/me")).header("cookie", plain).send().await.unwrap();
    assert_eq!(me.status(), 401);
}

async fn logout_ends_the_session_on_the_server(app: TestApp) {
    let member = app.member("ada").await;
    let (status, _) = json(member.client.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let response = member.client.post(app.url("/api/auth/logout")).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let cleared = set_cookie(&response);
    assert!(cleared.starts_with("murmur_session=;") && cleared.contains("Max-Age=0"), "{cleared}");
    // The same cookie, sent again, no longer works.
    let (status, body) = json(member.client.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!((status, body), (401, json!({ "message": "Unauthorized" })));
    assert_eq!(count(&app, "SELECT COUNT(*) FROM sessions").await, 0);
}

async fn logout_others_ends_every_other_session(app: TestApp) {
    let member = app.member("ada").await;
    let other = app.member("grace").await;
    let name = murmur::session_cookie::name(&app.state.config);
    let mut elsewhere = Vec::new();
    for _ in 0..2 {
        let token = murmur::sessions::create(&app.state.db.write, member.id, app.clock.now()).await.unwrap();
        elsewhere.push(client_for(&app.base, Some(&format!("{name}={token}"))));
    }
    let response = member.client.post(app.url("/api/auth/logout-others")).send().await.unwrap();
    assert_eq!(response.status(), 204);
    for client in &elsewhere {
        assert_eq!(client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 401);
    }
    assert_eq!(member.client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 200, "this session stays");
    assert_eq!(
        other.client.get(app.url("/api/auth/me")).send().await.unwrap().status(),
        200,
        "other members keep theirs"
    );
    let anonymous = app.client.post(app.url("/api/auth/logout-others")).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
}

async fn a_new_login_replaces_the_browsers_old_session(app: TestApp) {
    let member = app.member("ada").await;
    request_login(&app, &member.email).await;
    let link = mailbox::nth_mail(&outbox(&app), &member.email, 1).await.verify_link();
    // member.client sends its (old) session cookie along with the verify call.
    let response = member.client.get(app.url(&api_verify_path(&link))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(member.client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 401, "the old session ended");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM sessions").await, 1, "only the new one is left");
}

async fn me_without_a_session_is_401(app: TestApp) {
    for path in ["/api/auth/me", "/api/auth/user", "/api/invites"] {
        let (status, body) = json(app.client.get(app.url(path)).send().await.unwrap()).await;
        assert_eq!((status, body), (401, json!({ "message": "Unauthorized" })), "{path}");
    }
    let forged = client_for(&app.base, Some(&format!("murmur_session={}", murmur::secrets::random_token())));
    let (status, body) = json(forged.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!((status, body), (401, json!({ "message": "Unauthorized" })));
}

async fn sessions_end_after_a_week_idle_and_thirty_days_in_all(app: TestApp) {
    let member = app.member("ada").await;
    app.clock.advance(Duration::from_secs(6 * 24 * 3600));
    assert_eq!(member.client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 200);
    app.clock.advance(Duration::from_secs(7 * 24 * 3600 + 60));
    assert_eq!(member.client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 401, "idle for a week");

    let busy = app.member("grace").await;
    for _ in 0..4 {
        app.clock.advance(Duration::from_secs(6 * 24 * 3600));
        assert_eq!(busy.client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 200);
    }
    app.clock.advance(Duration::from_secs(6 * 24 * 3600));
    assert_eq!(busy.client.get(app.url("/api/auth/me")).send().await.unwrap().status(), 401, "30 days in all");
}

async fn the_login_route_redirects_to_the_login_dialog(app: TestApp) {
    let response = app.client.get(app.url("/api/login")).send().await.unwrap();
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/?login=1");
}

// ---------------------------------------------------------------------------------------------
// Abuse limits and failures

async fn link_requests_are_limited_per_address(app: TestApp) {
    let member = app.member("ada").await;
    // Sign-up and login requests count together.
    let code = operator_code(&app).await;
    let (status, _) = request_sign_up(&app, &member.email, &code).await;
    assert_eq!(status, 200);
    for _ in 0..4 {
        let (status, _) = request_login(&app, &member.email).await;
        assert_eq!(status, 200);
    }
    let response = app
        .client
        .post(app.url("/api/auth/request-login-link"))
        .json(&json!({ "email": member.email.to_uppercase() }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&retry_after), "{retry_after}");
    let (_, body) = json(response).await;
    assert!(body["message"].as_str().unwrap().contains("Too many"), "{body}");
    let (status, _) = request_sign_up(&app, &member.email, &code).await;
    assert_eq!(status, 429);
    // Another address is not affected; the owner gets links again after the window.
    assert_eq!(request_login(&app, "grace@example.com").await.0, 200);
    app.clock.advance(Duration::from_millis((HOUR + MINUTE) as u64));
    assert_eq!(request_login(&app, &member.email).await.0, 200);
}

async fn link_requests_are_limited_per_client_ip(app: TestApp) {
    for i in 0..20 {
        let (status, body) = request_login(&app, &format!("person{i}@example.com")).await;
        assert_eq!(status, 200, "{i}: {body}");
    }
    let (status, body) = request_login(&app, "one-more@example.com").await;
    assert_eq!(status, 429);
    assert!(body["message"].as_str().unwrap().contains("network"), "{body}");
    let code = operator_code(&app).await;
    assert_eq!(request_sign_up(&app, "another@example.com", &code).await.0, 429);
}

async fn an_unreachable_mail_server_answers_503_and_leaves_nothing_behind(app: TestApp) {
    let code = operator_code(&app).await;
    let (status, body) = request_sign_up(&app, "ada@example.com", &code).await;
    assert_eq!(status, 503);
    assert!(body["message"].as_str().unwrap().contains("could not send the email"), "{body}");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM magic_links").await, 0);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM users").await, 0);
    let unused: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invites WHERE used_at IS NULL")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(unused, 1);

    // A login link for a member fails in the background: same answer, and the link is removed.
    let member = app.member("grace").await;
    let (status, _) = request_login(&app, &member.email).await;
    assert_eq!(status, 200);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while count(&app, "SELECT COUNT(*) FROM magic_links WHERE email = 'grace@example.com'").await > 0 {
        assert!(std::time::Instant::now() < deadline, "the unsent login link is removed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

both_databases!(
    sign_up_round_trip_through_the_outbox,
    sign_up_refuses_missing_unknown_used_and_expired_codes,
    codes_are_compared_trimmed_and_upper_cased,
    sign_up_refuses_invalid_addresses,
    a_member_signing_up_again_gets_a_login_link_and_keeps_the_invite,
    usernames_are_unique_and_never_reserved_words,
    a_link_works_once,
    a_link_expires_after_15_minutes,
    malformed_and_unknown_tokens_are_refused,
    twenty_concurrent_verifies_of_one_link_make_one_session,
    one_invite_claimed_by_two_concurrent_verifies_makes_one_account,
    a_cross_site_verify_is_refused,
    login_link_answers_members_and_strangers_alike,
    a_login_link_leads_on_to_the_page_the_member_came_for,
    the_session_cookie_is_http_only_lax_and_site_wide,
    logout_ends_the_session_on_the_server,
    logout_others_ends_every_other_session,
    a_new_login_replaces_the_browsers_old_session,
    me_without_a_session_is_401,
    sessions_end_after_a_week_idle_and_thirty_days_in_all,
    the_login_route_redirects_to_the_login_dialog,
    link_requests_are_limited_per_address,
    link_requests_are_limited_per_client_ip,
);

both_databases_with!(over_https_the_cookie_is_secure_and_host_prefixed, |c: &mut murmur::Config| {
    c.public_url = "https://murmur.example".parse().unwrap();
});

both_databases_with!(an_unreachable_mail_server_answers_503_and_leaves_nothing_behind, |c: &mut murmur::Config| {
    // A port with no server behind it.
    c.smtp_url = Some(format!("smtp://127.0.0.1:{}", crate::smtp::free_port()));
});

per_backend!(sign_up_round_trip_through_a_real_smtp_server);

// The API suite's core, once more through PgBouncer in transaction mode (`poolers`).
crate::through_pgbouncer!(sign_up_round_trip_through_the_outbox, logout_ends_the_session_on_the_server,);
