//! Streaming as Mastodon apps read it: the `user` stream (new posts of the people the member
//! follows as `update`, edits of those posts and the member's own as `status.update`, their
//! deletions as `delete`, and the member's notifications) and `user:notification`
//! (notifications only), as Server-Sent Events (`/api/v1/streaming/user`) or over a WebSocket
//! (`/api/v1/streaming`).
//! Both are fed by Murmur's live bus (`murmur_domain::live`), so they work across processes: a
//! stream is opened on this process's broker, and each of its events is turned into
//! Mastodon's entities for the member.

use std::convert::Infallible;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::{Stream, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::auth::{Token, bearer_of};
use super::error::{MastodonError, Result};
use super::params::QueryParams;
use crate::state::AppState;
use murmur_core::error::Error;
use murmur_core::page::Page;
use murmur_domain::live::broker::{Frame, Wants};
use murmur_domain::notifications::store::{self as notifications, Kinds};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/streaming/health", get(health))
        .route("/api/v1/streaming/user", get(user_sse))
        .route("/api/v1/streaming/user/notification", get(notification_sse))
        .route("/api/v1/streaming", get(websocket))
}

async fn health() -> &'static str {
    "OK"
}

/// Which of a member's events a stream carries.
#[derive(Clone, Copy, Debug)]
struct Wanted {
    updates: bool,
}

impl Wanted {
    fn of(stream: &str) -> Option<Wanted> {
        match stream {
            "user" => Some(Wanted { updates: true }),
            "user:notification" => Some(Wanted { updates: false }),
            _ => None,
        }
    }
}

/// One Mastodon event: its name and its payload (JSON text).
struct Outgoing {
    event: &'static str,
    payload: String,
}

/// The member's Mastodon events until their stream or token ends.
async fn events(state: AppState, token: Token, secret: String, wanted: Wanted) -> Result<mpsc::Receiver<Outgoing>> {
    let member = token.member("read:statuses").or_else(|_| token.member("read:notifications"))?;
    let hash = murmur_core::secrets::hash_token(&secret);
    let wants = Wants { counts_of: None, edits: wanted.updates };
    let opened =
        state.live.broker.open(member, &hash, wants, None).ok_or_else(|| {
            MastodonError(Error::Unavailable("The server is restarting; try again in a moment".into()))
        })?;
    let now = state.clock.now();
    // Notifications newer than the newest one now are the stream's.
    let newest = notifications::entries(&state.db.read, member, Kinds::ALL, Page::new(1, 0), now).await?;
    let mut last_notification = newest.rows.first().map_or(0, |row| row.id);
    let (tx, rx) = mpsc::channel(32);
    let mut frames = opened.frames;
    murmur_core::metrics::live_stream_opened();
    tokio::spawn(async move {
        while let Some(frame) = frames.recv().await {
            let Frame::Event { name, data, .. } = frame else { break };
            let sent = match name {
                "notification" => {
                    let page = Page::window(20, None, Some(last_notification));
                    let read = notifications::entries(&state.db.read, member, Kinds::ALL, page, state.clock.now());
                    let Ok(entries) = read.await else { continue };
                    last_notification = entries.rows.first().map_or(last_notification, |row| row.id);
                    let shown = super::notifications::entities_of(&state, member, &entries.rows, entries.members)
                        .await
                        .unwrap_or_default();
                    let mut ok = true;
                    for notification in shown.into_iter().rev() {
                        ok &= tx
                            .send(Outgoing { event: "notification", payload: json_text(&notification) })
                            .await
                            .is_ok();
                    }
                    ok
                }
                "feed" if wanted.updates => {
                    let ids: Vec<i64> = serde_json::from_str::<Value>(&data)
                        .ok()
                        .and_then(|v| v["postIds"].as_array().map(|ids| ids.iter().filter_map(Value::as_i64).collect()))
                        .unwrap_or_default();
                    send_statuses(&state, member, &ids, "update", &tx).await
                }
                // A new post's card, fetched after it was sent: an update of the post.
                "post-edited" | "post-card" if wanted.updates => match post_id_of(&data) {
                    Some(id) => send_statuses(&state, member, &[id], "status.update", &tx).await,
                    None => true,
                },
                // Mastodon's payload is the bare id, not JSON.
                "post-deleted" if wanted.updates => match post_id_of(&data) {
                    Some(id) => tx.send(Outgoing { event: "delete", payload: id.to_string() }).await.is_ok(),
                    None => true,
                },
                // Some session of the member ended: the stream lives on while its token does.
                "session-ended" => {
                    murmur_domain::apps::holder(&state.credentials.tokens, &state.db.write, &secret, state.clock.now())
                        .await
                        .is_ok_and(|holder| holder.is_some())
                }
                _ => !tx.is_closed(),
            };
            if !sent {
                break;
            }
        }
    });
    Ok(rx)
}

/// The `postId` of a broker event's data.
fn post_id_of(data: &str) -> Option<i64> {
    serde_json::from_str::<Value>(data).ok()?["postId"].as_i64()
}

/// Sends posts `ids` as the member sees them (Mastodon's Status) under `event`; those hidden
/// from them or gone meanwhile are left out. False once the stream is gone.
async fn send_statuses(
    state: &AppState,
    member: i64,
    ids: &[i64],
    event: &'static str,
    tx: &mpsc::Sender<Outgoing>,
) -> bool {
    let selection = murmur_domain::posts::hydrate::Selection::ids(ids);
    let posts = murmur_domain::posts::hydrate::list(&state.db.read, state.db.backend, member, &selection)
        .await
        .unwrap_or_default();
    let statuses = super::entities::statuses(state, member, &posts).await.unwrap_or_default();
    for status in statuses {
        if tx.send(Outgoing { event, payload: json_text(&status) }).await.is_err() {
            return false;
        }
    }
    !tx.is_closed()
}

/// An entity as an event's text (entities always serialize).
fn json_text(entity: &impl serde::Serialize) -> String {
    serde_json::to_string(entity).unwrap_or_default()
}

fn outgoing_stream(rx: mpsc::Receiver<Outgoing>) -> impl Stream<Item = Outgoing> {
    futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) })
}

async fn sse(
    state: AppState,
    token: Token,
    headers: &HeaderMap,
    query: Option<&str>,
    wanted: Wanted,
) -> Result<Response> {
    let secret = bearer_of(headers, query).ok_or(MastodonError(Error::Unauthorized))?;
    let rx = events(state, token, secret, wanted).await?;
    let events =
        outgoing_stream(rx).map(|out| Ok::<_, Infallible>(Event::default().event(out.event).data(out.payload)));
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(crate::routes::live::HEARTBEAT)).into_response())
}

async fn user_sse(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response> {
    sse(state, token, &headers, uri.query(), Wanted { updates: true }).await
}

async fn notification_sse(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response> {
    sse(state, token, &headers, uri.query(), Wanted { updates: false }).await
}

#[derive(Deserialize)]
struct StreamParams {
    stream: Option<String>,
}

/// A WebSocket carrying one stream (`stream=user` or `user:notification`, or the first
/// `{"type": "subscribe", "stream": …}` message), each event as
/// `{"stream": [name], "event": …, "payload": "<JSON text>"}`.
async fn websocket(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    uri: axum::http::Uri,
    QueryParams(params): QueryParams<StreamParams>,
    upgrade: WebSocketUpgrade,
) -> Result<Response> {
    let secret = bearer_of(&headers, uri.query()).ok_or(MastodonError(Error::Unauthorized))?;
    let named = match params.stream.as_deref() {
        Some(stream) => Some(
            Wanted::of(stream)
                .map(|w| (stream.to_string(), w))
                .ok_or_else(|| MastodonError::unprocessable("stream must be user or user:notification"))?,
        ),
        None => None,
    };
    // A token sent as the subprotocol is named back, as browsers require.
    let protocol = headers.get(header::SEC_WEBSOCKET_PROTOCOL).and_then(|v| v.to_str().ok()).map(str::to_string);
    let upgrade = match protocol {
        Some(protocol) if !headers.contains_key(header::AUTHORIZATION) => upgrade.protocols([protocol]),
        _ => upgrade,
    };
    // A stream named in the URL is opened before the handshake is answered, so nothing that
    // happens once the client holds the socket is missed.
    let opened = match &named {
        Some((name, wanted)) => {
            Some((name.clone(), events(state.clone(), token.clone(), secret.clone(), *wanted).await?))
        }
        None => None,
    };
    Ok(upgrade.on_upgrade(move |socket| serve_socket(socket, state, token, secret, opened)))
}

async fn serve_socket(
    mut socket: WebSocket,
    state: AppState,
    token: Token,
    secret: String,
    opened: Option<(String, mpsc::Receiver<Outgoing>)>,
) {
    let (name, mut rx) = match opened {
        Some(opened) => opened,
        None => {
            let Some((name, wanted)) = first_subscription(&mut socket).await else { return };
            let Ok(rx) = events(state, token, secret, wanted).await else { return };
            (name, rx)
        }
    };
    // A ping now and then keeps proxies from closing a quiet socket.
    let heartbeat = crate::routes::live::HEARTBEAT;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + heartbeat, heartbeat);
    loop {
        tokio::select! {
            _ = pings.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
            }
            out = rx.recv() => {
                let Some(out) = out else { break };
                let message = json!({ "stream": [name], "event": out.event, "payload": out.payload }).to_string();
                if socket.send(Message::Text(message.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                _ => {}
            },
        }
    }
}

/// The first `subscribe` message's stream, for a socket opened without `stream=`.
async fn first_subscription(socket: &mut WebSocket) -> Option<(String, Wanted)> {
    while let Some(Ok(message)) = socket.recv().await {
        if let Message::Text(text) = message
            && let Ok(asked) = serde_json::from_str::<Value>(text.as_str())
            && asked["type"] == "subscribe"
            && let Some(stream) = asked["stream"].as_str()
            && let Some(wanted) = Wanted::of(stream)
        {
            return Some((stream.to_string(), wanted));
        }
    }
    None
}
