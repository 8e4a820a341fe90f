//! Streaming as Mastodon apps read it: the `user` stream (new posts of the people the member
//! follows as `update`, edits of those posts and the member's own as `status.update`, their
//! deletions as `delete`, and the member's notifications) and `user:notification`
//! (notifications only), and `direct` (the member's conversations, as `conversation` when a
//! message arrives or one is read), as Server-Sent Events (`/api/v1/streaming/user`,
//! `/api/v1/streaming/direct`) or over a WebSocket (`/api/v1/streaming`), which carries as many
//! of them as the app subscribes to.
//! Both are fed by Murmur's live bus (`murmur_domain::live`), so they work across processes: a
//! stream is opened on this process's broker, and each of its events is turned into
//! Mastodon's entities for the member.
//! A stream carries only what its token's scopes let the REST endpoints show (`read:statuses`
//! for posts, `read:notifications` for notifications; none of it: 403 before it opens), and
//! lives while its token does: it closes when the token ends (`live::credentials_ended`), and its token
//! is read again before each event, as a request's is.

use std::convert::Infallible;
use std::sync::Arc;

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
use murmur_domain::apps;
use murmur_domain::live::broker::{Frame, Wants};
use murmur_domain::notifications::{self, Kinds};
use murmur_domain::sessions::Credential;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/streaming/health", get(health))
        .route("/api/v1/streaming/user", get(user_sse))
        .route("/api/v1/streaming/user/notification", get(notification_sse))
        .route("/api/v1/streaming/direct", get(direct_sse))
        .route("/api/v1/streaming", get(websocket))
}

async fn health() -> &'static str {
    "OK"
}

/// A stream as an app names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Named {
    /// `user`: posts and notifications.
    User,
    /// `user:notification`: notifications only.
    UserNotification,
    /// `direct`: the member's conversations.
    Direct,
}

impl Named {
    fn of(stream: &str) -> Option<Named> {
        match stream {
            "user" => Some(Named::User),
            "user:notification" => Some(Named::UserNotification),
            "direct" => Some(Named::Direct),
            _ => None,
        }
    }
}

/// Which of a member's events a stream carries: what it names, within its token's scopes.
#[derive(Clone, Copy, Debug)]
struct Carried {
    statuses: bool,
    notifications: bool,
    conversations: bool,
}

impl Carried {
    /// What `token` may read of the stream `named`: refused (403) when nothing.
    fn of(named: Named, token: &Token) -> Result<Carried> {
        let scopes = &token.0.scopes;
        let carried = Carried {
            statuses: named == Named::User && scopes.allow("read:statuses"),
            notifications: named != Named::Direct && scopes.allow("read:notifications"),
            conversations: named == Named::Direct && scopes.allow("read:statuses"),
        };
        if !carried.statuses && !carried.notifications && !carried.conversations {
            return Err(MastodonError::forbidden("This stream is outside the authorized scopes"));
        }
        Ok(carried)
    }
}

/// One Mastodon event: its name and its payload (JSON text).
struct Outgoing {
    event: &'static str,
    payload: String,
}

/// The member's Mastodon events of stream `named` until the stream or its token ends.
async fn events(state: AppState, token: Token, secret: String, named: Named) -> Result<mpsc::Receiver<Outgoing>> {
    let carried = Carried::of(named, &token)?;
    let member = token.any_member()?;
    let credential = Credential::AppToken(murmur_core::secrets::hash_token(&secret));
    let wants = Wants { counts_of: None, edits: carried.statuses };
    let opened =
        state.live.broker.open(member, Arc::new(credential), wants, None).ok_or_else(|| {
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
            // Its token ended (the broker says so once it knows), or ends before this event is
            // sent (its end may be on its way from another process).
            let holds = apps::holder(&state.credentials.tokens, &state.db.write, &secret, state.clock.now()).await;
            if name == "session-ended" || !holds.is_ok_and(|holder| holder.is_some()) {
                break;
            }
            let sent = match name {
                "notification" if carried.notifications => {
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
                "feed" if carried.statuses => {
                    let ids: Vec<i64> = serde_json::from_str::<Value>(&data)
                        .ok()
                        .and_then(|v| v["postIds"].as_array().map(|ids| ids.iter().filter_map(Value::as_i64).collect()))
                        .unwrap_or_default();
                    send_statuses(&state, member, &ids, "update", &tx).await
                }
                // A new post's card, fetched after it was sent: an update of the post.
                "post-edited" | "post-card" if carried.statuses => match id_in(&data, "postId") {
                    Some(id) => send_statuses(&state, member, &[id], "status.update", &tx).await,
                    None => true,
                },
                // A conversation the app lists (not a request) has a new message, or was read.
                "message" if carried.conversations => match id_in(&data, "conversationId") {
                    Some(id) => match super::conversations::entity(&state, member, id).await {
                        Ok(Some(conversation)) => {
                            tx.send(Outgoing { event: "conversation", payload: json_text(&conversation) }).await.is_ok()
                        }
                        // Gone from the member's list meanwhile.
                        _ => !tx.is_closed(),
                    },
                    None => true,
                },
                // Mastodon's payload is the bare id, not JSON.
                "post-deleted" if carried.statuses => match id_in(&data, "postId") {
                    Some(id) => tx.send(Outgoing { event: "delete", payload: id.to_string() }).await.is_ok(),
                    None => true,
                },
                _ => !tx.is_closed(),
            };
            if !sent {
                break;
            }
        }
    });
    Ok(rx)
}

/// The id under `key` (`postId`, `conversationId`) of a broker event's data.
fn id_in(data: &str, key: &str) -> Option<i64> {
    serde_json::from_str::<Value>(data).ok()?[key].as_i64()
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
    named: Named,
) -> Result<Response> {
    let secret = bearer_of(headers, query).ok_or(MastodonError(Error::Unauthorized))?;
    let rx = events(state, token, secret, named).await?;
    let events =
        outgoing_stream(rx).map(|out| Ok::<_, Infallible>(Event::default().event(out.event).data(out.payload)));
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(crate::http::HEARTBEAT)).into_response())
}

async fn user_sse(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response> {
    sse(state, token, &headers, uri.query(), Named::User).await
}

async fn notification_sse(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response> {
    sse(state, token, &headers, uri.query(), Named::UserNotification).await
}

async fn direct_sse(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response> {
    sse(state, token, &headers, uri.query(), Named::Direct).await
}

#[derive(Deserialize)]
struct StreamParams {
    stream: Option<String>,
}

/// A WebSocket carrying the streams named in the URL (`stream=user`, `user:notification` or
/// `direct`) and by `{"type": "subscribe" | "unsubscribe", "stream": …}` messages, each event as
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
            Named::of(stream)
                .map(|n| (stream.to_string(), n))
                .ok_or_else(|| MastodonError::unprocessable("stream must be user, user:notification or direct"))?,
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
        Some((name, named)) => {
            Some((name.clone(), events(state.clone(), token.clone(), secret.clone(), *named).await?))
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
    let mut streams = Streams::default();
    if let Some((name, rx)) = opened {
        streams.carry(name, rx);
    }
    // A ping now and then keeps proxies from closing a quiet socket.
    let heartbeat = crate::http::HEARTBEAT;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + heartbeat, heartbeat);
    loop {
        tokio::select! {
            _ = pings.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
            }
            out = streams.all.next(), if !streams.all.is_empty() => {
                // Every stream ended on the server's side (its token ended, the server is closing).
                let Some((name, out)) = out else { break };
                if !streams.subscribed.contains(&name) {
                    continue;
                }
                let message = json!({ "stream": [name], "event": out.event, "payload": out.payload }).to_string();
                if socket.send(Message::Text(message.into())).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(Message::Text(text))) => match asked(text.as_str()) {
                    Some(Asked::Subscribe(name, _)) if streams.held.contains(&name) => {
                        streams.subscribed.insert(name);
                    }
                    Some(Asked::Subscribe(name, named)) => {
                        match events(state.clone(), token.clone(), secret.clone(), named).await {
                            Ok(rx) => streams.carry(name, rx),
                            // Told as Mastodon's streaming server tells it; a socket left with
                            // no stream at all is closed.
                            Err(refused) => {
                                let error = json!({ "error": refused.message(), "status": refused.status().as_u16() });
                                let _ = socket.send(Message::Text(error.to_string().into())).await;
                                if streams.all.is_empty() {
                                    break;
                                }
                            }
                        }
                    }
                    Some(Asked::Unsubscribe(name)) => {
                        streams.subscribed.remove(&name);
                    }
                    None => {}
                },
                _ => {}
            },
        }
    }
    let _ = socket.send(Message::Close(None)).await;
}

/// The streams one socket carries, by name: apps subscribe to several on one socket (`user` and
/// `direct`, say) and unsubscribe again. A stream once opened stays open until the socket
/// closes, and its events are sent only while it is subscribed (there are three names at most).
#[derive(Default)]
struct Streams {
    all: futures::stream::SelectAll<futures::stream::BoxStream<'static, (String, Outgoing)>>,
    held: std::collections::HashSet<String>,
    subscribed: std::collections::HashSet<String>,
}

impl Streams {
    fn carry(&mut self, name: String, rx: mpsc::Receiver<Outgoing>) {
        self.held.insert(name.clone());
        self.subscribed.insert(name.clone());
        self.all.push(outgoing_stream(rx).map(move |out| (name.clone(), out)).boxed());
    }
}

/// What a client's message on the socket asks.
enum Asked {
    Subscribe(String, Named),
    Unsubscribe(String),
}

/// A `{"type": "subscribe" | "unsubscribe", "stream": …}` message naming a known stream.
fn asked(text: &str) -> Option<Asked> {
    let asked = serde_json::from_str::<Value>(text).ok()?;
    let stream = asked["stream"].as_str()?;
    let named = Named::of(stream)?;
    match asked["type"].as_str()? {
        "subscribe" => Some(Asked::Subscribe(stream.to_string(), named)),
        "unsubscribe" => Some(Asked::Unsubscribe(stream.to_string())),
        _ => None,
    }
}
