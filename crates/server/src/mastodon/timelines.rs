//! Timelines: home (Murmur's Friends), public (every member's posts, newest first) and a tag's;
//! and Mastodon's paging, shared by every list here: `max_id` (older than), `since_id` and
//! `min_id` (newer than), `limit`, and the `Link` header that names the next and previous pages.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::Value;

use super::auth::Token;
use super::entities;
use super::error::{MastodonError, Result};
use super::params::{QueryParams, lenient};
use crate::state::AppState;
use murmur_core::page::Page;
use murmur_domain::feeds::cache::{Answer, Feed};
use murmur_domain::posts::hydrate;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/timelines/home", get(home))
        .route("/api/v1/timelines/public", get(public))
        .route("/api/v1/timelines/tag/{name}", get(tag))
        .route("/api/v1/markers", get(markers).post(set_markers))
}

/// Mastodon's paging parameters.
#[derive(Debug, Default, Deserialize)]
pub struct Paging {
    #[serde(default, deserialize_with = "lenient::id")]
    pub max_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::id")]
    pub since_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::id")]
    pub min_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::i64")]
    pub limit: Option<i64>,
}

/// Lists answer 20 items unless asked for up to 40, as Mastodon's do.
const DEFAULT_LIMIT: i64 = 20;
const MAX_LIMIT: i64 = 40;

impl Paging {
    pub fn limit(&self) -> Result<i64> {
        match self.limit {
            None => Ok(DEFAULT_LIMIT),
            Some(limit) if limit < 1 => Err(MastodonError::unprocessable("limit must be at least 1")),
            // Mastodon answers its maximum for a larger limit rather than refusing it.
            Some(limit) => Ok(limit.min(MAX_LIMIT)),
        }
    }

    /// The page of a list ordered by id, newest first. `min_id` is taken as `since_id`: the
    /// newest items above it (Mastodon answers the oldest above it; apps that fill a gap with
    /// it then ask again from the top).
    pub fn page(&self) -> Result<Page> {
        Ok(Page::window(self.limit()?, self.max_id, self.since_id.or(self.min_id)))
    }
}

/// The page of a list Murmur pages by offset (its order is not by id): `max_id` is the offset of
/// the next page, as this module's `Link` header names it.
pub fn offset_page(paging: &Paging) -> Result<Page> {
    Ok(Page::parse(Some(paging.limit()?), paging.max_id, DEFAULT_LIMIT, MAX_LIMIT)?)
}

/// A list's answer with its `Link` header: `next` (older, `max_id`) and `prev` (newer,
/// `min_id`), keyed by `key(index)` of the last and first items.
pub fn paged<T: serde::Serialize>(
    state: &AppState,
    uri: &Uri,
    items: Vec<T>,
    key: impl Fn(usize) -> i64,
) -> Result<Response> {
    let keys = (!items.is_empty()).then(|| (key(0), key(items.len() - 1)));
    Ok(with_links(state, uri, keys, Json(items).into_response()))
}

/// `response` with the `Link` header of a page whose first and last items have these keys (none
/// for an empty page).
pub fn with_links(state: &AppState, uri: &Uri, keys: Option<(i64, i64)>, mut response: Response) -> Response {
    let Some((first, last)) = keys else { return response };
    let path = uri.path();
    let kept: Vec<(String, String)> = url::form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
        .filter(|(k, _)| !matches!(k.as_ref(), "max_id" | "since_id" | "min_id"))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let link = |param: &str, value: i64, rel: &str| {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.extend_pairs(kept.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        query.append_pair(param, &value.to_string());
        format!("<{}{path}?{}>; rel=\"{rel}\"", state.config.public_origin(), query.finish())
    };
    let links = [link("max_id", last, "next"), link("min_id", first, "prev")];
    if let Ok(value) = HeaderValue::from_str(&links.join(", ")) {
        response.headers_mut().insert(header::LINK, value);
    }
    response
}

/// A page of posts as statuses, with its links (keyed by the posts' ids).
pub async fn posts_page(
    state: &AppState,
    uri: &Uri,
    viewer: i64,
    posts: Vec<murmur_domain::posts::Post>,
) -> Result<Response> {
    let statuses = entities::statuses(state, viewer, &posts).await?;
    let ids: Vec<i64> = statuses.iter().map(|status| status.id.parse().unwrap_or(0)).collect();
    paged(state, uri, statuses, |index| ids[index])
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
