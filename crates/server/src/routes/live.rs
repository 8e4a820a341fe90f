//! `GET /api/events`: the member's live events as Server-Sent Events.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::StreamExt;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::Query;
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::http::HEARTBEAT;
use crate::state::AppState;
use murmur_domain::live;
use murmur_domain::live::broker::{Frame, Wants};
use murmur_domain::sessions::Credential;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events))
}

/// Longest `Last-Event-ID` taken (ours are two numbers and a dash).
const MAX_EVENT_ID: usize = 48;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EventsParams {
    /// Also stream this post's counts (`post-counts`): the thread screen open.
    #[param(minimum = 1)]
    pub post: Option<i64>,
    /// The last event id seen, for a client that opens a new stream itself (a browser's own
    /// reconnect sends the `Last-Event-ID` header instead).
    #[param(max_length = 48)]
    pub last_event_id: Option<String>,
}

/// The caller's live events (`text/event-stream`): `hello`, `notification`, `unread-count`,
/// `feed`, `post-counts`, `reset`, `session-ended` (docs/live.md). Each has an `id`; a
/// reconnect with `Last-Event-ID` gets what it missed, or `reset` when that is no longer kept.
#[utoipa::path(get, path = "/api/events", tag = "live", params(EventsParams),
    responses(
        (status = 200, description = "Server-Sent Events", content_type = "text/event-stream", body = String),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 503, body = ErrorBody)))]
#[tracing::instrument(skip(state, headers, params), fields(user = current.id))]
async fn events(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    Query(params): Query<EventsParams>,
) -> Result<impl IntoResponse> {
    if params.post.is_some_and(|post| post < 1) {
        return Err(Error::bad_request("post must be a post's id").into());
    }
    let header = headers.get("last-event-id").and_then(|v| v.to_str().ok());
    let last = header.or(params.last_event_id.as_deref()).filter(|id| !id.is_empty());
    if last.is_some_and(|id| id.len() > MAX_EVENT_ID) {
        return Err(Error::bad_request("Last-Event-ID is not one of ours").into());
    }
    let broker = &state.live.broker;
    // The web app reads a post again rather than being told of its edit or deletion.
    let wants = Wants { counts_of: params.post, edits: false };
    let credential: Arc<dyn live::Credential> = Arc::new(Credential::Session(current.session_hash.clone()));
    let opened = broker
        .open(current.id, credential.clone(), wants, last)
        .ok_or_else(|| Error::Unavailable("The server is restarting; try again in a moment".to_string()))?;
    let now = state.clock.now();
    let mut first = broker.replay(&state.db, current.id, credential.as_ref(), wants, opened.missed, now).await?;
    first.push(Frame::Event { id: opened.hello_id, name: "hello", data: "{}".to_string() });
    murmur_core::metrics::live_stream_opened();
    let live =
        futures::stream::unfold(opened.frames, |mut frames| async move { frames.recv().await.map(|f| (f, frames)) });
    let frames = futures::stream::iter(first).chain(live);
    let events = frames.map(|frame| {
        Ok::<_, Infallible>(match frame {
            Frame::Event { id, name, data } => Event::default().id(id).event(name).data(data),
            Frame::Retry(after) => Event::default().retry(after).comment("closing"),
        })
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(HEARTBEAT).text("keep-alive")))
}
