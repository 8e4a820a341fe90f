//! HTTP routes of blocks, mutes and muted words: each member's own, private lists.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, PageParams, Path, Query};
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::safety::muted_words::{self, MutedWord};
use murmur_domain::safety::{self, Listed};
use murmur_domain::users::User;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_blocks, block))
        .routes(routes!(unblock))
        .routes(routes!(list_mutes, mute))
        .routes(routes!(unmute))
        .routes(routes!(list_muted_words, mute_word))
        .routes(routes!(unmute_word))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockRequest {
    #[schema(minimum = 1)]
    pub user_id: i64,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MuteRequest {
    #[schema(minimum = 1)]
    pub user_id: i64,
    /// 1, 24 or 168; absent or null: until unmuted.
    pub duration_hours: Option<i64>,
}

/// A member the caller blocked or muted.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedMember {
    pub user: User,
    pub created_at: String,
    /// When a mute ends by itself; null for blocks and for mutes until unmuted.
    pub expires_at: Option<String>,
}

impl From<Listed> for ListedMember {
    fn from(listed: Listed) -> ListedMember {
        ListedMember {
            user: listed.user.public(),
            created_at: to_rfc3339(listed.listed_at),
            expires_at: listed.expires_at.map(to_rfc3339),
        }
    }
}

/// Blocks a member: neither sees the other's posts, neither can interact with the other, and
/// follows between them end.
#[utoipa::path(post, path = "/api/blocks", tag = "safety", request_body = BlockRequest,
    responses((status = 201, body = ListedMember), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn block(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<BlockRequest>,
) -> Result<(StatusCode, Json<ListedMember>)> {
    let since = murmur_domain::safety::block(&state.db, current.id, body.user_id, state.clock.now()).await?;
    let user = member(&state, body.user_id).await?;
    Ok((StatusCode::CREATED, Json(ListedMember { user, created_at: to_rfc3339(since), expires_at: None })))
}

/// Ends a block; not blocking is fine too.
#[utoipa::path(delete, path = "/api/blocks/{userId}", tag = "safety",
    params(("userId" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 204), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unblock(State(state): State<AppState>, current: CurrentUser, Path(user_id): Path<i64>) -> Result<StatusCode> {
    safety::unblock(&state.db.write, current.id, user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The members the caller blocked, newest first.
#[utoipa::path(get, path = "/api/blocks", tag = "safety", params(PageParams),
    responses((status = 200, body = Vec<ListedMember>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list_blocks(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<ListedMember>>> {
    let page = params.page(20, MAX_PAGE)?;
    let listed = safety::blocked_by(&state.db.read, current.id, page).await?;
    Ok(Json(listed.into_iter().map(ListedMember::from).collect()))
}

/// Mutes a member for 1, 24 or 168 hours, or until unmuted: their posts leave the caller's
/// feeds and their notifications stop. They are told nothing.
#[utoipa::path(post, path = "/api/mutes", tag = "safety", request_body = MuteRequest,
    responses((status = 201, body = ListedMember), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn mute(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<MuteRequest>,
) -> Result<(StatusCode, Json<ListedMember>)> {
    let length = murmur_domain::safety::MuteLength::from_hours(body.duration_hours)?;
    let now = state.clock.now();
    let expires_at = murmur_domain::safety::mute(&state.db, current.id, body.user_id, now, length).await?;
    let user = member(&state, body.user_id).await?;
    let listed = ListedMember { user, created_at: to_rfc3339(now), expires_at: expires_at.map(to_rfc3339) };
    Ok((StatusCode::CREATED, Json(listed)))
}

/// Ends a mute; not muting is fine too.
#[utoipa::path(delete, path = "/api/mutes/{userId}", tag = "safety",
    params(("userId" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 204), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unmute(State(state): State<AppState>, current: CurrentUser, Path(user_id): Path<i64>) -> Result<StatusCode> {
    safety::unmute(&state.db.write, current.id, user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The members the caller muted whose mute has not ended, newest first.
#[utoipa::path(get, path = "/api/mutes", tag = "safety", params(PageParams),
    responses((status = 200, body = Vec<ListedMember>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list_mutes(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<ListedMember>>> {
    let page = params.page(20, MAX_PAGE)?;
    let listed = safety::muted_by(&state.db.read, current.id, page, state.clock.now()).await?;
    Ok(Json(listed.into_iter().map(ListedMember::from).collect()))
}

async fn member(state: &AppState, id: i64) -> Result<User> {
    let row = murmur_domain::users::find_by_id(&state.db.read, id).await?;
    Ok(row.map(|row| row.public()).ok_or_else(|| Error::not_found("User not found"))?)
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MuteWordRequest {
    /// A word, phrase or hashtag (1 to 100 characters, one line, at least one letter or digit).
    /// Matched as whole words, whatever their case and accents; `#rust` and `rust` are the same.
    pub text: String,
    /// How long, 1 to 8760 hours; absent or null: until removed.
    #[schema(minimum = 1, maximum = 8760)]
    pub hours: Option<i64>,
}

/// A word, phrase or hashtag the caller mutes.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MutedWordView {
    pub id: i64,
    /// As the caller typed it.
    pub text: String,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339: when it ends by itself; null: until removed.
    pub expires_at: Option<String>,
}

impl From<MutedWord> for MutedWordView {
    fn from(word: MutedWord) -> MutedWordView {
        MutedWordView {
            id: word.id,
            text: word.text,
            created_at: to_rfc3339(word.created_at),
            expires_at: word.expires_at.map(to_rfc3339),
        }
    }
}

/// The caller's muted words that have not ended, newest first (at most 100).
#[utoipa::path(get, path = "/api/muted-words", tag = "safety",
    responses((status = 200, body = Vec<MutedWordView>), (status = 401, body = ErrorBody)))]
async fn list_muted_words(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<MutedWordView>>> {
    let words = muted_words::list(&state.db.read, current.id, state.clock.now()).await?;
    Ok(Json(words.into_iter().map(MutedWordView::from).collect()))
}

/// Mutes a word, phrase or hashtag: posts holding it (as whole words, in their text or content
/// warning) leave the caller's feeds, notifications, search and tag pages, and threads fold
/// them. Muting the same words again sets its time anew.
#[utoipa::path(post, path = "/api/muted-words", tag = "safety", request_body = MuteWordRequest,
    responses((status = 201, body = MutedWordView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn mute_word(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<MuteWordRequest>,
) -> Result<(StatusCode, Json<MutedWordView>)> {
    let word =
        murmur_domain::safety::muted_words::add(&state.db, current.id, &body.text, body.hours, state.clock.now())
            .await?;
    Ok((StatusCode::CREATED, Json(word.into())))
}

/// Removes one of the caller's muted words; 404 for another member's.
#[utoipa::path(delete, path = "/api/muted-words/{id}", tag = "safety",
    params(("id" = i64, Path, minimum = 1, description = "Muted word id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unmute_word(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    muted_words::remove(&state.db, current.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
