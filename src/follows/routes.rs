//! HTTP routes of follows.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::store::{self, Followed};
use crate::accounts::CurrentUser;
use crate::api::{Json, Path};
use crate::error::{Error, ErrorBody, Result};
use crate::notifications::{self, Kind, store::NO_POST};
use crate::rate_limit::{self, MemberLimit};
use crate::state::AppState;

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
    let is_following = store::is_following(&state.db.read, current.id, user_id).await?;
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
    let target = body.following_id;
    if target == current.id {
        return Err(Error::bad_request("You cannot follow yourself"));
    }
    let now = state.clock.now();
    let mut writer = rate_limit::count_member_then_take_writer(
        &state.db,
        MemberLimit::Follow,
        current.id,
        now,
        "You are following too fast. Please wait a minute.",
    )
    .await?;
    // A follow copies the member's posts and reposts into the caller's timeline; a repost
    // removed meanwhile (its original deleted by another member, under that member's lock)
    // fails the copy's foreign key on PostgreSQL. The follow is then simply done again: the
    // next copy no longer sees that repost. Each failure waited for one such delete to commit,
    // so only a run of deletes racing this very follow needs several tries.
    let mut attempts = 0;
    loop {
        attempts += 1;
        match follow_once(&mut writer, current.id, target, now).await {
            Err(Error::Database(e)) if attempts < MAX_FOLLOW_ATTEMPTS && timeline_copy_lost_a_post(&e) => continue,
            answer => return answer.map(|()| Json(FollowStatus { is_following: true })),
        }
    }
}

const MAX_FOLLOW_ATTEMPTS: u32 = 10;

async fn follow_once(writer: &mut AnyConnection, member: i64, target: i64, now: crate::clock::Millis) -> Result<()> {
    let mut tx = writer.begin().await?;
    if super::writes::follow(&mut tx, member, target, now).await? == Followed::NoMember {
        return Err(Error::not_found("User not found"));
    }
    tx.commit().await?;
    Ok(())
}

/// The timeline copy named a post deleted before it committed (PostgreSQL names the key; SQLite
/// serializes writers and never gets here).
fn timeline_copy_lost_a_post(e: &sqlx::Error) -> bool {
    e.as_database_error().and_then(|db| db.constraint()).is_some_and(|name| name == "home_timeline_post_id_fkey")
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
    let mut tx = state.db.write.begin().await?;
    if store::unfollow(&mut tx, current.id, user_id).await? {
        notifications::withdraw(&mut tx, user_id, current.id, Kind::Follow, NO_POST).await?;
    }
    tx.commit().await?;
    Ok(Json(FollowStatus { is_following: false }))
}
