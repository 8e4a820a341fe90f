//! HTTP routes of invites: a member's own codes, and making a new one from the allowance.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::Json;
use crate::error::{Error, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_core::rate_limit::{self, MemberLimit};
use murmur_domain::invites::{self, InviteRow};
use murmur_domain::users;

/// The spec's text for a member with no invites left.
pub const NONE_LEFT: &str = "Failed to create invite code. You may have reached your limit.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list, create))
}

/// An invite code as its owner sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invite {
    pub id: i64,
    pub code: String,
    pub is_used: bool,
    pub used_at: Option<String>,
    pub expires_at: String,
    pub created_at: String,
}

impl From<InviteRow> for Invite {
    fn from(row: InviteRow) -> Self {
        Invite {
            id: row.id,
            code: row.code,
            is_used: row.used_at.is_some(),
            used_at: row.used_at.map(to_rfc3339),
            expires_at: to_rfc3339(row.expires_at),
            created_at: to_rfc3339(row.created_at),
        }
    }
}

/// The member's own invite codes, newest first.
#[utoipa::path(get, path = "/api/invites", tag = "invites", operation_id = "list_invites",
    responses((status = 200, body = [Invite]), (status = 401, body = crate::error::ErrorBody)))]
async fn list(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<Invite>>> {
    let rows = invites::list_for_owner(&state.db.read, current.id).await?;
    Ok(Json(rows.into_iter().map(Invite::from).collect()))
}

/// Makes a code valid for 7 days, taking one from the member's allowance (3 to start, 3 more
/// at the start of each calendar month, UTC); 403 while moderators have taken the member's
/// invites away.
#[utoipa::path(post, path = "/api/invites", tag = "invites", operation_id = "create_invite",
    responses((status = 201, body = Invite), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn create(State(state): State<AppState>, current: CurrentUser) -> Result<(StatusCode, Json<Invite>)> {
    let now = state.clock.now();
    rate_limit::hit_member(
        &state.db,
        MemberLimit::InviteCodes,
        current.id,
        now,
        "You are creating invite codes too quickly. Please wait a minute.",
    )
    .await?;
    let row = users::find_by_id(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)?;
    if row.invites_taken != 0 {
        return Err(Error::forbidden(murmur_domain::moderation::domain::INVITES_TAKEN).into());
    }
    murmur_domain::users::with_monthly_top_up(&state.db, state.clock.now(), row).await?;

    let (id, code) =
        invites::spend_on_code(&state.db.write, current.id, now).await?.ok_or(Error::bad_request(NONE_LEFT))?;
    tracing::info!(user_id = current.id, invite_id = id, "invite code created");
    let invite = InviteRow { id, code, created_at: now, expires_at: now + invites::INVITE_LIFETIME, used_at: None };
    Ok((StatusCode::CREATED, Json(invite.into())))
}
