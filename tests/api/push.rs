//! Web Push (docs/push.md): a local push service (tests/push/push_service.py) receives what
//! Murmur sends, checks the VAPID signature against the instance's public key and decrypts the
//! payload with the browser's private key using code written by others (Python's `http_ece` and
//! `cryptography`); here the tests check that it got exactly the pushes expected. Without that
//! Python the tests that need it are skipped with a printed reason, unless
//! MURMUR_REQUIRE_SERVICES=1 (CI) makes that a failure.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use crate::both_databases_with;
use crate::common::{Member, TestApp, client_for, json as read};
use crate::posts::{delete, get, id, like, post, put, repost, write};

/// The local push service, and what it received.
pub(crate) struct PushService {
    _child: Child,
    pub port: u16,
    /// The browser's keys to subscribe with.
    pub keys: Value,
    received: mpsc::UnboundedReceiver<Value>,
}

impl PushService {
    /// Starts the service checking signatures against `instance_key`; None when its Python is
    /// not installed (and not required).
    pub async fn start(instance_key: &str) -> Option<PushService> {
        let python = crate::smtp::python_path();
        let installed = std::process::Command::new(&python)
            .args(["-c", "import http_ece, cryptography"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !installed {
            let reason = format!("{} cannot import http_ece", python.display());
            if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
                panic!("MURMUR_REQUIRE_SERVICES=1 but {reason}; run scripts/install-test-deps.sh");
            }
            eprintln!("skipped: {reason}; run scripts/install-test-deps.sh");
            return None;
        }
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/push/push_service.py");
        let mut child = Command::new(python)
            .arg(script)
            .arg(instance_key)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the push service starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("the push service says where it listens")
            .unwrap()
            .expect("a first line");
        let keys: Value = serde_json::from_str(&first).unwrap();
        let (tx, received) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let _ = tx.send(serde_json::from_str::<Value>(&line).unwrap());
            }
        });
        Some(PushService { _child: child, port: keys["port"].as_u64().unwrap() as u16, keys, received })
    }

    pub fn endpoint(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The subscription body for `path` with these alerts and policy.
    pub fn subscription(&self, path: &str, alerts: Value, policy: &str) -> Value {
        json!({
            "endpoint": self.endpoint(path),
            "expirationTime": null,
            "keys": { "p256dh": self.keys["p256dh"], "auth": self.keys["auth"] },
            "alerts": alerts,
            "policy": policy,
        })
    }

    /// The next push received within `wait`, checked: signed by the instance for this service,
    /// encrypted for this browser. None when none came.
    pub async fn next(&mut self, wait: Duration) -> Option<Value> {
        let push = tokio::time::timeout(wait, self.received.recv()).await.ok()??;
        assert_eq!(push["problems"], json!([]), "the push service found problems: {push}");
        Some(push)
    }
}

pub(crate) fn allow_loopback(config: &mut murmur::Config) {
    config.outbound_allow = murmur::config::AddressRanges::parse("127.0.0.1").unwrap();
}

async fn instance_key(app: &TestApp, who: &Member) -> String {
    let (status, body) = get(app, who, "/api/push/key").await;
    assert_eq!(status, 200, "{body}");
    body["publicKey"].as_str().unwrap().to_string()
}

async fn subscribe(app: &TestApp, who: &Member, body: Value) -> (u16, Value) {
    post(app, who, "/api/push/subscriptions", body).await
}

const EVERY_ALERT: &str = r#"{"reply": true, "mention": true, "like": true, "repost": true, "follow": true, "poll": true,
    "quote": true, "message": true}"#;

fn every_alert() -> Value {
    serde_json::from_str(EVERY_ALERT).unwrap()
}

async fn a_like_is_pushed_encrypted_and_signed_by_the_instance(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let key = instance_key(&app, &ada).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let (status, body) = subscribe(&app, &ada, service.subscription("/ada", every_alert(), "all")).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["serverKey"], key.as_str());
    assert_eq!(body["alerts"], every_alert());
    let (status, listed) = get(&app, &ada, "/api/push/subscriptions").await;
    assert_eq!((status, &listed["endpoint"]), (200, &json!(service.endpoint("/ada"))));

    let post_id = id(&write(&app, &ada, "Counting things today").await);
    like(&app, &bob, post_id).await;

    let push = service.next(Duration::from_secs(20)).await.expect("the like is pushed");
    assert_eq!(push["path"], "/ada");
    assert_eq!(push["ttl"], "86400");
    assert_eq!(push["urgency"], "low");
    assert_eq!(
        push["payload"],
        json!({
            "title": "Bob liked your post",
            "body": "Counting things today",
            "link": app.url(&format!("/post/{post_id}")),
            "tag": format!("like-{post_id}"),
        })
    );
    assert!(!push.to_string().contains("@example.com"), "no e-mail address leaves: {push}");
    assert!(service.next(Duration::from_secs(2)).await.is_none(), "one push for one like");
}

async fn only_the_alerts_asked_for_and_only_from_followed_members_are_pushed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let key = instance_key(&app, &ada).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let alerts = json!({ "like": false, "repost": true });
    let (status, body) = subscribe(&app, &ada, service.subscription("/ada", alerts, "followed")).await;
    assert_eq!(status, 201, "{body}");
    let (status, _) = post(&app, &ada, "/api/follows", json!({ "followingId": cyd.id })).await;
    assert_eq!(status, 200);
    let post_id = id(&write(&app, &ada, "Hello").await);

    like(&app, &cyd, post_id).await; // likes are off
    repost(&app, &bob, post_id).await; // Ada does not follow Bob
    repost(&app, &cyd, post_id).await;

    let push = service.next(Duration::from_secs(20)).await.expect("Cyd's repost is pushed");
    assert_eq!(push["payload"]["title"], "Cyd reposted your post");
    assert!(service.next(Duration::from_secs(3)).await.is_none(), "nothing else is pushed");
}

async fn a_subscription_the_push_service_forgot_is_removed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let key = instance_key(&app, &ada).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let (status, body) = subscribe(&app, &ada, service.subscription("/gone/ada", every_alert(), "all")).await;
    assert_eq!(status, 201, "{body}");

    let (status, _) = post(&app, &bob, "/api/follows", json!({ "followingId": ada.id })).await;
    assert_eq!(status, 200);
    let push = service.next(Duration::from_secs(20)).await.expect("the follow is pushed, and answered 410");
    assert_eq!(push["payload"]["title"], "Bob followed you");
    assert_eq!(push["payload"]["link"], app.url("/profile/bob"));

    for _ in 0..100 {
        let (status, _) = get(&app, &ada, "/api/push/subscriptions").await;
        if status == 404 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the subscription is still there after the push service answered 410");
}

async fn blocked_and_muted_members_send_nothing(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    let key = instance_key(&app, &ada).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let (status, body) = subscribe(&app, &ada, service.subscription("/ada", every_alert(), "all")).await;
    assert_eq!(status, 201, "{body}");
    let post_id = id(&write(&app, &ada, "Hello").await);
    let (status, _) = post(&app, &ada, "/api/blocks", json!({ "userId": cyd.id })).await;
    assert_eq!(status, 201);
    let (status, _) = post(&app, &ada, "/api/mutes", json!({ "userId": dee.id, "durationHours": null })).await;
    assert_eq!(status, 201);

    // A blocked member cannot like; a muted one can, and Ada is not told (in the app or here).
    let (status, _) = post(&app, &cyd, &format!("/api/posts/{post_id}/like"), json!({})).await;
    assert_ne!(status, 200, "a blocked member's like is refused");
    like(&app, &dee, post_id).await;
    like(&app, &bob, post_id).await;

    let push = service.next(Duration::from_secs(20)).await.expect("Bob's like is pushed");
    assert_eq!(push["payload"]["title"], "Bob liked your post", "the first push is Bob's: {push}");
    assert!(service.next(Duration::from_secs(3)).await.is_none(), "nothing from Cyd or Dee");
}

async fn bad_subscriptions_are_refused_with_a_reason(app: TestApp) {
    let ada = app.member("ada").await;
    let p256dh = "BEMRqX1INEDBfYUW5ArobdeAKeOY6dm9xsNITdkXt4LLjQEMTwRSHN1PV64z5DvMEP3yPt_FYapJkOthLbgxQTs";
    let auth = "_ordMnz7uTCmrpBTeUV4Bw";
    let with = |endpoint: &str, p256dh: &str, auth: &str, alerts: Value, policy: &str| json!({ "endpoint": endpoint, "keys": { "p256dh": p256dh, "auth": auth }, "alerts": alerts, "policy": policy });
    let good = "https://push.example.invalid/send/1";
    let long = format!("https://push.example.invalid/{}", "a".repeat(1100));
    let not_on_curve = format!("BA{}", "A".repeat(85));
    let cases = [
        (with("https://127.0.0.1/send", p256dh, auth, json!({}), "all"), "not a public address"),
        (with("https://[::1]/send", p256dh, auth, json!({}), "all"), "not a public address"),
        (with("https://localhost/send", p256dh, auth, json!({}), "all"), "not a public address"),
        (with("https://169.254.169.254/latest", p256dh, auth, json!({}), "all"), "not a public address"),
        (with("https://[::ffff:10.0.0.1]/send", p256dh, auth, json!({}), "all"), "not a public address"),
        (with("http://93.184.215.14/send", p256dh, auth, json!({}), "all"), "must be https"),
        (with("https://me:pw@93.184.215.14/send", p256dh, auth, json!({}), "all"), "password"),
        (with("https://push.example.invalid/send", p256dh, auth, json!({}), "all"), "does not resolve"),
        (with(&long, p256dh, auth, json!({}), "all"), "longer than 1024"),
        (with("/relative", p256dh, auth, json!({}), "all"), "absolute URL"),
        (with(good, "not*base64", auth, json!({}), "all"), "not base64url"),
        (with(good, &p256dh[..40], auth, json!({}), "all"), "65 bytes"),
        (with(good, &not_on_curve, auth, json!({}), "all"), "not a P-256 public key"),
        (with(good, p256dh, "AAAA", json!({}), "all"), "16-byte"),
        (with(good, p256dh, auth, json!({ "favourite": true }), "all"), "Unknown alert `favourite`"),
        (with(good, p256dh, auth, json!({}), "friends"), "Unknown policy `friends`"),
    ];
    for (body, message) in cases {
        let (status, answer) = subscribe(&app, &ada, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer["message"].as_str().unwrap().contains(message), "{body}: {answer} should say {message}");
    }
    let (status, answer) = subscribe(&app, &ada, json!({ "endpoint": good })).await;
    assert!(status == 400 || status == 422, "missing keys: {status} {answer}");
    assert!(answer["message"].as_str().unwrap().contains("keys"), "{answer}");
    let (status, _) = get(&app, &ada, "/api/push/subscriptions").await;
    assert_eq!(status, 404, "nothing was kept");
}

async fn a_subscription_ends_with_its_session(app: TestApp) {
    let ada = app.member("ada").await;
    let key = instance_key(&app, &ada).await;
    let Some(service) = PushService::start(&key).await else { return };
    let (status, body) = subscribe(&app, &ada, service.subscription("/ada", every_alert(), "all")).await;
    assert_eq!(status, 201, "{body}");
    // Another of Ada's sessions sees none: the subscription is this session's.
    let token = murmur::sessions::create(&app.state.db.write, ada.id, app.clock.now()).await.unwrap();
    let other = client_for(&app.base, Some(&format!("{}={token}", murmur::session_cookie::name(&app.state.config))));
    let (status, _) = read(other.get(app.url("/api/push/subscriptions")).send().await.unwrap()).await;
    assert_eq!(status, 404);

    let (status, _) = delete(&app, &ada, "/api/push/subscriptions").await;
    assert_eq!(status, 204);
    let (status, _) = get(&app, &ada, "/api/push/subscriptions").await;
    assert_eq!(status, 404);
    let (status, body) = subscribe(&app, &ada, service.subscription("/ada", every_alert(), "all")).await;
    assert_eq!(status, 201, "{body}");
    let response = ada.client.post(app.url("/api/auth/logout")).send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let left: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(left, 0, "logging out ended the subscription");
}

const APP_PUSH: &str = "/api/v1/push/subscription";

/// A Mastodon app's subscription, as apps send it (a form in Rails' brackets, standard base64
/// keys): one per token, pushed by the same sender in Mastodon's shape, ended with the token.
async fn an_apps_subscription_is_its_tokens_and_gets_mastodons_payload(app: TestApp) {
    use crate::mastodon::{AppClient, token_for};
    use base64::Engine as _;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let key = instance_key(&app, &ada).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let ada_token = token_for(&app, &ada, "read write push").await;
    let ada_app = AppClient::new(&app, &ada_token);
    let standard = |key: &Value| {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(key.as_str().unwrap()).unwrap();
        base64::engine::general_purpose::STANDARD.encode(bytes)
    };
    let (p256dh, auth) = (standard(&service.keys["p256dh"]), standard(&service.keys["auth"]));
    let endpoint = service.endpoint("/ada-app");
    let form = [
        ("subscription[endpoint]", endpoint.as_str()),
        ("subscription[keys][p256dh]", p256dh.as_str()),
        ("subscription[keys][auth]", auth.as_str()),
        ("data[alerts][favourite]", "true"),
        ("data[alerts][mention]", "true"),
        ("data[alerts][status]", "true"),
        ("policy", "all"),
    ];
    let (status, subscription) = ada_app.form(APP_PUSH, &form).await;
    assert_eq!(status, 200, "{subscription}");
    assert_eq!(subscription["server_key"], key.as_str());
    assert_eq!(subscription["endpoint"], endpoint.as_str());
    assert_eq!(
        subscription["alerts"],
        json!({ "mention": true, "favourite": true, "reblog": false, "follow": false, "poll": false,
                "status": false, "update": false, "follow_request": false, "admin.sign_up": false,
                "admin.report": false, "quote": false, "quoted_update": false })
    );
    // The web session's subscription is another one: the token's is not the session's.
    let (status, _) = get(&app, &ada, "/api/push/subscriptions").await;
    assert_eq!(status, 404);

    let post_id = id(&write(&app, &ada, "Counting things today").await);
    like(&app, &bob, post_id).await;
    let push = service.next(Duration::from_secs(20)).await.expect("the like is pushed to the app");
    assert_eq!(push["path"], "/ada-app");
    let (_, notifications) = ada_app.get("/api/v1/notifications").await;
    assert_eq!(
        push["payload"],
        json!({
            "notification_id": notifications[0]["id"],
            "notification_type": "favourite",
            "preferred_locale": "en",
            "title": "Bob liked your post",
            "body": "Counting things today",
            "icon": "",
        })
    );
    assert!(!push.to_string().contains(&ada_token), "no token leaves: {push}");

    // A change of alerts keeps the device; reposts are off, so Bob's repost is not pushed.
    let (status, changed) = ada_app.put(APP_PUSH, json!({ "data": { "alerts": { "favourite": false } } })).await;
    assert_eq!((status, &changed["alerts"]["favourite"], &changed["endpoint"]), (200, &json!(false), &json!(endpoint)));
    repost(&app, &bob, post_id).await;
    assert!(service.next(Duration::from_secs(3)).await.is_none(), "nothing pushed for an alert turned off");

    // Bad input is a 422 with Mastodon's shape; a token without `push` is refused; another
    // member's token sees only its own (none).
    let (status, refusal) = ada_app.put(APP_PUSH, json!({ "data": { "policy": "none" } })).await;
    assert_eq!(status, 422, "{refusal}");
    assert!(refusal["error"].as_str().unwrap().contains("policy"), "{refusal}");
    let (status, refusal) = ada_app.put(APP_PUSH, json!({ "data": { "alerts": { "dance": true } } })).await;
    assert!(status == 422 && refusal["error"].as_str().unwrap().contains("dance"), "{status} {refusal}");
    let reader = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    assert_eq!(reader.get(APP_PUSH).await.0, 403);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write push").await);
    assert_eq!(bob_app.get(APP_PUSH).await.0, 404);
    assert_eq!(bob_app.delete(APP_PUSH).await.0, 200);
    assert_eq!(ada_app.get(APP_PUSH).await.0, 200, "Bob's delete touched only his own");

    // Revoking the app in Settings ends its token, and the token's subscription with it.
    let (_, apps) = read(ada.client.get(app.url("/api/apps")).send().await.unwrap()).await;
    for connected in apps.as_array().unwrap() {
        let url = app.url(&format!("/api/apps/{}", connected["id"]));
        assert_eq!(ada.client.delete(url).send().await.unwrap().status().as_u16(), 204);
    }
    let left: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(left, 0, "revoking the app ended its subscription");
}

/// A warned post's text is behind its warning in the app; a push, shown on a lock screen, keeps
/// it there too: in the web app's payload and in an app's (Mastodon's shape) alike.
async fn a_reply_with_a_content_warning_is_pushed_with_the_warning_never_its_text(app: TestApp) {
    use crate::mastodon::{AppClient, token_for};
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let key = instance_key(&app, &ada).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let (status, body) = subscribe(&app, &ada, service.subscription("/ada", every_alert(), "all")).await;
    assert_eq!(status, 201, "{body}");
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write push").await);
    let endpoint = service.endpoint("/ada-app");
    let (status, body) = ada_app
        .post(
            APP_PUSH,
            json!({ "subscription": { "endpoint": endpoint, "keys": { "p256dh": service.keys["p256dh"], "auth": service.keys["auth"] } },
                    "data": { "alerts": { "mention": true } } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let post_id = id(&write(&app, &ada, "Who did it?").await);

    let (status, body) = post(
        &app,
        &bob,
        "/api/posts",
        json!({ "content": "Snape kills Dumbledore", "replyToId": post_id, "spoilerText": "Book spoilers" }),
    )
    .await;
    assert_eq!(status, 201, "{body}");

    let mut bodies = Vec::new();
    for _ in 0..2 {
        let push = service.next(Duration::from_secs(20)).await.expect("the reply is pushed to both subscriptions");
        assert!(!push.to_string().contains("Snape"), "the warned text never leaves: {push}");
        bodies.push((push["path"].as_str().unwrap().to_string(), push["payload"]["body"].clone()));
    }
    bodies.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        bodies,
        [
            ("/ada".to_string(), json!("Content warning: Book spoilers")),
            ("/ada-app".to_string(), json!("Content warning: Book spoilers")),
        ]
    );
}

async fn a_message_is_pushed_by_who_sent_it_never_its_words(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let key = instance_key(&app, &bob).await;
    let Some(mut service) = PushService::start(&key).await else { return };
    let (status, body) = subscribe(&app, &bob, service.subscription("/bob", json!({ "message": true }), "all")).await;
    assert_eq!((status, &body["alerts"]["message"]), (201, &json!(true)), "{body}");
    let (status, _) = post(&app, &bob, "/api/follows", json!({ "followingId": ada.id })).await;
    assert_eq!(status, 200);
    let _ = service.next(Duration::from_secs(2)).await; // nothing asked of a follow: none comes
    let (status, conversation) = post(&app, &ada, "/api/conversations", json!({ "memberIds": [bob.id] })).await;
    assert_eq!(status, 201, "{conversation}");
    let id = conversation["id"].as_i64().unwrap();
    let send = |content: &'static str| {
        let (app, ada) = (&app, &ada);
        async move { post(app, ada, &format!("/api/conversations/{id}/messages"), json!({ "content": content })).await }
    };
    assert_eq!(send("The secret is tea").await.0, 201);

    let push = service.next(Duration::from_secs(20)).await.expect("the message is pushed");
    assert_eq!(push["urgency"], "normal");
    assert_eq!(
        push["payload"],
        json!({
            "title": "Ada sent you a message",
            "body": "@ada",
            "link": app.url(&format!("/messages/{id}")),
            "tag": format!("message-{id}"),
        })
    );
    assert!(!push.to_string().contains("secret"), "a message's words never leave: {push}");

    // A muted conversation is pushed no more; Ada is not pushed her own messages.
    let (status, _) = put(&app, &bob, &format!("/api/conversations/{id}/mute"), Some(json!({ "muted": true }))).await;
    assert_eq!(status, 200);
    assert_eq!(send("Still tea").await.0, 201);
    assert!(service.next(Duration::from_secs(3)).await.is_none(), "nothing of a muted conversation");
}

both_databases_with!(a_like_is_pushed_encrypted_and_signed_by_the_instance, super::allow_loopback);
both_databases_with!(a_message_is_pushed_by_who_sent_it_never_its_words, super::allow_loopback);
both_databases_with!(only_the_alerts_asked_for_and_only_from_followed_members_are_pushed, super::allow_loopback);
both_databases_with!(a_subscription_the_push_service_forgot_is_removed, super::allow_loopback);
both_databases_with!(blocked_and_muted_members_send_nothing, super::allow_loopback);
both_databases_with!(bad_subscriptions_are_refused_with_a_reason, |_: &mut murmur::Config| {});
both_databases_with!(a_subscription_ends_with_its_session, super::allow_loopback);
both_databases_with!(an_apps_subscription_is_its_tokens_and_gets_mastodons_payload, super::allow_loopback);
both_databases_with!(a_reply_with_a_content_warning_is_pushed_with_the_warning_never_its_text, super::allow_loopback);

/// Two `murmur serve` processes on one PostgreSQL database share one VAPID key, and each push
/// is sent once although both send (each woken by the likes it served, and sweeping).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_postgres_send_each_push_once() {
    use crate::processes::TwoProcesses;
    let allow = |command: &mut Command| {
        command.env("MURMUR_OUTBOUND_ALLOW", "127.0.0.1");
    };
    let Some(two) = TwoProcesses::start_with(allow).await else { return };
    let TwoProcesses { a, b, db, .. } = &two;
    let now = chrono::Utc::now().timestamp_millis();
    let (_, ada_token) = crate::common::insert_member(db, now, "ada").await;
    let ada_on_a = client_for(&a.base, Some(&format!("murmur_session={ada_token}")));
    let ada_on_b = client_for(&b.base, Some(&format!("murmur_session={ada_token}")));

    let key_of = |client: reqwest::Client, url: String| async move {
        let (status, body) = read(client.get(url).send().await.unwrap()).await;
        assert_eq!(status, 200, "{body}");
        body["publicKey"].as_str().unwrap().to_string()
    };
    let key = key_of(ada_on_a.clone(), a.url("/api/push/key")).await;
    assert_eq!(key, key_of(ada_on_b.clone(), b.url("/api/push/key")).await, "one key for the instance");
    let Some(mut service) = PushService::start(&key).await else { return };
    let (status, body) = read(
        ada_on_a
            .post(a.url("/api/push/subscriptions"))
            .json(&service.subscription("/ada", every_alert(), "all"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let (status, post) =
        read(ada_on_b.post(b.url("/api/posts")).json(&json!({ "content": "Like me" })).send().await.unwrap()).await;
    assert_eq!(status, 201, "{post}");

    const LIKERS: usize = 12;
    let mut likes = Vec::new();
    for n in 0..LIKERS {
        let (_, token) = crate::common::insert_member(db, now, &format!("liker{n:02}")).await;
        let server = if n % 2 == 0 { &a } else { &b };
        let client = client_for(&server.base, Some(&format!("murmur_session={token}")));
        let url = server.url(&format!("/api/posts/{}/like", post["id"]));
        likes.push(async move { client.post(url).send().await.unwrap().status().as_u16() });
    }
    assert!(futures::future::join_all(likes).await.iter().all(|s| *s == 200));

    let mut titles = Vec::new();
    while titles.len() < LIKERS {
        let push = service.next(Duration::from_secs(30)).await.unwrap_or_else(|| panic!("only {titles:?} arrived"));
        titles.push(push["payload"]["title"].as_str().unwrap().to_string());
    }
    // Past a sweep of both processes: nothing is sent twice.
    assert!(service.next(Duration::from_secs(12)).await.is_none(), "a push was sent twice");
    titles.sort();
    titles.dedup();
    assert_eq!(titles.len(), LIKERS, "each like pushed once: {titles:?}");
}
