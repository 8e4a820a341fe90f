//! HTTP routes of leaving: asking to delete one's account (an e-mailed link) and confirming it
//! with that link's token. The deletion itself is `leaving`.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::sign_in::Message;
use crate::api::Json;
use crate::error::{Error, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::rate_limit::{self, MemberLimit};
use murmur_domain::accounts::leaving;
use murmur_domain::accounts::magic_link::INVALID_LINK;
use murmur_domain::accounts::magic_link::{self, Purpose};
use murmur_domain::mail::templates;

const LINK_SENT: &str = "Check your email: we sent you a link to confirm deleting your account.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(request_deletion)).routes(routes!(confirm_deletion))
}

#[derive(Deserialize, ToSchema)]
pub struct ConfirmDeletion {
    /// The token from the e-mailed link (43 characters of base64url).
    #[schema(pattern = "^[A-Za-z0-9_-]{43}$")]
    token: String,
}

/// Asks to delete the member's account: e-mails them a link (15 minutes, once) to the screen
/// that confirms it. Nothing is deleted by this call, nor by opening the link.
#[utoipa::path(post, path = "/api/account/delete", tag = "accounts",
    responses((status = 200, body = Message), (status = 401, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
async fn request_deletion(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Message>> {
    let now = state.clock.now();
    rate_limit::hit_member(
        &state.db,
        MemberLimit::DeletionLink,
        current.id,
        now,
        "You have asked for several deletion links. Please use the newest one, or wait an hour.",
    )
    .await?;
    let member = murmur_domain::users::find_by_id(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)?;
    let link =
        magic_link::issue(&state.db.write, &state.config, &member.email, Purpose::DeleteAccount, None, now).await?;
    link.send(&state.db.write, &state.mailer, |url| templates::delete_account_link(&member.email, url)).await?;
    Ok(Message::new(LINK_SENT))
}

/// Deletes the member's account, with the token of the link e-mailed to them: they are gone at
/// once (session ended, follows, profile and name removed, the username held for 30 days), and
/// the rest of what they wrote and did is removed in the background. 400 for a token that is
/// not this member's live deletion link.
#[utoipa::path(post, path = "/api/account/delete/confirm", tag = "accounts", request_body = ConfirmDeletion,
    responses((status = 204), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn confirm_deletion(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<ConfirmDeletion>,
) -> Result<impl IntoResponse> {
    if !magic_link::is_well_formed(&body.token) {
        return Err(Error::bad_request(INVALID_LINK).into());
    }
    leaving::delete_account(&state.db, current.id, &body.token, state.clock.now()).await?;
    state.leaving.wake();
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, crate::session_cookie::clear(&state.config))]))
}
