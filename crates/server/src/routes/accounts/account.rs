//! HTTP routes of a member's own account: their sessions (listed, ended one by one) and
//! changing their e-mail address. The design is in docs/auth.md.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::sign_in::{Message, limit_link_requests};
use crate::api::{Json, Path};
use crate::client_ip::ClientIp;
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use crate::user_agent;
use murmur_core::clock::to_rfc3339;
use murmur_domain::accounts::magic_link::INVALID_LINK;
use murmur_domain::accounts::{Email, email_change, magic_link};
use murmur_domain::mail::templates;
use murmur_domain::sessions;
use murmur_domain::users;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_sessions))
        .routes(routes!(end_session))
        .routes(routes!(request_email_change))
        .routes(routes!(confirm_email_change))
}

const SESSION_NOT_FOUND: &str = "Session not found";
/// The same words whether or not the address is free (no one learns whose address it is).
const EMAIL_LINK_SENT: &str =
    "Check the inbox of your new address: we sent it a link. Your address changes when you follow it.";

/// One of the member's live sessions.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    /// The session's public id (32 hex digits): names it in `DELETE /api/auth/sessions/{id}`,
    /// and is neither its cookie nor anything that can act as it.
    pub id: String,
    /// The session of the request that asked ("this device").
    pub current: bool,
    /// The browser's user agent at login (at most 512 bytes); null for sessions from before
    /// it was kept.
    pub user_agent: Option<String>,
    /// The browser and its major version read from the user agent ("Firefox 128"), if known.
    pub browser: Option<String>,
    /// The operating system read from the user agent ("Linux", "iOS"), if known.
    pub os: Option<String>,
    /// When the session started (login).
    pub created_at: String,
    /// When it was last used (its last request), to within 5 minutes: the server writes it at
    /// most that often.
    pub last_used_at: String,
    /// The network it was last used from, an approximate place: the client's IPv4 /24 or IPv6
    /// /48 ("203.0.113.0/24"), never its address; null when unknown (and for sessions not used
    /// since this was kept).
    pub network: Option<String>,
    /// How the session was signed in: an e-mailed link or a passkey.
    #[schema(value_type = String, pattern = "^(link|passkey)$")]
    pub signed_in_with: &'static str,
}

impl From<sessions::Listed> for SessionInfo {
    fn from(listed: sessions::Listed) -> SessionInfo {
        let device = listed.user_agent.as_deref().map(user_agent::describe);
        SessionInfo {
            id: listed.public_id,
            current: listed.current,
            browser: device.as_ref().and_then(|d| d.browser.clone()),
            os: device.as_ref().and_then(|d| d.os.map(str::to_string)),
            user_agent: listed.user_agent,
            created_at: to_rfc3339(listed.created_at),
            last_used_at: to_rfc3339(listed.last_seen_at),
            network: listed.network,
            signed_in_with: listed.signed_in_with.as_str(),
        }
    }
}

/// The member's live sessions: this one first, then the most recently used (at most 100).
#[utoipa::path(get, path = "/api/auth/sessions", tag = "accounts",
    responses((status = 200, body = Vec<SessionInfo>), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn list_sessions(State(state): State<AppState>, current: CurrentUser) -> Result<Json<Vec<SessionInfo>>> {
    let listed = sessions::list(&state.db.read, current.id, &current.session_hash, state.clock.now()).await?;
    Ok(Json(listed.into_iter().map(SessionInfo::from).collect()))
}

/// Ends one of the member's sessions, wherever it is open: its next request is a visitor's and
/// its open tabs are told at once. Ending this very session is a logout (the cookie is
/// cleared). Another member's session, or one that has ended: 404.
#[utoipa::path(delete, path = "/api/auth/sessions/{id}", tag = "accounts",
    params(("id" = String, Path, pattern = "^[0-9a-f]{32}$", description = "The session's public id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, id), fields(user = current.id))]
async fn end_session(State(state): State<AppState>, current: CurrentUser, Path(id): Path<String>) -> Result<Response> {
    if !sessions::is_public_id(&id) {
        return Err(Error::not_found(SESSION_NOT_FOUND).into());
    }
    let ended = sessions::delete(&state.db.write, sessions::One::Listed { member: current.id, public_id: &id })
        .await?
        .ok_or_else(|| Error::not_found(SESSION_NOT_FOUND))?;
    let this_one = ended == current.session_hash;
    tracing::info!(user_id = current.id, this_one, "a session was ended from the list");
    if this_one {
        return Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, crate::session_cookie::clear(&state.config))])
            .into_response());
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize, ToSchema)]
pub struct EmailChangeRequest {
    /// The new address. Trimmed and lower-cased; at most 254 characters.
    #[schema(format = Email, max_length = 254)]
    email: String,
}

/// Asks to change the member's e-mail address: a link is e-mailed to the new address, valid for
/// 15 minutes and once; the address changes when it is followed. The answer is the same
/// whether or not the address belongs to another member (who is sent nothing). Rate limited
/// with the login links, per address and per network.
#[utoipa::path(post, path = "/api/auth/email", tag = "accounts", request_body = EmailChangeRequest,
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, ip, body), fields(user = current.id))]
async fn request_email_change(
    State(state): State<AppState>,
    ip: ClientIp,
    current: CurrentUser,
    Json(body): Json<EmailChangeRequest>,
) -> Result<Json<Message>> {
    let email = Email::parse(&body.email)?;
    let now = state.clock.now();
    let own = users::find_by_id(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)?;
    if own.email == email.as_str() {
        return Err(Error::bad_request(email_change::SAME).into());
    }
    limit_link_requests(&state, &email, ip, now).await?;
    let taken = users::find_by_email(&state.db.read, email.as_str()).await?.is_some();
    // The same work whether or not the address is taken: a link is stored either way (one for
    // a taken address fails at confirmation) and is sent from a spawned task, so neither the
    // answer nor its time tells. A failed send is logged and its link removed, as for login.
    let link = magic_link::issue_email_change(&state.db.write, &state.config, current.id, email.as_str(), now).await?;
    if !taken {
        let to = email.as_str().to_string();
        link.send_later(state.db.write.clone(), state.mailer.clone(), move |url| {
            templates::email_change_link(&to, url)
        });
    }
    Ok(Message::new(EMAIL_LINK_SENT))
}

#[derive(Deserialize, ToSchema)]
pub struct EmailChangeConfirmation {
    /// The token from the e-mailed link (43 characters of base64url).
    #[schema(pattern = "^[A-Za-z0-9_-]{43}$")]
    token: String,
}

/// The member's address after a change.
#[derive(Serialize, ToSchema)]
pub struct EmailChanged {
    pub email: String,
    pub message: String,
}

/// Follows an address-change link: the member's address becomes the one the link was sent to,
/// and the old address is told. Needs no session (the link names the member); sessions stay.
/// A link that is unknown, used, expired or not an address change: 400. The address taken by
/// another member meanwhile: 409.
#[utoipa::path(post, path = "/api/auth/email/confirm", tag = "accounts", request_body = EmailChangeConfirmation,
    responses((status = 200, body = EmailChanged), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody)))]
#[tracing::instrument(skip(state, body))]
async fn confirm_email_change(
    State(state): State<AppState>,
    Json(body): Json<EmailChangeConfirmation>,
) -> Result<Json<EmailChanged>> {
    if !magic_link::is_well_formed(&body.token) {
        return Err(Error::bad_request(INVALID_LINK).into());
    }
    let changed = email_change::confirm(&state.db.write, &body.token, state.clock.now()).await?;
    if changed.old != changed.new {
        tracing::info!(user_id = changed.member, "e-mail address changed");
        // After the commit: the change stands even if the notice cannot be sent (it is logged).
        if let Err(e) = state.mailer.send(templates::email_changed_notice(&changed.old, &changed.new)).await {
            tracing::warn!(error = %e, user_id = changed.member, "the old address could not be told of the change");
        }
    }
    let message = format!("Your e-mail address is now {}.", changed.new);
    Ok(Json(EmailChanged { email: changed.new, message }))
}
