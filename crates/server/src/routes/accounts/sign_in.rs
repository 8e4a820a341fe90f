//! HTTP routes of the accounts area: magic-link sign-up and login, verification, sessions and
//! the current member. The design (and what each choice defends against) is in docs/auth.md.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, Query};
use crate::client_ip::ClientIp;
use crate::error::{Error, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use crate::user_agent;
use murmur_core::clock::{HOUR, Millis};
use murmur_core::rate_limit::{self, Limit};
use murmur_core::secrets::hash_token;
use murmur_domain::accounts::Email;
use murmur_domain::accounts::magic_link::{self, INVALID_LINK, Purpose, ReturnPath};
use murmur_domain::accounts::sign_in::{self, Passkeys, log_out_everywhere};
use murmur_domain::invites::InviteCode;
use murmur_domain::invites::code::INVALID as INVALID_INVITE;
use murmur_domain::mail::templates;
use murmur_domain::sessions;
use murmur_domain::users::{self, User};

/// Link requests (sign-up and login together) per address, and per client network.
pub const LINKS_PER_ADDRESS: Limit = Limit { max: 5, window: HOUR };
pub const LINKS_PER_IP: Limit = Limit { max: 20, window: HOUR };

const SIGN_UP_SENT: &str = "Check your email! We sent you a magic link to log in.";
/// The same words for members and strangers (spec §8's login toast).
const LOGIN_SENT: &str = "If an account exists, we've sent you a magic link.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_magic_link))
        .routes(routes!(request_login_link))
        .routes(routes!(verify))
        .routes(routes!(me))
        .routes(routes!(user))
        .routes(routes!(logout))
        .routes(routes!(logout_others))
        .routes(routes!(request_reauthentication_link))
        .routes(routes!(reauthenticate_with_link))
        .routes(routes!(login))
}

/// A short answer for the person.
#[derive(Debug, Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

impl Message {
    pub fn new(message: &str) -> Json<Message> {
        Json(Message { message: message.to_string() })
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignUpLinkRequest {
    /// Trimmed and lower-cased; at most 254 characters.
    #[schema(format = Email, max_length = 254)]
    email: String,
    /// Required; a missing code answers "Please enter your invite code." Surrounding spaces
    /// are trimmed and letters upper-cased before the check.
    #[serde(default)]
    #[schema(pattern = r"^\s*[A-Za-z0-9]{12}\s*$")]
    invite_code: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct LoginLinkRequest {
    /// Trimmed and lower-cased; at most 254 characters.
    #[schema(format = Email, max_length = 254)]
    email: String,
    /// The page of this site to open once signed in (a shared post: `/post/42`): a path that
    /// starts with one `/`, without `//` or a backslash; anything else answers 400. The e-mailed
    /// link carries it (`&next=`).
    #[serde(default)]
    #[schema(max_length = 512, example = "/post/42")]
    next: Option<String>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VerifyParams {
    /// The token from the e-mailed link (43 characters of base64url). Required: a missing or
    /// malformed token answers 400.
    #[param(required = true, pattern = "^[A-Za-z0-9_-]{43}$")]
    token: Option<String>,
    /// The invite code from a sign-up link. Informational: the code used is the one stored
    /// with the token when the link was requested, so editing the URL cannot switch codes.
    #[allow(dead_code)]
    invite: Option<String>,
}

/// Sign-up: e-mails a link that creates the account. The invite code must exist, be unused
/// and unexpired, and its owner neither suspended nor without invites. An address that already
/// belongs to a member gets a login link instead, with the same answer (a suspended member: 403).
#[utoipa::path(post, path = "/api/auth/request-magic-link", tag = "accounts", request_body = SignUpLinkRequest,
    responses((status = 200, body = Message), (status = 400, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody),
              (status = 503, body = crate::error::ErrorBody)))]
async fn request_magic_link(
    State(state): State<AppState>,
    ip: ClientIp,
    Json(body): Json<SignUpLinkRequest>,
) -> Result<Json<Message>> {
    let email = Email::parse(&body.email)?;
    let code = InviteCode::parse(body.invite_code.as_deref().unwrap_or_default())?;
    let now = state.clock.now();
    limit_link_requests(&state, &email, ip, now).await?;
    if !murmur_domain::invites::is_valid(&state.db.read, code.as_str(), now).await? {
        return Err(Error::bad_request(INVALID_INVITE).into());
    }
    let is_member = refuse_suspended(&state, &email, now).await?;
    // Both cases send synchronously, so they also take the same time.
    let (purpose, invite) = if is_member { (Purpose::Login, None) } else { (Purpose::Signup, Some(code.as_str())) };
    let link = magic_link::issue(&state.db.write, &state.config, email.as_str(), purpose, invite, now).await?;
    let to = email.as_str();
    let template = if is_member { templates::login_link } else { templates::sign_up_link };
    link.send(&state.db.write, &state.mailer, |url| template(to, url)).await?;
    Ok(Message::new(SIGN_UP_SENT))
}

/// Login: e-mails a login link to a member. Answers the same, in status, body and (as far as
/// the server can make it) time, whether or not the address belongs to a member; only a
/// suspended member is told (403).
#[utoipa::path(post, path = "/api/auth/request-login-link", tag = "accounts", request_body = LoginLinkRequest,
    responses((status = 200, body = Message), (status = 400, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
async fn request_login_link(
    State(state): State<AppState>,
    ip: ClientIp,
    Json(body): Json<LoginLinkRequest>,
) -> Result<Json<Message>> {
    let email = Email::parse(&body.email)?;
    let next = body.next.as_deref().map(ReturnPath::parse).transpose()?;
    let now = state.clock.now();
    limit_link_requests(&state, &email, ip, now).await?;
    let is_member = refuse_suspended(&state, &email, now).await?;
    // The same database work for members and strangers: a stranger's link is stored too (it
    // can never log anyone in: verify finds no member) and is never sent.
    let link = magic_link::issue(&state.db.write, &state.config, email.as_str(), Purpose::Login, None, now)
        .await?
        .leading_to(next.as_ref());
    if is_member {
        // Sent later, so a member's answer takes no longer than a stranger's; a failed send
        // cannot be reported (that would tell strangers from members too).
        let to = email.as_str().to_string();
        link.send_later(state.db.write.clone(), state.mailer.clone(), move |url| templates::login_link(&to, url));
    }
    Ok(Message::new(LOGIN_SENT))
}

/// Whether the address belongs to a member; 403 when that member is suspended (their links
/// would only be refused at verify).
async fn refuse_suspended(state: &AppState, email: &Email, now: Millis) -> Result<bool> {
    match users::find_by_email(&state.db.read, email.as_str()).await? {
        Some(member) if murmur_domain::users::model::is_suspended(member.suspended_until, now) => {
            Err(Error::forbidden(murmur_domain::users::model::SUSPENDED).into())
        }
        found => Ok(found.is_some()),
    }
}

/// Counts a link request against the address and the client's network; 429 over the limits.
/// The windows are fixed hours, so the real owner is never locked out past the hour.
pub(super) async fn limit_link_requests(state: &AppState, email: &Email, ip: ClientIp, now: Millis) -> Result<()> {
    rate_limit::hit(
        &state.db,
        &format!("link:ip:{}", ip.limit_key()),
        LINKS_PER_IP,
        now,
        "Too many login links were requested from your network. Please try again later.",
    )
    .await?;
    // The address is kept hashed: the counters need not hold readable addresses.
    rate_limit::hit(
        &state.db,
        &format!("link:email:{}", hash_token(email.as_str())),
        LINKS_PER_ADDRESS,
        now,
        "Too many login links were requested for this address. Please wait before asking for another.",
    )
    .await?;
    Ok(())
}

/// Uses an e-mailed link: a sign-up link creates the member and uses up their invite, a login
/// link logs in; either starts a session (cookie) and answers the member. A link works once,
/// for 15 minutes.
#[utoipa::path(get, path = "/api/auth/verify", tag = "accounts", params(VerifyParams),
    responses((status = 200, body = User), (status = 400, body = crate::error::ErrorBody),
              (status = 403, body = crate::error::ErrorBody)))]
async fn verify(
    State(state): State<AppState>,
    ip: ClientIp,
    headers: HeaderMap,
    Query(params): Query<VerifyParams>,
) -> Result<impl IntoResponse> {
    refuse_cross_site(&headers)?;
    let token =
        params.token.filter(|t| magic_link::is_well_formed(t)).ok_or_else(|| Error::bad_request(INVALID_LINK))?;
    let now = state.clock.now();

    let user_agent = user_agent::from_headers(&headers);
    let network = ip.network();
    let browser = sessions::Browser {
        user_agent: user_agent.as_deref(),
        network: network.as_deref(),
        signed_in_with: sessions::SignedInWith::Link,
    };
    let (user_id, session_token) = sign_in::use_link(&state.db, &token, browser, now).await?;
    tracing::info!(user_id, "logged in with a magic link");
    signed_in(&state, &headers, user_id, &session_token).await
}

/// Hands a browser the session it was just signed in with (a magic link or a passkey): its
/// old session, if any, ends; the cookie is set; the answer is the member.
pub(super) async fn signed_in(
    state: &AppState,
    headers: &HeaderMap,
    user_id: i64,
    session_token: &str,
) -> Result<impl IntoResponse + use<>> {
    // A browser that was logged in (perhaps as someone else) gets a new session; its old one ends.
    if let Some(old) = crate::session_cookie::token(&state.config, headers) {
        sessions::delete(&state.db.write, sessions::One::ByHash(&hash_token(old))).await?;
    }
    let user = users::own_user(&state.db.read, user_id, state.clock.now()).await?;
    let headers = [
        (header::SET_COOKIE, crate::session_cookie::set(&state.config, session_token)),
        (header::CACHE_CONTROL, "no-store".to_string()),
    ];
    Ok((headers, Json(user)))
}

/// Login CSRF defence: the web app calls verify with fetch from its own page; a browser marks
/// a request another site caused (a link, an image, a form) with `Sec-Fetch-Site`. Such a
/// request must not log the browser in to an account an attacker chose.
pub(super) fn refuse_cross_site(headers: &HeaderMap) -> Result<()> {
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some("cross-site" | "same-site") => Err(Error::forbidden("Cross-site request refused").into()),
        _ => Ok(()),
    }
}

/// The logged-in member (with e-mail and invite allowance); 401 for visitors.
#[utoipa::path(get, path = "/api/auth/me", tag = "accounts",
    responses((status = 200, body = User), (status = 401, body = crate::error::ErrorBody)))]
async fn me(State(state): State<AppState>, current: CurrentUser) -> Result<Json<User>> {
    Ok(users::own_user(&state.db.read, current.id, state.clock.now()).await.map(Json)?)
}

/// The same as /api/auth/me (the member shell's call).
#[utoipa::path(get, path = "/api/auth/user", tag = "accounts",
    responses((status = 200, body = User), (status = 401, body = crate::error::ErrorBody)))]
async fn user(State(state): State<AppState>, current: CurrentUser) -> Result<Json<User>> {
    Ok(users::own_user(&state.db.read, current.id, state.clock.now()).await.map(Json)?)
}

/// Ends the session on the server and clears the cookie.
#[utoipa::path(post, path = "/api/auth/logout", tag = "accounts",
    responses((status = 204), (status = 401, body = crate::error::ErrorBody)))]
async fn logout(State(state): State<AppState>, current: CurrentUser) -> Result<impl IntoResponse> {
    sessions::delete(&state.db.write, sessions::One::ByHash(&current.session_hash)).await?;
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, crate::session_cookie::clear(&state.config))]))
}

#[derive(Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LogoutOthers {
    /// Also removes every passkey of the member (default false): a passkey someone added with a
    /// copied session would sign them in again.
    #[serde(default)]
    remove_passkeys: bool,
}

/// Ends every other session of the member (other browsers and devices) and every app's token;
/// this one stays. With `{"removePasskeys": true}` the member's passkeys are removed too. The
/// body is optional.
#[utoipa::path(post, path = "/api/auth/logout-others", tag = "accounts", request_body(content = Option<LogoutOthers>),
    responses((status = 204), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
async fn logout_others(State(state): State<AppState>, current: CurrentUser, body: Bytes) -> Result<StatusCode> {
    // No body (or `null`) is the call as it always was: the passkeys stay.
    let asked: LogoutOthers = if body.iter().all(u8::is_ascii_whitespace) {
        LogoutOthers::default()
    } else {
        serde_json::from_slice::<Option<LogoutOthers>>(&body)
            .map_err(|e| Error::bad_request(format!("The body is not as expected: {e}")))?
            .unwrap_or_default()
    };
    let passkeys = if asked.remove_passkeys { Passkeys::Remove } else { Passkeys::Keep };
    let ended = log_out_everywhere(&state.db, current.id, &current.session_hash, passkeys).await?;
    tracing::info!(user_id = current.id, ended, removed_passkeys = asked.remove_passkeys, "other sessions ended");
    Ok(StatusCode::NO_CONTENT)
}

const REAUTHENTICATION_SENT: &str = "We sent you a link. Open it in this browser to confirm it's you.";

/// E-mails the member a link that confirms this session is still theirs, as adding a passkey
/// asks (403 from `passkeys/register/start` when the sign-in is over 10 minutes old). Counted
/// with the login links (5 an hour per address).
#[utoipa::path(post, path = "/api/auth/reauthenticate/request-link", tag = "accounts",
    responses((status = 200, body = Message), (status = 401, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
async fn request_reauthentication_link(
    State(state): State<AppState>,
    current: CurrentUser,
    ip: ClientIp,
) -> Result<Json<Message>> {
    let now = state.clock.now();
    let member = users::find_by_id(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)?;
    let email = Email::parse(&member.email)?;
    limit_link_requests(&state, &email, ip, now).await?;
    let link = magic_link::issue_reauthentication(&state.db.write, &state.config, email.as_str(), now).await?;
    link.send(&state.db.write, &state.mailer, |url| templates::reauthentication_link(email.as_str(), url)).await?;
    Ok(Message::new(REAUTHENTICATION_SENT))
}

#[derive(Deserialize, ToSchema)]
pub struct ReauthenticationLink {
    /// The token of the e-mailed link (`/auth/reauthenticate?token=…`).
    #[schema(pattern = "^[A-Za-z0-9_-]{43}$")]
    token: String,
}

/// Uses an e-mailed login link to confirm this session is still the member's: the session's
/// sign-in becomes now, and it may add a passkey for the next 10 minutes. A link that is not
/// live: 400; one sent to another account: 400 and it stays unused. Without a session (the
/// link opened in another browser): 401, and the link still signs in with `verify`.
#[utoipa::path(post, path = "/api/auth/reauthenticate/verify", tag = "accounts", request_body = ReauthenticationLink,
    responses((status = 204), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
async fn reauthenticate_with_link(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    Json(body): Json<ReauthenticationLink>,
) -> Result<StatusCode> {
    refuse_cross_site(&headers)?;
    if !magic_link::is_well_formed(&body.token) {
        return Err(Error::bad_request(INVALID_LINK).into());
    }
    let session = sessions::Current { member: current.id, hash: &current.session_hash };
    sign_in::reauthenticate_with_link(&state.db, &body.token, session, state.clock.now()).await?;
    tracing::info!(user_id = current.id, "a session was confirmed with an e-mailed link");
    Ok(StatusCode::NO_CONTENT)
}

/// Where the web app sends people who must log in: the landing page with the login dialog open.
#[utoipa::path(get, path = "/api/login", tag = "accounts", responses((status = 303)))]
async fn login() -> Redirect {
    Redirect::to("/?login=1")
}
