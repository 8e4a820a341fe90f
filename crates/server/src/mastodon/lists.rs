//! The member's lists as Mastodon's (`GET /api/v1/lists`, `/api/v1/lists/:id`) and a list's
//! timeline (`/api/v1/timelines/list/:list_id`), over the same domain functions as Murmur's own
//! routes (`murmur_domain::lists`). Another member's list is a 404, as a list that does not exist.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::auth::Token;
use super::error::{MastodonError, Result};
use super::params::QueryParams;
use super::timelines::{Paging, posts_page};
use crate::state::AppState;
use murmur_domain::lists::{self, List};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/lists", get(all))
        .route("/api/v1/lists/{id}", get(one))
        .route("/api/v1/timelines/list/{id}", get(timeline))
}

/// Mastodon's List: a list's posts show only in it (`exclusive` false: also in Home), and
/// replies are not in Murmur's feeds (`replies_policy` "none").
fn entity(list: &List) -> Value {
    json!({ "id": list.id.to_string(), "title": list.title, "replies_policy": "none", "exclusive": false })
}

/// An id from the path: a list's, or nothing (Mastodon's ids are strings; a bad one is no list).
fn list_id(id: &str) -> Result<i64> {
    id.parse().ok().filter(|id| *id > 0).ok_or_else(MastodonError::not_found)
}

/// Another member's list, or none: Mastodon's 404.
fn not_found_as_mastodon(error: murmur_core::error::Error) -> MastodonError {
    match error {
        murmur_core::error::Error::NotFound(_) => MastodonError::not_found(),
        other => other.into(),
    }
}

async fn all(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    let member = token.member("read:lists")?;
    let lists = lists::lists_of(&state.db, member).await?;
    Ok(Json(Value::Array(lists.iter().map(entity).collect())))
}

async fn one(State(state): State<AppState>, token: Token, Path(id): Path<String>) -> Result<Json<Value>> {
    let member = token.member("read:lists")?;
    let list = lists::get(&state.db, member, list_id(&id)?).await.map_err(not_found_as_mastodon)?;
    Ok(Json(entity(&list)))
}

/// A list's feed, paged by id as Home is.
async fn timeline(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(id): Path<String>,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:lists")?;
    let posts = lists::feed::page(&state.db, viewer, list_id(&id)?, paging.page()?, state.clock.now())
        .await
        .map_err(not_found_as_mastodon)?;
    posts_page(&state, &uri, viewer, posts).await
}
