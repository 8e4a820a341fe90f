//! Changing a member's e-mail address (`POST /api/auth/email`, `POST /api/auth/email/confirm`):
//! a link to the new address confirms it, once and within 15 minutes; the old address is told;
//! sessions stay; no one learns whose address is whose.

use std::time::Duration;

use murmur::clock::MINUTE;
use serde_json::{Value, json};

use crate::accounts::{follow, outbox, request_login};
use crate::both_databases;
use crate::common::{Member, TestApp, client_for, json as read};
use crate::mailbox::{self, Mail, token_of};

const INVALID_LINK: &str = "Invalid or expired link";
const SENT: &str = "Check the inbox of your new address: we sent it a link. Your address changes when you follow it.";
const TAKEN: &str = "This address now belongs to another account. Please choose another address.";

async fn ask(app: &TestApp, who: &Member, email: &str) -> (u16, Value) {
    read(who.client.post(app.url("/api/auth/email")).json(&json!({ "email": email })).send().await.unwrap()).await
}

/// Confirms with a fresh visitor's client: the link needs no session.
async fn confirm(app: &TestApp, token: &str) -> (u16, Value) {
    let visitor = client_for(&app.base, None);
    read(visitor.post(app.url("/api/auth/email/confirm")).json(&json!({ "token": token })).send().await.unwrap()).await
}

/// Asks for a change to `email` and answers the e-mailed link.
async fn ask_and_receive(app: &TestApp, who: &Member, email: &str) -> String {
    let before = mailbox::mail_to(&outbox(app), email).len();
    let (status, body) = ask(app, who, email).await;
    assert_eq!((status, &body), (200, &json!({ "message": SENT })));
    let mail = mailbox::nth_mail(&outbox(app), email, before + 1).await;
    mail.link_starting("/auth/confirm-email?token=").expect("an address-change link")
}

async fn email_of(app: &TestApp, who: &Member) -> String {
    let (status, me) = read(who.client.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{me}");
    me["email"].as_str().unwrap().to_string()
}

async fn links_stored(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM magic_links").fetch_one(&app.state.db.read).await.unwrap()
}

fn notices_to(app: &TestApp, address: &str) -> Vec<Mail> {
    mailbox::mail_to(&outbox(app), address)
        .into_iter()
        .filter(|m| m.subject() == "Your Murmur e-mail address was changed")
        .collect()
}

async fn a_member_changes_their_address_through_the_link_sent_to_it(app: TestApp) {
    let ada = app.member("ada").await;
    let before = mailbox::mail_to(&outbox(&app), "ada.lovelace@example.com").len();
    let (status, body) = ask(&app, &ada, " Ada.Lovelace@Example.com ").await;
    assert_eq!((status, body), (200, json!({ "message": SENT })));
    let mail = mailbox::nth_mail(&outbox(&app), "ada.lovelace@example.com", before + 1).await;
    assert_eq!(mail.subject(), "Confirm your new Murmur e-mail address");
    assert!(mail.has_text_and_html());
    let link = mail.link_starting("/auth/confirm-email?token=").expect("an address-change link");
    assert!(link.starts_with(&format!("{}/auth/confirm-email?token=", app.base)), "{link}");
    let token = token_of(&link);
    // Only the token's hash is kept.
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM magic_links WHERE purpose = 'email'")
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(stored, vec![murmur::secrets::hash_token(&token)]);
    // Nothing changes until the link is followed.
    assert_eq!(email_of(&app, &ada).await, "ada@example.com");

    let (status, body) = confirm(&app, &token).await;
    assert_eq!(
        (status, body),
        (
            200,
            json!({ "email": "ada.lovelace@example.com", "message": "Your e-mail address is now ada.lovelace@example.com." })
        )
    );
    // Her session stayed, and reads the new address.
    assert_eq!(email_of(&app, &ada).await, "ada.lovelace@example.com");
    // The old address is told, with the new one named and no link.
    let notices = notices_to(&app, "ada@example.com");
    assert_eq!(notices.len(), 1);
    assert!(notices[0].decoded.contains("ada.lovelace@example.com"));
    assert!(notices[0].link_starting("/auth/").is_none());

    // Login links now go to the new address; the old one logs nobody in.
    let (status, _) = request_login(&app, "ada.lovelace@example.com").await;
    assert_eq!(status, 200);
    let login = mailbox::nth_mail(&outbox(&app), "ada.lovelace@example.com", before + 2).await;
    let (_, status, user) = follow(&app, &login.verify_link()).await;
    assert_eq!((status, &user["id"]), (200, &json!(ada.id)));
    let old_mail = mailbox::mail_to(&outbox(&app), "ada@example.com").len();
    let (status, _) = request_login(&app, "ada@example.com").await;
    assert_eq!(status, 200, "the same answer as for anyone");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(mailbox::mail_to(&outbox(&app), "ada@example.com").len(), old_mail, "no login link to the old address");
}

async fn an_address_change_link_works_once_and_for_fifteen_minutes(app: TestApp) {
    let ada = app.member("ada").await;
    let token = token_of(&ask_and_receive(&app, &ada, "ada.new@example.com").await);
    assert_eq!(confirm(&app, &token).await.0, 200);
    assert_eq!(confirm(&app, &token).await, (400, json!({ "message": INVALID_LINK })), "used once");

    let token = token_of(&ask_and_receive(&app, &ada, "ada.newer@example.com").await);
    app.clock.advance(Duration::from_millis(15 * MINUTE as u64 + 1));
    assert_eq!(confirm(&app, &token).await, (400, json!({ "message": INVALID_LINK })), "expired");
    assert_eq!(email_of(&app, &ada).await, "ada.new@example.com");
    assert_eq!(notices_to(&app, "ada.new@example.com").len(), 0);
}

async fn confirming_one_change_withdraws_the_others_asked_for(app: TestApp) {
    let ada = app.member("ada").await;
    let first = token_of(&ask_and_receive(&app, &ada, "ada.one@example.com").await);
    let second = token_of(&ask_and_receive(&app, &ada, "ada.two@example.com").await);
    assert_eq!(confirm(&app, &second).await.0, 200);
    assert_eq!(confirm(&app, &first).await, (400, json!({ "message": INVALID_LINK })));
    assert_eq!(email_of(&app, &ada).await, "ada.two@example.com");
}

async fn an_address_change_link_logs_nobody_in_and_a_login_link_changes_no_address(app: TestApp) {
    let ada = app.member("ada").await;
    let link = ask_and_receive(&app, &ada, "ada.new@example.com").await;
    let token = token_of(&link);
    let visitor = client_for(&app.base, None);
    let (status, body) =
        read(visitor.get(app.url(&format!("/api/auth/verify?token={token}"))).send().await.unwrap()).await;
    assert_eq!((status, body), (400, json!({ "message": INVALID_LINK })));
    assert_eq!(visitor.get(app.url("/api/auth/me")).send().await.unwrap().status(), 401);

    let (status, _) = request_login(&app, "ada@example.com").await;
    assert_eq!(status, 200);
    let login = mailbox::nth_mail(&outbox(&app), "ada@example.com", 1).await.verify_link();
    assert_eq!(confirm(&app, &token_of(&login)).await, (400, json!({ "message": INVALID_LINK })));

    // Each, refused at the other's call, still works where it belongs.
    let (_, status, user) = follow(&app, &login).await;
    assert_eq!((status, &user["id"]), (200, &json!(ada.id)));
    assert_eq!(confirm(&app, &token).await.0, 200);
    assert_eq!(email_of(&app, &ada).await, "ada.new@example.com");
}

async fn an_address_taken_meanwhile_is_refused_and_the_address_stays(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = token_of(&ask_and_receive(&app, &ada, "shared@example.com").await);
    let bobs = token_of(&ask_and_receive(&app, &bob, "shared@example.com").await);
    assert_eq!(confirm(&app, &bobs).await.0, 200);
    assert_eq!(confirm(&app, &adas).await, (409, json!({ "message": TAKEN })));
    assert_eq!(email_of(&app, &ada).await, "ada@example.com");
    assert_eq!(email_of(&app, &bob).await, "shared@example.com");
    assert_eq!(notices_to(&app, "ada@example.com").len(), 0, "no notice for a change that did not happen");
}

async fn of_two_members_confirming_one_address_at_once_exactly_one_gets_it(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = token_of(&ask_and_receive(&app, &ada, "shared@example.com").await);
    let bobs = token_of(&ask_and_receive(&app, &bob, "shared@example.com").await);
    let (a, b) = tokio::join!(confirm(&app, &adas), confirm(&app, &bobs));
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{a:?} {b:?}");
    let owners: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE email = 'shared@example.com'")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(owners, 1);
    let (winner, loser) = if a.0 == 200 { (&ada, &bob) } else { (&bob, &ada) };
    assert_eq!(email_of(&app, winner).await, "shared@example.com");
    assert_eq!(email_of(&app, loser).await, format!("{}@example.com", loser.username));
}

async fn another_members_address_gets_the_same_answer_and_no_mail(app: TestApp) {
    let ada = app.member("ada").await;
    let _bob = app.member("bob").await;
    let links = links_stored(&app).await;
    let (status, body) = ask(&app, &ada, "bob@example.com").await;
    assert_eq!((status, body), (200, json!({ "message": SENT })));
    assert_eq!(links_stored(&app).await, links + 1, "the same work as for a free address");
    // A free address asked for after it is sent its link; Bob's address is sent nothing.
    ask_and_receive(&app, &ada, "ada.free@example.com").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(mailbox::mail_to(&outbox(&app), "bob@example.com").is_empty());
    assert_eq!(email_of(&app, &ada).await, "ada@example.com");
}

async fn bad_addresses_are_refused_with_a_reason(app: TestApp) {
    let ada = app.member("ada").await;
    for (email, message) in [
        ("", "Please enter your email address."),
        ("not an address", "Please enter a valid email address."),
        (&format!("{}@example.com", "a".repeat(250)), "Email address is too long (at most 254 characters)."),
        (" ADA@example.com", "This is already your e-mail address."),
    ] {
        assert_eq!(ask(&app, &ada, email).await, (400, json!({ "message": message })), "{email}");
    }
    let (status, _) = read(
        ada.client.post(app.url("/api/auth/email")).json(&json!({ "address": "x@example.com" })).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, 400, "a body without the address");
    for token in ["", "short", &"a".repeat(44), &"a".repeat(5000)] {
        assert_eq!(confirm(&app, token).await, (400, json!({ "message": INVALID_LINK })));
    }
    assert_eq!(links_stored(&app).await, 0);
}

async fn address_change_links_are_limited_like_login_links(app: TestApp) {
    app.at_start_of_window(murmur::clock::HOUR);
    let ada = app.member("ada").await;
    for _ in 0..5 {
        assert_eq!(ask(&app, &ada, "ada.new@example.com").await.0, 200);
    }
    let (status, body) = ask(&app, &ada, "ada.new@example.com").await;
    assert_eq!(status, 429, "{body}");
    // Login links for the address share the allowance.
    assert_eq!(request_login(&app, "ada.new@example.com").await.0, 429);
}

async fn a_visitor_cannot_ask_to_change_an_address(app: TestApp) {
    let (status, body) = read(
        app.client.post(app.url("/api/auth/email")).json(&json!({ "email": "x@example.com" })).send().await.unwrap(),
    )
    .await;
    assert_eq!((status, body), (401, json!({ "message": "Unauthorized" })));
}

both_databases!(
    a_member_changes_their_address_through_the_link_sent_to_it,
    an_address_change_link_works_once_and_for_fifteen_minutes,
    confirming_one_change_withdraws_the_others_asked_for,
    an_address_change_link_logs_nobody_in_and_a_login_link_changes_no_address,
    an_address_taken_meanwhile_is_refused_and_the_address_stays,
    of_two_members_confirming_one_address_at_once_exactly_one_gets_it,
    another_members_address_gets_the_same_answer_and_no_mail,
    bad_addresses_are_refused_with_a_reason,
    address_change_links_are_limited_like_login_links,
    a_visitor_cannot_ask_to_change_an_address,
);
