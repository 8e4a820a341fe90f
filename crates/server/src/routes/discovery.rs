//! HTTP routes of discovery: a tag's page and counts, Trending, and post search.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, Page, PageParams, Path, Query};
use crate::error::{ErrorBody, Result};
use crate::extract::{CurrentUser, MomentOld};
use crate::state::AppState;
use murmur_domain::discovery::followed::{self, FollowedTag};
use murmur_domain::discovery::search::{SearchQuery, Sort};
use murmur_domain::discovery::tag_name;
use murmur_domain::discovery::trending::MAX_TRENDING;
use murmur_domain::discovery::{self, WEEK};
use murmur_domain::posts::Post;
use murmur_domain::posts::entities::tag_key;
use murmur_domain::posts::hydrate::{self, Selection};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tag))
        .routes(routes!(follow_tag, unfollow_tag))
        .routes(routes!(followed_tags))
        .routes(routes!(tag_posts))
        .routes(routes!(trending))
        .routes(routes!(search_posts))
}

const PAGE_DEFAULT: i64 = 20;
const TRENDING_DEFAULT: i64 = 6;

/// A tag's header: its name and how much it was used this week.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tag {
    /// As first written on this instance (as asked, when no post uses it yet).
    pub name: String,
    /// Posts using it in the last 7 days.
    pub post_count: i64,
    /// Distinct members using it in the last 7 days.
    pub people_count: i64,
    /// The caller follows it: its new posts reach their Friends feed.
    pub is_following: bool,
}

/// One tag of Trending.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingTag {
    pub name: String,
    /// Distinct members who used it in the last 24 hours.
    pub people_count: i64,
    /// Posts using it in the last 24 hours.
    pub post_count: i64,
}

/// A tag's name and its counts for the last 7 days; a tag nobody used yet has zeros.
#[utoipa::path(get, path = "/api/tags/{name}", tag = "discovery",
    params(("name" = String, Path, description = "The tag, without #; any case")),
    responses((status = 200, body = Tag), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn tag(MomentOld(state): MomentOld, current: CurrentUser, Path(name): Path<String>) -> Result<Json<Tag>> {
    let name = tag_name(&name)?;
    let key = tag_key(name);
    let Some(row) = discovery::tag(&state.db.read, &key).await? else {
        return Ok(Json(Tag { name: name.to_string(), post_count: 0, people_count: 0, is_following: false }));
    };
    let (post_count, people_count) = discovery::tag_counts(&state.db.read, row.id, state.clock.now() - WEEK).await?;
    let is_following = followed::is_following(&state.db, current.id, &key).await?;
    Ok(Json(Tag { name: row.name, post_count, people_count, is_following }))
}

/// Follows a tag: its new posts, from anyone the caller sees, reach their Friends feed marked
/// with it (`viaTag`). Older posts are not brought in. Following it again changes nothing; at
/// most 100 tags.
#[utoipa::path(post, path = "/api/tags/{name}/follow", tag = "discovery",
    params(("name" = String, Path, description = "The tag, without #; any case")),
    responses((status = 200, body = FollowedTag), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn follow_tag(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(name): Path<String>,
) -> Result<Json<FollowedTag>> {
    Ok(Json(followed::follow(&state.db, current.id, &name, state.clock.now()).await?))
}

/// Stops following a tag: the posts it brought leave the caller's Friends feed. Not following
/// it is fine too.
#[utoipa::path(delete, path = "/api/tags/{name}/follow", tag = "discovery",
    params(("name" = String, Path, description = "The tag, without #; any case")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unfollow_tag(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(name): Path<String>,
) -> Result<StatusCode> {
    followed::unfollow(&state.db, current.id, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The tags the caller follows, by name (at most 100).
#[utoipa::path(get, path = "/api/followed-tags", tag = "discovery",
    responses((status = 200, body = Vec<FollowedTag>), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn followed_tags(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<FollowedTag>>> {
    Ok(Json(followed::list(&state.db, current.id).await?))
}

/// The live posts using a tag, newest first, without those of members hidden from the caller.
#[utoipa::path(get, path = "/api/tags/{name}/posts", tag = "discovery",
    params(("name" = String, Path, description = "The tag, without #; any case"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn tag_posts(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(name): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    let page = params.page(PAGE_DEFAULT, MAX_PAGE)?;
    Ok(Json(murmur_domain::discovery::tag_posts(&state.db, current.id, &name, page, state.clock.now()).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TrendingParams {
    /// How many, 1 to 20 (default 6).
    #[param(minimum = 1, maximum = 20)]
    pub limit: Option<i64>,
}

/// The tags more members use today than usual, best first, recomputed every few minutes.
#[utoipa::path(get, path = "/api/trending", tag = "discovery", params(TrendingParams),
    responses((status = 200, body = Vec<TrendingTag>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn trending(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Query(params): Query<TrendingParams>,
) -> Result<Json<Vec<TrendingTag>>> {
    let limit = Page::parse(params.limit, None, TRENDING_DEFAULT, MAX_TRENDING as i64)?.limit;
    let rows = discovery::trending(&state.db.read, limit).await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| TrendingTag { name: r.name, people_count: r.people_count, post_count: r.post_count })
            .collect(),
    ))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// Words (all must match; the last also as a prefix), "quoted phrases", -excluded words,
    /// from:username and #tag; at most 200 characters and 10 terms.
    #[param(max_length = 200)]
    pub q: Option<String>,
    /// `latest` (newest first, the default) or `top` (best matches among the newest 1,000).
    pub sort: Option<String>,
    /// Page size, 1 to 50 (default 20).
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
    /// Items to skip, 0 to 100000 (default 0).
    #[param(minimum = 0, maximum = 100000)]
    pub offset: Option<i64>,
}

/// Full-text search of live posts, without those of members hidden from the caller.
#[utoipa::path(get, path = "/api/posts/search", tag = "discovery", params(SearchParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn search_posts(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Query(params): Query<SearchParams>,
) -> Result<Json<Vec<Post>>> {
    let query = SearchQuery::parse(params.q.as_deref().unwrap_or(""))?;
    let sort = Sort::parse(params.sort.as_deref())?;
    let page = Page::parse(params.limit, params.offset, PAGE_DEFAULT, MAX_PAGE)?;
    let db = &state.db;
    let ids = murmur_domain::discovery::search::search(
        &db.read,
        db.backend,
        current.id,
        &query,
        sort,
        page,
        state.clock.now(),
    )
    .await?;
    let posts = hydrate::list(&db.read, db.backend, current.id, &Selection::ids(&ids)).await?;
    Ok(Json(hydrate::in_order(posts, &ids)))
}
