//! Direct messages through the Mastodon API (issue 63): a `direct` status is a message in the
//! conversation of its author and the members it mentions (or of the message it replies to),
//! read, threaded and deleted as a status by the conversation's members only; the member's
//! conversations at `/api/v1/conversations`; the `direct` stream. Murmur's rules hold as in its
//! own API: who may be written to, requests kept from apps, blocks, scopes.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::mastodon::{AppClient, next_event, open_stream, token_for};
use crate::posts::{follow, get};
use crate::stream_ends::{Carried, Socket, open_socket};

/// Where message status ids start (`mastodon::entities::MESSAGE_IDS_FROM`).
const MESSAGE_IDS_FROM: i64 = 1 << 60;

fn id_of(status: &Value) -> String {
    status["id"].as_str().unwrap().to_string()
}

/// The conversations of `who` in Murmur's own API, in their `box`.
async fn murmur_conversations(app: &TestApp, who: &Member, place: &str) -> Vec<Value> {
    let (status, body) = get(app, who, &format!("/api/conversations?box={place}")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().clone()
}

async fn apps_write_read_and_thread_direct_messages_among_their_members_only(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &bob, &ada).await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write").await);
    let cyd_app = AppClient::new(&app, &token_for(&app, &cyd, "read write").await);

    let (status, first) =
        ada_app.post("/api/v1/statuses", json!({"status": "@bob Tea at four?", "visibility": "direct"})).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["visibility"], "direct", "{first}");
    assert!(id_of(&first).parse::<i64>().unwrap() > MESSAGE_IDS_FROM, "{first}");
    assert_eq!(first["mentions"][0]["username"], "bob", "{first}");
    assert_eq!(first["account"]["username"], "ada", "{first}");
    assert!(first["content"].as_str().unwrap().contains("Tea at four?"), "{first}");
    // It is a message in Murmur: in Bob's inbox, and in no feed.
    let inbox = murmur_conversations(&app, &bob, "inbox").await;
    assert_eq!(inbox.len(), 1, "{inbox:?}");
    assert_eq!(inbox[0]["lastMessage"]["content"], "@bob Tea at four?", "{inbox:?}");
    let (_, home) = bob_app.get("/api/v1/timelines/home").await;
    assert_eq!(home, json!([]), "a message is in no timeline");
    let (_, profile) = bob_app.get(&format!("/api/v1/accounts/{}/statuses", ada.id)).await;
    assert_eq!(profile, json!([]), "nor on a profile");

    let (status, conversations) = bob_app.get("/api/v1/conversations").await;
    assert_eq!(status, 200, "{conversations}");
    let one = &conversations[0];
    assert_eq!(conversations.as_array().unwrap().len(), 1, "{conversations}");
    assert_eq!((&one["unread"], &one["accounts"][0]["username"]), (&json!(true), &json!("ada")), "{one}");
    assert_eq!(one["last_status"]["id"], first["id"], "{one}");
    let conversation = one["id"].as_str().unwrap().to_string();

    // A reply to a message stays in its conversation, without mentioning anyone.
    let reply_body = json!({"status": "Yes, at yours", "visibility": "direct", "in_reply_to_id": id_of(&first)});
    let (status, reply) = bob_app.post("/api/v1/statuses", reply_body).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["mentions"][0]["username"], "ada", "a reply mentions the others: {reply}");
    assert_eq!(murmur_conversations(&app, &ada, "inbox").await.len(), 1);
    let (status, context) = ada_app.get(&format!("/api/v1/statuses/{}/context", id_of(&first))).await;
    assert_eq!(status, 200, "{context}");
    assert_eq!(
        (context["ancestors"].clone(), context["descendants"][0]["id"].clone()),
        (json!([]), reply["id"].clone())
    );
    let (_, context) = ada_app.get(&format!("/api/v1/statuses/{}/context", id_of(&reply))).await;
    assert_eq!(context["ancestors"][0]["id"], first["id"], "{context}");
    let (status, shown) = ada_app.get(&format!("/api/v1/statuses/{}", id_of(&reply))).await;
    assert_eq!((status, &shown["visibility"]), (200, &json!("direct")), "{shown}");

    let (status, read) = bob_app.post(&format!("/api/v1/conversations/{conversation}/read"), json!({})).await;
    assert_eq!((status, &read["unread"]), (200, &json!(false)), "{read}");

    // Cyd is in none of it: every id answers 404, as one that does not exist.
    let message = id_of(&first);
    for path in [format!("/api/v1/statuses/{message}"), format!("/api/v1/statuses/{message}/context")] {
        let (status, body) = cyd_app.get(&path).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    assert_eq!(cyd_app.delete(&format!("/api/v1/statuses/{message}")).await.0, 404);
    assert_eq!(cyd_app.post(&format!("/api/v1/conversations/{conversation}/read"), json!({})).await.0, 404);
    assert_eq!(cyd_app.delete(&format!("/api/v1/conversations/{conversation}")).await.0, 404);
    let reply_body = json!({"status": "Me too", "visibility": "direct", "in_reply_to_id": message});
    assert_eq!(cyd_app.post("/api/v1/statuses", reply_body).await.0, 404);
    assert_eq!(cyd_app.get("/api/v1/conversations").await.1, json!([]));
    // A message is no post: nothing of a post's is done to it.
    assert_eq!(bob_app.post(&format!("/api/v1/statuses/{message}/favourite"), json!({})).await.0, 404);
    assert_eq!(bob_app.post(&format!("/api/v1/statuses/{message}/reblog"), json!({})).await.0, 404);

    // Only its author deletes it; it is answered with its text, then gone for apps.
    assert_eq!(bob_app.delete(&format!("/api/v1/statuses/{message}")).await.0, 403);
    let (status, deleted) = ada_app.delete(&format!("/api/v1/statuses/{message}")).await;
    assert_eq!((status, &deleted["text"]), (200, &json!("@bob Tea at four?")), "{deleted}");
    assert_eq!(bob_app.get(&format!("/api/v1/statuses/{message}")).await.0, 404);

    // Putting it away takes it out of the member's list alone.
    let (status, body) = bob_app.delete(&format!("/api/v1/conversations/{conversation}")).await;
    assert_eq!((status, body), (200, json!({})));
    assert_eq!(bob_app.get("/api/v1/conversations").await.1, json!([]));
    assert_eq!(ada_app.get("/api/v1/conversations").await.1.as_array().unwrap().len(), 1);
}

async fn a_direct_status_follows_murmurs_rules_and_refuses_what_a_message_lacks(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &bob, &ada).await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let reader = AppClient::new(&app, &token_for(&app, &bob, "read").await);

    let direct = |extra: Value| {
        let mut body = json!({"status": "@bob hello", "visibility": "direct"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    for (body, reason) in [
        (direct(json!({"media_ids": ["1"]})), "media_ids"),
        (direct(json!({"poll": {"options": ["a", "b"], "expires_in": 3600}})), "poll"),
        (direct(json!({"spoiler_text": "careful"})), "content warning"),
        (direct(json!({"status": "hello nobody"})), "mention"),
        (direct(json!({"status": "@nobody_here hello"})), "mention"),
        (direct(json!({"status": format!("@bob {}", "m".repeat(1000))})), "1000"),
        (json!({"status": "hi", "visibility": "private"}), "direct"),
    ] {
        let (status, answer) = ada_app.post("/api/v1/statuses", body.clone()).await;
        assert!((400..500).contains(&status) && status != 404, "{body}: {status} {answer}");
        assert!(answer["error"].as_str().unwrap().contains(reason), "{body}: {answer}");
    }
    // Cyd takes messages only from people she follows, and does not follow Ada.
    let (status, answer) = ada_app.post("/api/v1/statuses", json!({"status": "@cyd hi", "visibility": "direct"})).await;
    assert_eq!(status, 403, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("people they follow"), "{answer}");
    assert!(murmur_conversations(&app, &cyd, "requests").await.is_empty());

    // Scopes: reading conversations is `read:statuses`, changing them `write:conversations`.
    let (_, sent) = ada_app.post("/api/v1/statuses", direct(json!({}))).await;
    let (status, listed) = reader.get("/api/v1/conversations").await;
    assert_eq!(status, 200, "{listed}");
    let conversation = listed[0]["id"].as_str().unwrap().to_string();
    assert_eq!(reader.post(&format!("/api/v1/conversations/{conversation}/read"), json!({})).await.0, 403);
    assert_eq!(reader.post("/api/v1/statuses", json!({"status": "@ada hi", "visibility": "direct"})).await.0, 403);
    assert_eq!(reader.get(&format!("/api/v1/statuses/{}", id_of(&sent))).await.0, 200);

    // A block ends new messages, from apps as from Murmur.
    let (status, _) = crate::posts::post(&app, &bob, "/api/blocks", json!({ "userId": ada.id })).await;
    assert_eq!(status, 201);
    let (status, answer) = ada_app.post("/api/v1/statuses", direct(json!({}))).await;
    assert_eq!(status, 403, "{answer}");
}

async fn the_direct_stream_carries_a_conversation_when_a_message_arrives(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let bob_token = token_for(&app, &bob, "read").await;
    let notifications_only = token_for(&app, &bob, "read:notifications").await;
    let refused = reqwest::Client::new()
        .get(app.url("/api/v1/streaming/direct"))
        .bearer_auth(&notifications_only)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403, "the direct stream needs read:statuses");

    let mut stream = open_stream(&app.url("/api/v1/streaming/direct"), &bob_token).await;
    let (status, sent) =
        ada_app.post("/api/v1/statuses", json!({"status": "@bob are you there?", "visibility": "direct"})).await;
    assert_eq!(status, 200, "{sent}");
    let (name, conversation) =
        next_event(&mut stream, Duration::from_secs(5)).await.expect("a conversation event within five seconds");
    assert_eq!(name, "conversation", "{conversation}");
    assert_eq!((&conversation["unread"], &conversation["last_status"]["id"]), (&json!(true), &sent["id"]));
    // A post is no business of this stream.
    let (status, _) = ada_app.post("/api/v1/statuses", json!({"status": "Public news"})).await;
    assert_eq!(status, 200);
    assert!(next_event(&mut stream, Duration::from_millis(500)).await.is_none());
}

/// The next message a socket sends within `wait`: (its streams, event, payload).
async fn socket_event(socket: &mut Socket, wait: Duration) -> Option<(Value, String, Value)> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.ok()?? {
            Ok(Message::Text(text)) => {
                let message: Value = serde_json::from_str(text.as_str()).unwrap();
                let payload =
                    serde_json::from_str(message["payload"].as_str().unwrap_or("null")).unwrap_or(Value::Null);
                return Some((message["stream"].clone(), message["event"].as_str()?.to_string(), payload));
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

async fn one_websocket_carries_every_stream_an_app_subscribes_to(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let bob_token = token_for(&app, &bob, "read").await;
    let mut socket = open_socket(&app, "user", &bob_token, Carried::Header).await;
    let subscribe = |kind: &str| Message::Text(json!({"type": kind, "stream": "direct"}).to_string().into());
    socket.send(subscribe("subscribe")).await.unwrap();

    // A subscription is not answered: Ada writes until one of her messages is heard.
    let mut heard = None;
    for attempt in 0..10 {
        let (status, sent) = ada_app
            .post("/api/v1/statuses", json!({"status": format!("@bob hello, {attempt}"), "visibility": "direct"}))
            .await;
        assert_eq!(status, 200, "{sent}");
        if let Some(event) = socket_event(&mut socket, Duration::from_secs(1)).await {
            heard = Some(event);
            break;
        }
    }
    let (streams, name, conversation) = heard.expect("a conversation on the socket");
    assert_eq!((streams, name.as_str()), (json!(["direct"]), "conversation"), "{conversation}");
    let (_, post) = ada_app.post("/api/v1/statuses", json!({"status": "For everyone"})).await;
    let (streams, name, update) = socket_event(&mut socket, Duration::from_secs(5)).await.expect("an update");
    assert_eq!((streams, name.as_str(), &update["id"]), (json!(["user"]), "update", &post["id"]));

    // Unsubscribed, the direct stream says nothing more; the user stream goes on.
    socket.send(subscribe("unsubscribe")).await.unwrap();
    let (_, post) = ada_app.post("/api/v1/statuses", json!({"status": "Again for everyone"})).await;
    let (status, _) =
        ada_app.post("/api/v1/statuses", json!({"status": "@bob still there?", "visibility": "direct"})).await;
    assert_eq!(status, 200);
    let (streams, name, update) = socket_event(&mut socket, Duration::from_secs(5)).await.expect("an update");
    assert_eq!((streams, name.as_str(), &update["id"]), (json!(["user"]), "update", &post["id"]));
    assert!(socket_event(&mut socket, Duration::from_millis(500)).await.is_none());
}

both_databases!(
    one_websocket_carries_every_stream_an_app_subscribes_to,
    apps_write_read_and_thread_direct_messages_among_their_members_only,
    a_direct_status_follows_murmurs_rules_and_refuses_what_a_message_lacks,
    the_direct_stream_carries_a_conversation_when_a_message_arrives,
);
