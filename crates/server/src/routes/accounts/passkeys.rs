//! HTTP routes of passkeys: adding one (two requests), listing and removing a member's, and
//! signing in with one (two requests). The rules are `murmur_domain::passkeys`'; the design is
//! in docs/auth.md.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::sign_in::signed_in;
use crate::api::{Json, Path};
use crate::client_ip::ClientIp;
use crate::error::{ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use crate::user_agent;
use murmur_core::clock::{HOUR, to_rfc3339};
use murmur_core::rate_limit::{self, Limit, MemberLimit};
use murmur_domain::mail::templates;
use murmur_domain::passkeys;
use murmur_domain::sessions;
use murmur_domain::users::{self, User};

/// Sign-ins begun, and finished, per client network: a passkey sign-in takes one of each.
pub const LOGINS_PER_IP: Limit = Limit { max: 60, window: HOUR };

const TOO_MANY_LOGINS: &str = "Too many passkey sign-ins from your network. Please try again later.";
const TOO_MANY_ADDED: &str = "Too many passkeys were added in the last hour. Please try again later.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start_registration))
        .routes(routes!(finish_registration))
        .routes(routes!(list))
        .routes(routes!(remove))
        .routes(routes!(start_login))
        .routes(routes!(finish_login))
        .routes(routes!(reauthenticate))
}

/// A begun ceremony: its id, to send back with the browser's answer, and the options to give
/// the browser (`navigator.credentials.create` or `.get`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ceremony {
    /// Works once, for 6 minutes.
    pub ceremony: String,
    /// WebAuthn's options as JSON, `publicKey` inside (for `@simplewebauthn/browser`, pass
    /// `options.publicKey`).
    #[schema(value_type = Object)]
    pub options: Value,
}

impl From<passkeys::Begun> for Ceremony {
    fn from(begun: passkeys::Begun) -> Ceremony {
        Ceremony { ceremony: begun.ceremony, options: begun.options }
    }
}

/// One of the member's passkeys.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyInfo {
    /// Names it in `DELETE /api/auth/passkeys/{id}`.
    pub id: i64,
    pub name: String,
    /// When it was added.
    pub created_at: String,
    /// When it last signed in; null when it never has.
    pub last_used_at: Option<String>,
}

impl From<passkeys::Listed> for PasskeyInfo {
    fn from(listed: passkeys::Listed) -> PasskeyInfo {
        PasskeyInfo {
            id: listed.id,
            name: listed.name,
            created_at: to_rfc3339(listed.created_at),
            last_used_at: listed.last_used_at.map(to_rfc3339),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct RegistrationFinish {
    /// The id `register/start` answered.
    ceremony: String,
    /// What the member calls it ("Laptop"): 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    name: String,
    /// The browser's answer (`RegistrationResponseJSON`).
    #[schema(value_type = Object)]
    credential: Value,
}

#[derive(Deserialize, ToSchema)]
pub struct LoginFinish {
    /// The id `login/start` answered.
    ceremony: String,
    /// The browser's answer (`AuthenticationResponseJSON`).
    #[schema(value_type = Object)]
    credential: Value,
}

/// Begins adding a passkey to the member's account: answers the options for the browser. Only
/// within 10 minutes of signing in, or of confirming it is them
/// (`/api/auth/passkeys/reauthenticate`, `/api/auth/reauthenticate/verify`): 403 otherwise. At
/// most 10 an hour; 409 with 20 passkeys already.
#[utoipa::path(post, path = "/api/auth/passkeys/register/start", tag = "accounts",
    responses((status = 200, body = Ceremony), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn start_registration(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Ceremony>> {
    let now = state.clock.now();
    rate_limit::hit_member(&state.db, MemberLimit::Passkey, current.id, now, TOO_MANY_ADDED).await?;
    let begun = passkeys::start_registration(&state.db, &state.config, session_of(&current), now).await?;
    Ok(Json(begun.into()))
}

fn session_of(current: &CurrentUser) -> sessions::Current<'_> {
    sessions::Current { member: current.id, hash: &current.session_hash }
}

/// Finishes adding a passkey with the browser's answer, and e-mails the member a notice naming
/// it and the browser it was added from. A ceremony that is unknown, finished, expired or
/// another member's, or an answer that does not verify (another origin, a cancelled or altered
/// one): 400 with what went wrong. The sign-in no longer recent: 403. A passkey already added: 409.
#[utoipa::path(post, path = "/api/auth/passkeys/register/finish", tag = "accounts", request_body = RegistrationFinish,
    responses((status = 201, body = PasskeyInfo), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn finish_registration(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<RegistrationFinish>,
) -> Result<impl IntoResponse> {
    let now = state.clock.now();
    let added = passkeys::finish_registration(
        &state.db,
        &state.config,
        session_of(&current),
        &body.ceremony,
        &body.name,
        body.credential,
        now,
    )
    .await?;
    tracing::info!(user_id = current.id, passkey = added.id, "a passkey was added");
    // After the commit: the passkey stands even if the notice cannot be sent (it is logged).
    let device = user_agent::device_name(sessions::user_agent(&state.db.read, &current.session_hash).await?.as_deref());
    let settings = state.config.link("/settings");
    if let Some(member) = users::find_by_id(&state.db.read, current.id).await?
        && let Err(e) =
            state.mailer.send(templates::passkey_added_notice(&member.email, &added.name, &device, &settings)).await
    {
        tracing::warn!(error = %e, user_id = current.id, "the member could not be told of the new passkey");
    }
    Ok((StatusCode::CREATED, Json(PasskeyInfo::from(added))))
}

/// The member's passkeys, newest first.
#[utoipa::path(get, path = "/api/auth/passkeys", tag = "accounts",
    responses((status = 200, body = Vec<PasskeyInfo>), (status = 401, body = ErrorBody)))]
async fn list(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<PasskeyInfo>>> {
    let listed = passkeys::list(&state.db, current.id).await?;
    Ok(Json(listed.into_iter().map(PasskeyInfo::from).collect()))
}

/// Removes one of the member's passkeys: it signs nobody in from then on. Another member's, or
/// one already removed: 404.
#[utoipa::path(delete, path = "/api/auth/passkeys/{id}", tag = "accounts",
    params(("id" = i64, Path, description = "The passkey's id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    passkeys::remove(&state.db, current.id, id).await?;
    tracing::info!(user_id = current.id, passkey = id, "a passkey was removed");
    Ok(StatusCode::NO_CONTENT)
}

/// Begins a sign-in with a passkey: answers options that name no member (the browser offers
/// the passkeys it holds for this site, from a button or as autofill). At most 60 an hour per
/// network.
#[utoipa::path(post, path = "/api/auth/passkeys/login/start", tag = "accounts",
    responses((status = 200, body = Ceremony), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn start_login(State(state): State<AppState>, ip: ClientIp) -> Result<Json<Ceremony>> {
    let now = state.clock.now();
    let key = format!("passkey-login:ip:{}", ip.limit_key());
    rate_limit::hit(&state.db, &key, LOGINS_PER_IP, now, TOO_MANY_LOGINS).await?;
    Ok(Json(passkeys::start_login(&state.db, &state.config, now).await?.into()))
}

/// Finishes a sign-in with the browser's answer: signs in exactly as a magic link does (a
/// session, its cookie, the member). A ceremony that is unknown, finished or expired, a passkey
/// that is unknown or removed, an answer that does not verify (another origin): 400 with what
/// went wrong; a suspended member: 403.
#[utoipa::path(post, path = "/api/auth/passkeys/login/finish", tag = "accounts", request_body = LoginFinish,
    responses((status = 200, body = User), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn finish_login(
    State(state): State<AppState>,
    ip: ClientIp,
    headers: HeaderMap,
    Json(body): Json<LoginFinish>,
) -> Result<impl IntoResponse> {
    super::sign_in::refuse_cross_site(&headers)?;
    let now = state.clock.now();
    let key = format!("passkey-login-finish:ip:{}", ip.limit_key());
    rate_limit::hit(&state.db, &key, LOGINS_PER_IP, now, TOO_MANY_LOGINS).await?;
    let user_agent = user_agent::from_headers(&headers);
    let network = ip.network();
    let browser = sessions::Browser {
        user_agent: user_agent.as_deref(),
        network: network.as_deref(),
        signed_in_with: sessions::SignedInWith::Passkey,
    };
    let (user_id, session_token) =
        passkeys::finish_login(&state.db, &state.config, &body.ceremony, body.credential, browser, now).await?;
    tracing::info!(user_id, "logged in with a passkey");
    signed_in(&state, &headers, user_id, &session_token).await
}

/// Confirms with one of the member's passkeys that this session is still theirs, as adding a
/// passkey asks (403 from `register/start` when the sign-in is over 10 minutes old): the
/// ceremony is a sign-in's (`login/start`), and the session's sign-in becomes now. A passkey of
/// another account, or one that is unknown or does not verify: 400 with what went wrong.
#[utoipa::path(post, path = "/api/auth/passkeys/reauthenticate", tag = "accounts", request_body = LoginFinish,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn reauthenticate(
    State(state): State<AppState>,
    current: CurrentUser,
    ip: ClientIp,
    Json(body): Json<LoginFinish>,
) -> Result<StatusCode> {
    let now = state.clock.now();
    let key = format!("passkey-login-finish:ip:{}", ip.limit_key());
    rate_limit::hit(&state.db, &key, LOGINS_PER_IP, now, TOO_MANY_LOGINS).await?;
    passkeys::reauthenticate(&state.db, &state.config, session_of(&current), &body.ceremony, body.credential, now)
        .await?;
    tracing::info!(user_id = current.id, "a session was confirmed with a passkey");
    Ok(StatusCode::NO_CONTENT)
}
