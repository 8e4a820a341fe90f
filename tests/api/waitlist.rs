//! The waitlist: joining (once, with no tell-tale answer), its limit, and the operator's
//! `murmur waitlist invite`.

use murmur::mail::Mailer;
use serde_json::{Value, json};

use crate::accounts::{outbox, request_sign_up};
use crate::both_databases;
use crate::common::{TestApp, json};
use crate::mailbox;
use crate::smtp::{SmtpServer, free_port};

const JOINED: &str = "You're on the list! We'll let you know when it's your turn.";

async fn join(app: &TestApp, email: &str) -> (u16, Value) {
    json(app.client.post(app.url("/api/waitlist")).json(&json!({ "email": email })).send().await.unwrap()).await
}

async fn waiting(app: &TestApp) -> Vec<(String, Option<i64>)> {
    sqlx::query_as("SELECT email, invited_at FROM waitlist ORDER BY id").fetch_all(&app.state.db.read).await.unwrap()
}

async fn joining_twice_answers_the_same_and_stores_once(app: TestApp) {
    let first = join(&app, "ada@example.com").await;
    let again = join(&app, "  ADA@example.com ").await;
    assert_eq!(first, (200, json!({ "message": JOINED })));
    assert_eq!(again, first);
    assert_eq!(waiting(&app).await, vec![("ada@example.com".to_string(), None)]);
}

async fn an_invalid_address_is_a_400_with_a_message(app: TestApp) {
    for (email, message) in [
        ("", "Please enter your email address."),
        ("ada", "Please enter a valid email address."),
        ("ada@example", "Please enter a valid email address."),
    ] {
        let (status, body) = join(&app, email).await;
        assert_eq!((status, body["message"].as_str().unwrap()), (400, message), "{email:?}");
    }
    assert!(waiting(&app).await.is_empty());
}

async fn joins_are_limited_per_client_ip(app: TestApp) {
    for i in 0..10 {
        assert_eq!(join(&app, &format!("p{i}@example.com")).await.0, 200);
    }
    let response =
        app.client.post(app.url("/api/waitlist")).json(&json!({ "email": "p10@example.com" })).send().await.unwrap();
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
    assert_eq!(waiting(&app).await.len(), 10);
}

async fn the_operator_invites_the_oldest_waiting_addresses(app: TestApp) {
    for email in ["first@example.com", "member@example.com", "second@example.com", "third@example.com"] {
        join(&app, email).await;
    }
    app.member("member").await; // joined the list, then got in with a friend's code
    let state = &app.state;
    let invited = murmur::waitlist::invite_oldest_with(&state.db, &state.mailer, &state.config, app.clock.now(), 2)
        .await
        .unwrap();
    assert_eq!(invited, 2);

    let list = waiting(&app).await;
    let invited_emails: Vec<&str> = list.iter().filter(|(_, at)| at.is_some()).map(|(e, _)| e.as_str()).collect();
    assert_eq!(invited_emails, ["first@example.com", "second@example.com"], "oldest first, members skipped");
    assert!(mailbox::mail_to(&outbox(&app), "member@example.com").is_empty());

    let mail = mailbox::nth_mail(&outbox(&app), "first@example.com", 1).await;
    assert_eq!(mail.subject(), "Your invite to Murmur");
    assert!(mail.has_text_and_html());
    assert!(mail.decoded.contains(&format!("{}/?login=1", app.base)), "a link to the instance");
    let code = invite_code_in(&mail.decoded);
    let (status, body) = request_sign_up(&app, "first@example.com", &code).await;
    assert_eq!(status, 200, "the e-mailed code signs up: {body}");

    // The next run takes only who is left; the `murmur waitlist invite` entry point works too.
    let invited = murmur::waitlist::invite_oldest(&state.config, 5).await.unwrap();
    assert_eq!(invited, 1);
    assert_eq!(mailbox::mail_to(&outbox(&app), "third@example.com").len(), 1);
    let again = murmur::waitlist::invite_oldest(&state.config, 5).await.unwrap();
    assert_eq!(again, 0);
    let operator_codes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invites WHERE owner_id IS NULL")
        .fetch_one(&state.db.read)
        .await
        .unwrap();
    assert_eq!(operator_codes, 3);
}

async fn waitlist_invites_go_through_a_real_smtp_server(app: TestApp) {
    let Some(smtp) = SmtpServer::start().await else { return };
    join(&app, "ada@example.com").await;
    let mut config = (*app.state.config).clone();
    config.smtp_url = Some(smtp.url());
    let mailer = Mailer::from_config(&config).unwrap();
    let invited =
        murmur::waitlist::invite_oldest_with(&app.state.db, &mailer, &config, app.clock.now(), 1).await.unwrap();
    assert_eq!(invited, 1);
    let mail = mailbox::nth_mail(&smtp.maildir(), "ada@example.com", 1).await;
    assert_eq!(mail.subject(), "Your invite to Murmur");
    let code = invite_code_in(&mail.decoded);
    assert_eq!(request_sign_up(&app, "ada@example.com", &code).await.0, 200);
}

async fn a_failed_invite_email_leaves_the_address_waiting(app: TestApp) {
    join(&app, "ada@example.com").await;
    join(&app, "grace@example.com").await;
    let mut config = (*app.state.config).clone();
    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", free_port()));
    let mailer = Mailer::from_config(&config).unwrap();
    let err =
        murmur::waitlist::invite_oldest_with(&app.state.db, &mailer, &config, app.clock.now(), 2).await.unwrap_err();
    assert!(format!("{err:#}").contains("ada@example.com"), "{err:#}");
    assert!(waiting(&app).await.iter().all(|(_, at)| at.is_none()), "nobody is marked invited");
    let codes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invites").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(codes, 0, "the unsent code is gone");
}

/// The 12-character code on a line of its own in the plain-text part.
fn invite_code_in(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .find(|l| l.len() == 12 && l.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
        .expect("an invite code in the message")
        .to_string()
}

both_databases!(
    joining_twice_answers_the_same_and_stores_once,
    an_invalid_address_is_a_400_with_a_message,
    joins_are_limited_per_client_ip,
    the_operator_invites_the_oldest_waiting_addresses,
    waitlist_invites_go_through_a_real_smtp_server,
    a_failed_invite_email_leaves_the_address_waiting,
);
