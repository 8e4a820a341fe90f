//! A Mastodon app's streams end with their token, every way a token ends, and carry only what
//! the token's scopes let it read (docs/security.md, "Apps").

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::both_databases;
use crate::common::{Member, Served, TestApp, client_for, json};
use crate::live::Events;
use crate::mastodon::{AppClient, consent, exchange, open_stream, register_app, token_for};
use crate::posts::{follow, post};

pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How an app hands its token to a WebSocket.
#[derive(Clone, Copy, Debug)]
pub enum Carried {
    Header,
    Subprotocol,
    Query,
}

/// A WebSocket on `stream` (named in the URL) holding `token` as `carried`.
pub async fn open_socket(app: &impl Served, stream: &str, token: &str, carried: Carried) -> Socket {
    let mut url = app.url(&format!("/api/v1/streaming?stream={stream}")).replacen("http://", "ws://", 1);
    if let Carried::Query = carried {
        url.push_str(&format!("&access_token={token}"));
    }
    let mut request = url.into_client_request().unwrap();
    match carried {
        Carried::Header => {
            request.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
        }
        Carried::Subprotocol => {
            request.headers_mut().insert("sec-websocket-protocol", token.parse().unwrap());
        }
        Carried::Query => {}
    }
    tokio_tungstenite::connect_async(request).await.expect("the WebSocket opens").0
}

/// The event names a socket sends within `wait`, until it closes: (names, closed).
pub async fn socket_events(socket: &mut Socket, wait: Duration) -> (Vec<String>, bool) {
    let deadline = tokio::time::Instant::now() + wait;
    let mut names = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => return (names, false),
            Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return (names, true),
            Ok(Some(Ok(Message::Text(text)))) => {
                let message: Value = serde_json::from_str(text.as_str()).unwrap();
                names.push(message["event"].as_str().unwrap_or_default().to_string());
            }
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// The event names an SSE stream sends within `wait`, until it ends: (names, ended).
pub async fn sse_events(stream: &mut Events, wait: Duration) -> (Vec<String>, bool) {
    let deadline = tokio::time::Instant::now() + wait;
    let mut names = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match stream.next_or_end(left).await {
            Some(Some((_, name, _))) => names.push(name),
            Some(None) => return (names, true),
            None => return (names, false),
        }
    }
}

/// An app's token for `member` and the app's credentials, to revoke it as the app.
async fn token_and_client(app: &TestApp, member: &Member) -> (String, String, String) {
    let (client_id, secret) = register_app(app, "read write follow").await;
    let verifier = "a-verifier-of-enough-length-0123456789-abcdefghij";
    let code = consent(app, member, &client_id, "read write follow", verifier).await;
    let (status, body) = exchange(app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!(status, 200, "{body}");
    (body["access_token"].as_str().unwrap().to_string(), client_id, secret)
}

/// Every kind of stream `token` can open: SSE, and a WebSocket with the token in the header,
/// the subprotocol and the query.
async fn open_every_kind(app: &TestApp, token: &str) -> (Events, Vec<Socket>) {
    let sse = open_stream(&app.url("/api/v1/streaming/user"), token).await;
    let mut sockets = Vec::new();
    for carried in [Carried::Header, Carried::Subprotocol, Carried::Query] {
        sockets.push(open_socket(app, "user", token, carried).await);
    }
    (sse, sockets)
}

/// Asserts that every stream closes within a second, having sent nothing, and that a post Bob
/// makes after reaches none of them.
async fn assert_all_close(bob: &Member, app: &TestApp, (mut sse, mut sockets): (Events, Vec<Socket>), how: &str) {
    let within = Duration::from_secs(1);
    assert_eq!(sse_events(&mut sse, within).await, (vec![], true), "the SSE stream closes after {how}");
    for socket in &mut sockets {
        assert_eq!(socket_events(socket, within).await, (vec![], true), "a WebSocket closes after {how}");
    }
    assert_eq!(post(app, bob, "/api/posts", json!({"content": "after the end"})).await.0, 201);
    assert_eq!(sse_events(&mut sse, within).await.0, Vec::<String>::new());
}

async fn a_stream_ends_with_its_token_every_way_a_token_ends(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;

    // While the token holds, its streams carry Bob's posts; Ada's logging out of her browser
    // ends her session, not her app's token.
    let (token, client_id, secret) = token_and_client(&app, &ada).await;
    let (mut sse, mut sockets) = open_every_kind(&app, &token).await;
    let other_session = murmur::sessions::create(&app.state.db.write, ada.id, app.clock.now()).await.unwrap();
    let browser = client_for(&app.base, Some(&format!("murmur_session={other_session}")));
    let logout = browser.post(app.url("/api/auth/logout")).send().await.unwrap();
    assert!(logout.status().is_success(), "{}", logout.status());
    assert_eq!(post(&app, &bob, "/api/posts", json!({"content": "still live"})).await.0, 201);
    assert_eq!(sse.expect("update").await.1, "update");
    for socket in &mut sockets {
        let (names, closed) = socket_events(socket, Duration::from_millis(1500)).await;
        assert_eq!((names, closed), (vec!["update".to_string()], false));
    }

    // Revoked by the app (OAuth's revocation).
    let revoke = [("client_id", client_id.as_str()), ("client_secret", secret.as_str()), ("token", token.as_str())];
    let response = reqwest::Client::new().post(app.url("/oauth/revoke")).form(&revoke).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_all_close(&bob, &app, (sse, sockets), "a revocation").await;

    // Disconnected in Settings → Connected apps.
    let token = token_for(&app, &ada, "read").await;
    let streams = open_every_kind(&app, &token).await;
    let (_, listed) = json(ada.client.get(app.url("/api/apps")).send().await.unwrap()).await;
    let app_id = listed[0]["id"].as_i64().unwrap();
    let status = ada.client.delete(app.url(&format!("/api/apps/{app_id}"))).send().await.unwrap().status();
    assert_eq!(status, 204);
    assert_all_close(&bob, &app, streams, "a disconnection in Settings").await;

    // Logging out everywhere.
    let token = token_for(&app, &ada, "read").await;
    let streams = open_every_kind(&app, &token).await;
    let status = ada.client.post(app.url("/api/auth/logout-others")).send().await.unwrap().status();
    assert!(status.is_success(), "{status}");
    assert_all_close(&bob, &app, streams, "logging out everywhere").await;

    // A suspension.
    let token = token_for(&app, &ada, "read").await;
    let streams = open_every_kind(&app, &token).await;
    let eve = app.member("eve").await;
    sqlx::query("UPDATE users SET role = 'moderator' WHERE id = $1")
        .bind(eve.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let suspend = eve
        .client
        .post(app.url(&format!("/api/moderation/members/{}/suspend", ada.id)))
        .json(&json!({"reason": "Spam wave"}))
        .send()
        .await
        .unwrap();
    assert!(suspend.status().is_success(), "{}", suspend.status());
    assert_all_close(&bob, &app, streams, "a suspension").await;
}

async fn a_stream_carries_only_what_its_token_may_read(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write").await);
    follow(&app, &ada, &bob).await;
    let (_, mine) = AppClient::new(&app, &token_for(&app, &ada, "write").await)
        .post("/api/v1/statuses", json!({"status": "mine"}))
        .await;
    let within = Duration::from_millis(1500);

    // Notifications only: the user stream opens, and carries notifications but no posts.
    let notifications_only = token_for(&app, &ada, "read:notifications").await;
    assert_eq!(AppClient::new(&app, &notifications_only).get("/api/v1/timelines/home").await.0, 403);
    let mut sse = open_stream(&app.url("/api/v1/streaming/user"), &notifications_only).await;
    let mut socket = open_socket(&app, "user", &notifications_only, Carried::Header).await;
    let (status, _) = bob_app.post("/api/v1/statuses", json!({"status": "a post of Bob's"})).await;
    assert_eq!(status, 200);
    let (status, _) =
        bob_app.post(&format!("/api/v1/statuses/{}/favourite", mine["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(sse_events(&mut sse, within).await, (vec!["notification".to_string()], false));
    assert_eq!(socket_events(&mut socket, within).await, (vec!["notification".to_string()], false));

    // Statuses only: no notification stream at all (403 before it opens, or an error on a
    // socket that subscribes later), and the user stream carries posts but no notifications.
    let statuses_only = token_for(&app, &ada, "read:statuses").await;
    assert_eq!(AppClient::new(&app, &statuses_only).get("/api/v1/notifications").await.0, 403);
    let refused = reqwest::Client::new()
        .get(app.url("/api/v1/streaming/user/notification"))
        .bearer_auth(&statuses_only)
        .send()
        .await
        .unwrap();
    let (status, body) = json(refused).await;
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().unwrap().contains("scopes"), "{body}");
    let url = app.url("/api/v1/streaming?stream=user:notification").replacen("http://", "ws://", 1);
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert("authorization", format!("Bearer {statuses_only}").parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => assert_eq!(answer.status(), 403),
        other => panic!("the socket must be refused before it opens: {:?}", other.map(|(_, answer)| answer.status())),
    }
    let url = app.url("/api/v1/streaming").replacen("http://", "ws://", 1);
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert("authorization", format!("Bearer {statuses_only}").parse().unwrap());
    let (mut later, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let subscribe = json!({"type": "subscribe", "stream": "user:notification"}).to_string();
    later.send(Message::Text(subscribe.into())).await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(5), later.next()).await.unwrap().unwrap().unwrap();
    let answer: Value = serde_json::from_str(answer.to_text().unwrap()).unwrap();
    assert_eq!(answer["status"], 403, "{answer}");
    assert_eq!(socket_events(&mut later, within).await, (vec![], true));

    let mut sse = open_stream(&app.url("/api/v1/streaming/user"), &statuses_only).await;
    let (status, _) = bob_app.post("/api/v1/statuses", json!({"status": "another post"})).await;
    assert_eq!(status, 200);
    let (status, _) =
        bob_app.post(&format!("/api/v1/statuses/{}/reblog", mine["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(status, 200);
    let (names, _) = sse_events(&mut sse, within).await;
    assert!(names.iter().all(|name| name == "update") && names.contains(&"update".to_string()), "{names:?}");

    // A token that reads neither (write only) opens no stream.
    let write_only = token_for(&app, &ada, "write").await;
    let refused =
        reqwest::Client::new().get(app.url("/api/v1/streaming/user")).bearer_auth(&write_only).send().await.unwrap();
    assert_eq!(refused.status(), 403);
}

both_databases!(a_stream_ends_with_its_token_every_way_a_token_ends, a_stream_carries_only_what_its_token_may_read);
