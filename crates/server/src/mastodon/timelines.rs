//! Timelines: home (Murmur's Friends), public (every member's posts, newest first) and a tag's,
//! and the markers apps keep their reading position with.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::Value;

use super::auth::Token;
use super::entities;
use super::error::{MastodonError, Result};
use super::paging::{Paging, posts_page, with_links};
use super::params::{QueryParams, lenient};
use crate::state::AppState;
use murmur_domain::feeds::cache::{Answer, Feed};
use murmur_domain::posts::hydrate;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/timelines/home", get(home))
        .route("/api/v1/timelines/public", get(public))
        .route("/api/v1/timelines/tag/{name}", get(tag))
        .route("/api/v1/markers", get(markers).post(set_markers))
}

/// Home: the member's Friends feed (their own and followed members' posts and reposts). Its
/// pages are kept ready as Friends' are (`feeds::cache`), under the marks read first.
async fn home(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:statuses")?;
    let page = paging.page()?;
    let now = state.clock.now();
    let marks = token.0.marks;
    let answer = match state.feed_cache.get(viewer, Feed::MastodonHome, page, marks, now) {
        Some(kept) => kept,
        None => {
            let posts = murmur_domain::feeds::friends_page(&state.db, viewer, page, now).await?;
            let statuses = entities::statuses(&state, viewer, &posts).await?;
            let id = |status: &entities::Status| status.id.parse().unwrap_or(0);
            let edges = statuses.first().zip(statuses.last()).map(|(first, last)| (id(first), id(last)));
            let answer = Answer::json(&statuses, edges)?;
            state.feed_cache.keep(viewer, Feed::MastodonHome, page, marks, now, answer.clone());
            answer
        }
    };
    let body = ([(header::CONTENT_TYPE, "application/json")], answer.body).into_response();
    Ok(with_links(&state, &uri, answer.edges, body))
}

/// Every member's posts, newest first, without those hidden from the viewer.
async fn public(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:statuses")?;
    let selection = murmur_domain::discovery::latest(paging.page()?, state.clock.now());
    let posts = hydrate::list(&state.db.read, state.db.backend, viewer, &selection).await?;
    posts_page(&state, &uri, viewer, posts).await
}

/// A tag's posts, newest first, as its page in Murmur shows them.
async fn tag(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(name): Path<String>,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:statuses")?;
    let page = paging.page()?;
    let posts = murmur_domain::discovery::tag_posts(&state.db, viewer, &name, page, state.clock.now()).await?;
    posts_page(&state, &uri, viewer, posts).await
}

#[derive(Deserialize)]
struct MarkersParams {
    #[serde(default, deserialize_with = "lenient::strings")]
    timeline: Vec<String>,
}

fn markers_answer(markers: Vec<murmur_domain::apps::markers::Marker>) -> Json<Value> {
    let mut answer = serde_json::Map::new();
    for marker in markers {
        answer.insert(
            marker.timeline.clone(),
            serde_json::json!({
                "last_read_id": marker.last_read_id.to_string(),
                "version": marker.version,
                "updated_at": murmur_core::clock::to_rfc3339(marker.updated_at),
            }),
        );
    }
    Json(Value::Object(answer))
}

/// Where the member stopped reading, as their apps keep it.
async fn markers(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<MarkersParams>,
) -> Result<Json<Value>> {
    let member = token.member("read:statuses")?;
    let found = murmur_domain::apps::markers::read(&state.db.read, member, &params.timeline).await?;
    Ok(markers_answer(found))
}

#[derive(Deserialize)]
struct MarkerUpdate {
    #[serde(default, deserialize_with = "lenient::id")]
    last_read_id: Option<i64>,
}

#[derive(Deserialize)]
struct SetMarkers {
    home: Option<MarkerUpdate>,
    notifications: Option<MarkerUpdate>,
}

async fn set_markers(
    State(state): State<AppState>,
    token: Token,
    super::params::Params(body): super::params::Params<SetMarkers>,
) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    let now = state.clock.now();
    let mut set = Vec::new();
    let last_read = |update: MarkerUpdate| {
        update.last_read_id.ok_or_else(|| MastodonError::unprocessable("last_read_id is required"))
    };
    if let Some(update) = body.home {
        set.push(murmur_domain::apps::markers::set_home(&state.db.write, member, last_read(update)?, now).await?);
    }
    if let Some(update) = body.notifications {
        // As the web app's Notifications screen: the notifications up to the marker are read.
        set.push(murmur_domain::notifications::mark_seen(&state.db, member, last_read(update)?, now).await?);
    }
    Ok(markers_answer(set))
}
