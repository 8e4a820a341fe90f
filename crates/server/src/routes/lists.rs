//! HTTP routes of lists: a member's private lists of people they follow, and each list's feed.
//! The rules are `murmur_domain::lists`'; another member's list answers 404 on every route.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, PageParams, Path, Query};
use crate::error::{ErrorBody, Result};
use crate::extract::{CurrentUser, FeedReader};
use crate::state::AppState;
use murmur_domain::feeds::PAGE_SIZE;
use murmur_domain::feeds::cache::Feed;
use murmur_domain::lists::{self, List};
use murmur_domain::posts::Post;
use murmur_domain::users::User;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_lists, create_list))
        .routes(routes!(get_list, rename_list, delete_list))
        .routes(routes!(list_members, add_list_members, remove_list_members))
        .routes(routes!(list_feed))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListRequest {
    /// 1 to 50 characters, one line.
    pub title: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListMembersRequest {
    /// 1 to 100 member ids; to add, each one the caller follows.
    pub user_ids: Vec<i64>,
}

/// The caller's lists, oldest first (at most 20).
#[utoipa::path(get, path = "/api/lists", tag = "lists",
    responses((status = 200, body = Vec<List>), (status = 401, body = ErrorBody)))]
async fn list_lists(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<List>>> {
    Ok(Json(lists::lists_of(&state.db, current.id).await?))
}

/// Makes a list; at most 20 a member (422 past that).
#[utoipa::path(post, path = "/api/lists", tag = "lists", request_body = ListRequest,
    responses((status = 201, body = List), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 422, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn create_list(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<ListRequest>,
) -> Result<(StatusCode, Json<List>)> {
    let list = lists::create(&state.db, current.id, &body.title, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Json(list)))
}

/// One of the caller's lists.
#[utoipa::path(get, path = "/api/lists/{id}", tag = "lists",
    params(("id" = i64, Path, minimum = 1, description = "List id")),
    responses((status = 200, body = List), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_list(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<List>> {
    Ok(Json(lists::get(&state.db, current.id, id).await?))
}

/// Renames one of the caller's lists.
#[utoipa::path(put, path = "/api/lists/{id}", tag = "lists", request_body = ListRequest,
    params(("id" = i64, Path, minimum = 1, description = "List id")),
    responses((status = 200, body = List), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn rename_list(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<ListRequest>,
) -> Result<Json<List>> {
    Ok(Json(lists::rename(&state.db, current.id, id, &body.title).await?))
}

/// Deletes one of the caller's lists; the people in it stay followed.
#[utoipa::path(delete, path = "/api/lists/{id}", tag = "lists",
    params(("id" = i64, Path, minimum = 1, description = "List id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn delete_list(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    lists::delete(&state.db, current.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The people in one of the caller's lists, by username (at most 500).
#[utoipa::path(get, path = "/api/lists/{id}/members", tag = "lists",
    params(("id" = i64, Path, minimum = 1, description = "List id")),
    responses((status = 200, body = Vec<User>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_members(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Vec<User>>> {
    Ok(Json(lists::members(&state.db, current.id, id).await?))
}

/// Adds people the caller follows to one of their lists (those already in it stay). Someone
/// the caller does not follow, or a list past 500 people: 422.
#[utoipa::path(post, path = "/api/lists/{id}/members", tag = "lists", request_body = ListMembersRequest,
    params(("id" = i64, Path, minimum = 1, description = "List id")),
    responses((status = 200, body = List), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn add_list_members(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<ListMembersRequest>,
) -> Result<Json<List>> {
    Ok(Json(lists::add_members(&state.db, current.id, id, &body.user_ids, state.clock.now()).await?))
}

/// Takes people out of one of the caller's lists (those not in it are fine).
#[utoipa::path(delete, path = "/api/lists/{id}/members", tag = "lists", request_body = ListMembersRequest,
    params(("id" = i64, Path, minimum = 1, description = "List id")),
    responses((status = 200, body = List), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn remove_list_members(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<ListMembersRequest>,
) -> Result<Json<List>> {
    Ok(Json(lists::remove_members(&state.db, current.id, id, &body.user_ids).await?))
}

/// A list's feed: the newest posts and reposts of the people in it, paged like Friends.
///
/// Pages are kept ready for a few seconds, as Friends' are.
#[utoipa::path(get, path = "/api/lists/{id}/posts", tag = "lists",
    params(("id" = i64, Path, minimum = 1, description = "List id"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, reader, params), fields(user = reader.user.id))]
async fn list_feed(
    State(state): State<AppState>,
    reader: FeedReader,
    Path(id): Path<i64>,
    Query(params): Query<PageParams>,
) -> Result<Response> {
    let page = params.page(PAGE_SIZE, MAX_PAGE)?;
    let made = lists::feed::page(&state.db, reader.user.id, id, page, state.clock.now());
    super::feeds::kept_answer(&state, &reader, Feed::List(id), page, made).await
}
