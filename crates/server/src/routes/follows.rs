//! HTTP routes of follows.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, Path};
use crate::error::{ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_domain::follows;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(status)).routes(routes!(follow)).routes(routes!(unfollow))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowRequest {
    /// The member to follow.
    #[schema(minimum = 1)]
    pub following_id: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowStatus {
    pub is_following: bool,
}

/// Whether the caller follows member `userId`.
#[utoipa::path(get, path = "/api/follows/{userId}/status", tag = "follows",
    params(("userId" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 200, body = FollowStatus), (status = 401, body = ErrorBody)))]
async fn status(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(user_id): Path<i64>,
) -> Result<Json<FollowStatus>> {
    let is_following = follows::is_following(&state.db.read, current.id, user_id).await?;
    Ok(Json(FollowStatus { is_following }))
}

/// Follows a member; following twice is still one follow.
#[utoipa::path(post, path = "/api/follows", tag = "follows", request_body = FollowRequest,
    responses((status = 200, body = FollowStatus), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn follow(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<FollowRequest>,
) -> Result<Json<FollowStatus>> {
    murmur_domain::follows::writes::follow_member(&state.db, current.id, body.following_id, state.clock.now()).await?;
    Ok(Json(FollowStatus { is_following: true }))
}

/// Stops following a member; not following is fine too.
#[utoipa::path(delete, path = "/api/follows/{userId}", tag = "follows",
    params(("userId" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 200, body = FollowStatus), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unfollow(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(user_id): Path<i64>,
) -> Result<Json<FollowStatus>> {
    murmur_domain::follows::writes::unfollow(&state.db.write, current.id, user_id).await?;
    Ok(Json(FollowStatus { is_following: false }))
}
