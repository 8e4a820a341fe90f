//! The member's lists as Mastodon's: reading, making, renaming and deleting them, the people
//! in them (`/api/v1/lists/:id/accounts`), the lists holding someone
//! (`/api/v1/accounts/:id/lists`), and a list's timeline (`/api/v1/timelines/list/:list_id`),
//! over the same domain functions and rules as Murmur's own routes (`murmur_domain::lists`).
//! Another member's list is a 404, as a list that does not exist.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::entities::{self, Urls};
use super::error::{MastodonError, Result};
use super::paging::{Paging, paged, posts_page};
use super::params::{Params, QueryParams, lenient};
use crate::state::AppState;
use murmur_domain::lists::{self, List};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/lists", get(all).post(create))
        .route("/api/v1/lists/{id}", get(one).put(update).delete(delete))
        .route("/api/v1/lists/{id}/accounts", get(accounts).post(add_accounts).delete(remove_accounts))
        .route("/api/v1/accounts/{id}/lists", get(holding))
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

/// A list as an app makes or changes it.
#[derive(Deserialize)]
struct ListParams {
    title: Option<String>,
    /// `followed`, `list` or `none`: any is taken, as Murmur's feeds show no replies at all.
    replies_policy: Option<String>,
    #[serde(default, deserialize_with = "lenient::bool")]
    exclusive: Option<bool>,
}

impl ListParams {
    /// Refuses what Murmur's lists are not: a replies policy Mastodon does not name, and an
    /// exclusive list (a list's posts show in Home too).
    fn check(&self) -> Result<()> {
        if self.replies_policy.as_deref().is_some_and(|policy| !matches!(policy, "followed" | "list" | "none")) {
            return Err(MastodonError::unprocessable("replies_policy must be followed, list or none"));
        }
        if self.exclusive == Some(true) {
            return Err(MastodonError::unprocessable(
                "Murmur does not offer exclusive lists: a list's posts show in Home too",
            ));
        }
        Ok(())
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

async fn create(State(state): State<AppState>, token: Token, Params(body): Params<ListParams>) -> Result<Json<Value>> {
    let member = token.member("write:lists")?;
    body.check()?;
    let title = body.title.as_deref().ok_or_else(|| MastodonError::unprocessable("title is required"))?;
    let list = lists::create(&state.db, member, title, state.clock.now()).await?;
    Ok(Json(entity(&list)))
}

/// Renames a list (without a title: leaves it as it is).
async fn update(
    State(state): State<AppState>,
    token: Token,
    Path(id): Path<String>,
    Params(body): Params<ListParams>,
) -> Result<Json<Value>> {
    let member = token.member("write:lists")?;
    let id = list_id(&id)?;
    body.check()?;
    let list = match body.title.as_deref() {
        Some(title) => lists::rename(&state.db, member, id, title).await,
        None => lists::get(&state.db, member, id).await,
    }
    .map_err(not_found_as_mastodon)?;
    Ok(Json(entity(&list)))
}

async fn delete(State(state): State<AppState>, token: Token, Path(id): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:lists")?;
    lists::delete(&state.db, member, list_id(&id)?).await.map_err(not_found_as_mastodon)?;
    Ok(Json(json!({})))
}

#[derive(Deserialize)]
struct AccountsPaging {
    /// How many (40 unless asked, at most 80); 0: all of them at once.
    #[serde(default, deserialize_with = "lenient::i64")]
    limit: Option<i64>,
    /// The offset of the page, as the `Link` header names it.
    #[serde(default, deserialize_with = "lenient::id")]
    max_id: Option<i64>,
}

/// The people in a list (by name: paged by offset, as the `Link` header names it).
async fn accounts(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(id): Path<String>,
    QueryParams(paging): QueryParams<AccountsPaging>,
) -> Result<Response> {
    let member = token.member("read:lists")?;
    let rows = lists::member_rows(&state.db, member, list_id(&id)?).await.map_err(not_found_as_mastodon)?;
    let limit = match paging.limit {
        None => 40,
        Some(0) => rows.len(),
        Some(limit) if limit < 0 => return Err(MastodonError::unprocessable("limit must be at least 0")),
        Some(limit) => limit.min(80) as usize,
    };
    let offset = usize::try_from(paging.max_id.unwrap_or(0)).unwrap_or(0);
    let urls = Urls::of(&state);
    let accounts: Vec<entities::Account> =
        rows.iter().skip(offset).take(limit).map(|row| entities::account(&urls, row, 0)).collect();
    let next = (offset + accounts.len()) as i64;
    if offset + accounts.len() >= rows.len() {
        // The last page names no next one.
        return Ok(axum::response::IntoResponse::into_response(Json(accounts)));
    }
    paged(&state, &uri, accounts, |_| next)
}

#[derive(Deserialize)]
struct AccountIds {
    #[serde(default, deserialize_with = "lenient::ids")]
    account_ids: Vec<i64>,
}

/// Adds people the member follows to a list (Murmur's rule: only people they follow; 422 else).
async fn add_accounts(
    State(state): State<AppState>,
    token: Token,
    Path(id): Path<String>,
    Params(body): Params<AccountIds>,
) -> Result<Json<Value>> {
    let member = token.member("write:lists")?;
    lists::add_members(&state.db, member, list_id(&id)?, &body.account_ids, state.clock.now())
        .await
        .map_err(not_found_as_mastodon)?;
    Ok(Json(json!({})))
}

async fn remove_accounts(
    State(state): State<AppState>,
    token: Token,
    Path(id): Path<String>,
    Params(body): Params<AccountIds>,
) -> Result<Json<Value>> {
    let member = token.member("write:lists")?;
    lists::remove_members(&state.db, member, list_id(&id)?, &body.account_ids).await.map_err(not_found_as_mastodon)?;
    Ok(Json(json!({})))
}

/// The member's lists that hold this account.
async fn holding(State(state): State<AppState>, token: Token, Path(id): Path<String>) -> Result<Json<Value>> {
    let member = token.member("read:lists")?;
    let other = super::accounts::id(&id)?;
    let found = lists::lists_holding(&state.db, member, other).await?;
    Ok(Json(Value::Array(found.iter().map(entity).collect())))
}
