//! HTTP routes of apps, for Murmur's own web app: the consent page's two calls (what an app asks
//! for, and the member's answer) and the member's connected apps. The apps themselves speak the
//! Mastodon API (`mastodon`).

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, Path, Query};
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::apps::{self, OUT_OF_BAND};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(authorization, answer)).routes(routes!(connected)).routes(routes!(disconnect))
}

/// An app's authorization request, as the app sent the member's browser to `/oauth/authorize`.
#[derive(Debug, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
pub struct AuthorizationParams {
    #[param(max_length = 100)]
    pub client_id: String,
    #[param(max_length = 500)]
    pub redirect_uri: Option<String>,
    /// Space-separated scopes; none: the app's own.
    #[param(max_length = 1000)]
    pub scope: Option<String>,
}

/// What the consent page shows.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppRequest {
    pub app_name: String,
    pub app_website: Option<String>,
    /// The scopes asked for, as sent back with the answer.
    pub scope: String,
    /// What the scopes allow, one line each.
    pub abilities: Vec<String>,
    /// Where the answer goes.
    pub redirect_uri: String,
    /// The scopes asked for that the app did not register: such a request cannot be allowed,
    /// only sent back to the app (`error=invalid_scope`). Empty when it may be allowed.
    pub scopes_beyond_app: Vec<String>,
    /// Where Allow and Deny send the browser, for the member to read: the redirect URI's host
    /// (`app.example`), or an app's own scheme and host (`ivory://oauth`); null for the
    /// out-of-band URI, where the code shows on the consent page itself.
    pub redirect_host: Option<String>,
}

/// What an app asks of the signed-in member (checked: the app and its redirect URI; scopes it
/// did not register are named, for the page to refuse).
#[utoipa::path(get, path = "/api/oauth/authorization", tag = "apps", params(AuthorizationParams),
    responses((status = 200, body = AppRequest), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = _current.id))]
async fn authorization(
    State(state): State<AppState>,
    _current: CurrentUser,
    Query(params): Query<AuthorizationParams>,
) -> Result<Json<AppRequest>> {
    let request =
        apps::read_request(&state.db.read, &params.client_id, params.redirect_uri.as_deref(), params.scope.as_deref())
            .await?;
    let scopes_beyond_app = request.scopes_beyond_app().into_iter().map(str::to_string).collect();
    let redirect_host = request.destination();
    Ok(Json(AppRequest {
        scopes_beyond_app,
        redirect_host,
        app_name: request.app.name,
        app_website: request.app.website,
        scope: request.scopes.to_string(),
        abilities: request.scopes.in_words(),
        redirect_uri: request.redirect_uri,
    }))
}

/// The member's answer on the consent page.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationAnswer {
    #[schema(max_length = 100)]
    pub client_id: String,
    #[schema(max_length = 500)]
    pub redirect_uri: Option<String>,
    #[schema(max_length = 1000)]
    pub scope: Option<String>,
    /// The app's `state`, handed back to it as sent.
    #[schema(max_length = 1000)]
    pub state: Option<String>,
    /// PKCE: the base64url SHA-256 of the app's verifier.
    #[schema(max_length = 128)]
    pub code_challenge: Option<String>,
    /// `S256` (the only method taken).
    pub code_challenge_method: Option<String>,
    /// Allow (true) or Deny (false).
    pub allow: bool,
}

/// Where the member's browser goes next: the app's redirect URI with the code (or with
/// `error=access_denied`), or, for an app without one, the code to copy.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationResult {
    pub redirect_to: Option<String>,
    /// For the out-of-band redirect URI: the code the member copies into the app.
    pub code: Option<String>,
}

/// Allows or denies an app's request as the signed-in member.
#[utoipa::path(post, path = "/api/oauth/authorization", tag = "apps", request_body = AuthorizationAnswer,
    responses((status = 200, body = AuthorizationResult), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn answer(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<AuthorizationAnswer>,
) -> Result<Json<AuthorizationResult>> {
    if body.state.as_ref().is_some_and(|s| s.len() > 1000) {
        return Err(Error::bad_request("state is too long").into());
    }
    let request =
        apps::check_request(&state.db.read, &body.client_id, body.redirect_uri.as_deref(), body.scope.as_deref())
            .await?;
    let challenge = apps::check_challenge(body.code_challenge.as_deref(), body.code_challenge_method.as_deref())?;
    let out_of_band = request.redirect_uri == OUT_OF_BAND;
    let mut pairs: Vec<(&str, String)> = Vec::new();
    let code = if body.allow {
        let code = apps::consent(&state.db, current.id, &request, challenge.as_deref(), state.clock.now()).await?;
        pairs.push(("code", code.clone()));
        Some(code)
    } else {
        pairs.push(("error", "access_denied".to_string()));
        None
    };
    if out_of_band {
        return Ok(Json(AuthorizationResult { redirect_to: None, code }));
    }
    if let Some(app_state) = body.state {
        pairs.push(("state", app_state));
    }
    let mut url =
        url::Url::parse(&request.redirect_uri).map_err(|_| Error::bad_request("redirect_uri is not a URI"))?;
    url.query_pairs_mut().extend_pairs(pairs);
    Ok(Json(AuthorizationResult { redirect_to: Some(url.to_string()), code: None }))
}

/// An app the member let in.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectedApp {
    pub id: i64,
    pub name: String,
    pub website: Option<String>,
    /// What it may do, one line each.
    pub abilities: Vec<String>,
    /// RFC 3339.
    pub connected_at: String,
    /// RFC 3339 (to within a few minutes).
    pub last_used_at: String,
}

/// The apps holding access to the caller's account, most recently used first.
#[utoipa::path(get, path = "/api/apps", tag = "apps",
    responses((status = 200, body = Vec<ConnectedApp>), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn connected(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<ConnectedApp>>> {
    let apps = apps::connected(&state.db.read, current.id).await?;
    Ok(Json(
        apps.into_iter()
            .map(|app| ConnectedApp {
                id: app.app_id,
                name: app.name,
                website: app.website,
                abilities: app.scopes.in_words(),
                connected_at: to_rfc3339(app.connected_at),
                last_used_at: to_rfc3339(app.last_used_at),
            })
            .collect(),
    ))
}

/// Revokes an app's access to the caller's account (every token it holds of theirs).
#[utoipa::path(delete, path = "/api/apps/{id}", tag = "apps", params(("id" = i64, Path, minimum = 1, description = "App id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn disconnect(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    if apps::disconnect(&state.db, current.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(Error::not_found("App not found").into())
    }
}
