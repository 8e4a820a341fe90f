//! HTTP routes of the accounts area.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::CurrentUser;
use super::session;
use crate::api::Json;
use crate::app::AppState;
use crate::error::{Error, Result};
use crate::users::{User, store as users};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me))
        .routes(routes!(user))
        .routes(routes!(logout))
        .routes(routes!(login))
}

/// The logged-in member (with e-mail and invite allowance); 401 for visitors.
#[utoipa::path(get, path = "/api/auth/me", tag = "accounts",
    responses((status = 200, body = User), (status = 401, body = crate::error::ErrorBody)))]
async fn me(State(state): State<AppState>, current: CurrentUser) -> Result<Json<User>> {
    own_user(&state, &current).await.map(Json)
}

/// The same as /api/auth/me (the member shell's call).
#[utoipa::path(get, path = "/api/auth/user", tag = "accounts",
    responses((status = 200, body = User), (status = 401, body = crate::error::ErrorBody)))]
async fn user(State(state): State<AppState>, current: CurrentUser) -> Result<Json<User>> {
    own_user(&state, &current).await.map(Json)
}

pub async fn own_user(state: &AppState, current: &CurrentUser) -> Result<User> {
    let row = users::find_by_id(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)?;
    Ok(crate::invites::with_monthly_top_up(state, row).await?.own())
}

/// Ends the session on the server and clears the cookie.
#[utoipa::path(post, path = "/api/auth/logout", tag = "accounts",
    responses((status = 204), (status = 401, body = crate::error::ErrorBody)))]
async fn logout(State(state): State<AppState>, current: CurrentUser) -> Result<impl IntoResponse> {
    session::delete(&state.db.write, &current.session_hash).await?;
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, session::clear_cookie(&state.config))]))
}

/// Where the web app sends people who must log in: the landing page with the login dialog open.
#[utoipa::path(get, path = "/api/login", tag = "accounts", responses((status = 303)))]
async fn login() -> Redirect {
    Redirect::to("/?login=1")
}
