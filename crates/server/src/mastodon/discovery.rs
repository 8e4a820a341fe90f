//! Finding people, posts and tags: `/api/v2/search` (accounts, statuses with Murmur's query
//! syntax, hashtags), trending tags, followed tags and suggested members.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::entities::{self, Urls};
use super::error::{MastodonError, Result};
use super::params::{QueryParams, lenient};
use crate::state::AppState;
use murmur_core::page::Page;
use murmur_domain::discovery::search::{SearchQuery, Sort};
use murmur_domain::discovery::{self, tag_name};
use murmur_domain::posts::entities::tag_key;
use murmur_domain::posts::hydrate::{self, Selection};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v2/search", get(search))
        .route("/api/v1/trends/tags", get(trending_tags))
        .route("/api/v1/trends", get(trending_tags))
        .route("/api/v1/followed_tags", get(followed_tags))
        .route("/api/v1/tags/{name}", get(tag))
        .route("/api/v1/tags/{name}/follow", post(follow_tag))
        .route("/api/v1/tags/{name}/unfollow", post(unfollow_tag))
        .route("/api/v2/suggestions", get(suggestions))
        .route("/api/v1/suggestions", get(suggested_accounts))
}

#[derive(Deserialize)]
struct SearchParams {
    q: String,
    /// `accounts`, `statuses` or `hashtags`; none: all three.
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient::i64")]
    limit: Option<i64>,
    #[serde(default, deserialize_with = "lenient::i64")]
    offset: Option<i64>,
}

async fn search(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<SearchParams>,
) -> Result<Json<Value>> {
    let viewer = token.member("read:search")?;
    let kind = params.kind.as_deref();
    if kind.is_some_and(|k| !matches!(k, "accounts" | "statuses" | "hashtags")) {
        return Err(MastodonError::unprocessable("type must be accounts, statuses or hashtags"));
    }
    let wants = |what: &str| kind.is_none_or(|k| k == what);
    let page = Page::parse(Some(params.limit.unwrap_or(20).clamp(1, 40)), params.offset, 20, 40)?;
    let urls = Urls::of(&state);
    let q = params.q.trim();

    let mut accounts = Vec::new();
    if wants("accounts")
        && page.offset == 0
        && let Ok(term) = murmur_domain::users::model::search_term(Some(q))
    {
        accounts = super::accounts::search_accounts(&state, viewer, term, page.limit).await?;
    }
    let mut statuses = Vec::new();
    if wants("statuses")
        && let Some(query) = SearchQuery::parse_or_plain_words(q)
    {
        let db = &state.db;
        let ids = murmur_domain::discovery::search::search(
            &db.read,
            db.backend,
            viewer,
            &query,
            Sort::parse(None)?,
            page,
            state.clock.now(),
        )
        .await?;
        let posts = hydrate::in_order(hydrate::list(&db.read, db.backend, viewer, &Selection::ids(&ids)).await?, &ids);
        statuses = entities::statuses(&state, viewer, &posts).await?;
    }
    let mut hashtags = Vec::new();
    if wants("hashtags")
        && page.offset == 0
        && let Ok(name) = tag_name(q)
        && let Some(tag) = discovery::tag(&state.db.read, &tag_key(name)).await?
    {
        let following = murmur_domain::discovery::followed::is_following(&state.db, viewer, &tag_key(name)).await?;
        hashtags.push(tag_entity(&urls, &tag.name, following));
    }
    Ok(Json(json!({ "accounts": accounts, "statuses": statuses, "hashtags": hashtags })))
}

#[derive(Deserialize)]
struct LimitParams {
    #[serde(default, deserialize_with = "lenient::i64")]
    limit: Option<i64>,
}

/// Trending tags (Murmur's Trending: the last 24 hours), with their counts as today's history;
/// for any token (Murmur is closed: not for anyone without one).
async fn trending_tags(
    State(state): State<AppState>,
    _any_token: Token,
    QueryParams(params): QueryParams<LimitParams>,
) -> Result<Json<Vec<Value>>> {
    let limit = params.limit.unwrap_or(10).clamp(1, murmur_domain::discovery::trending::MAX_TRENDING as i64);
    let rows = discovery::trending(&state.db.read, limit).await?;
    let urls = Urls::of(&state);
    let day = (state.clock.now() / murmur_core::clock::DAY) * 86_400;
    Ok(Json(
        rows.into_iter()
            .map(|row| {
                json!({
                    "name": row.name.to_lowercase(),
                    "url": format!("{}/tag/{}", urls.0, row.name),
                    "history": [{"day": day.to_string(), "uses": row.post_count.to_string(), "accounts": row.people_count.to_string()}],
                })
            })
            .collect(),
    ))
}

/// Mastodon's Tag entity for a tag named `name` (as first written), with whether the caller
/// follows it.
fn tag_entity(urls: &Urls, name: &str, following: bool) -> Value {
    json!({"name": name.to_lowercase(), "url": format!("{}/tag/{}", urls.0, name), "history": [], "following": following})
}

/// The tags the caller follows (at most 100, all in one page), the web app's Settings list.
async fn followed_tags(State(state): State<AppState>, token: Token) -> Result<Json<Vec<Value>>> {
    let member = token.member("read:follows")?;
    let urls = Urls::of(&state);
    let tags = murmur_domain::discovery::followed::list(&state.db, member).await?;
    Ok(Json(tags.iter().map(|tag| tag_entity(&urls, &tag.name, true)).collect()))
}

/// A tag, with whether the caller follows it.
async fn tag(State(state): State<AppState>, token: Token, Path(name): Path<String>) -> Result<Json<Value>> {
    let member = token.any_member()?;
    let name = tag_name(&name)?;
    let key = tag_key(name);
    let named = discovery::tag(&state.db.read, &key).await?.map_or_else(|| name.to_string(), |row| row.name);
    let following = murmur_domain::discovery::followed::is_following(&state.db, member, &key).await?;
    Ok(Json(tag_entity(&Urls::of(&state), &named, following)))
}

/// Follows a tag: the web app's Follow button on the tag's page.
async fn follow_tag(State(state): State<AppState>, token: Token, Path(name): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:follows")?;
    let tag = murmur_domain::discovery::followed::follow(&state.db, member, &name, state.clock.now()).await?;
    Ok(Json(tag_entity(&Urls::of(&state), &tag.name, true)))
}

/// Stops following a tag; not following it is fine too.
async fn unfollow_tag(State(state): State<AppState>, token: Token, Path(name): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:follows")?;
    murmur_domain::discovery::followed::unfollow(&state.db, member, &name).await?;
    let name = tag_name(&name)?;
    let named = discovery::tag(&state.db.read, &tag_key(name)).await?.map_or_else(|| name.to_string(), |row| row.name);
    Ok(Json(tag_entity(&Urls::of(&state), &named, false)))
}

async fn suggested(state: &AppState, token: &Token, limit: Option<i64>) -> Result<Vec<entities::Account>> {
    let viewer = token.member("read:accounts")?;
    let rows = murmur_domain::users::suggested(&state.db.read, viewer, limit.unwrap_or(20).clamp(1, 40)).await?;
    let urls = Urls::of(state);
    Ok(rows.iter().map(|row| entities::account(&urls, row, 0)).collect())
}

/// Members to follow (friends of friends first), as v2's suggestions.
async fn suggestions(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<LimitParams>,
) -> Result<Json<Vec<Value>>> {
    let accounts = suggested(&state, &token, params.limit).await?;
    Ok(Json(
        accounts
            .into_iter()
            .map(|account| json!({"source": "global", "sources": ["friends_of_friends"], "account": account}))
            .collect(),
    ))
}

async fn suggested_accounts(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<LimitParams>,
) -> Result<Json<Vec<entities::Account>>> {
    Ok(Json(suggested(&state, &token, params.limit).await?))
}
