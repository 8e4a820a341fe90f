//! Authentication as extractors: a handler that takes `CurrentUser` only runs for a member
//! with a live session (401 otherwise); `MaybeUser` is for calls that also serve visitors.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::client_ip::{ClientIp, peer};
use crate::error::{ApiError, Error, Result};
use crate::state::AppState;
use murmur_domain::sessions::{self, Reading};
use murmur_domain::timelines::FeedMarks;

mod feed_reader;
mod moderator;
mod moment_old;

pub use feed_reader::FeedReader;
pub use moderator::Moderator;
pub use moment_old::{MomentOld, Writer, fall_back_to_primary, remember_positions};

/// The member making the request.
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub id: i64,
    /// Hash of the session in use (to end it, or to keep it while ending the others).
    pub session_hash: String,
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        if let Some(user) = parts.extensions.get::<CurrentUser>() {
            return Ok(user.clone());
        }
        let (user, _) = authenticate(parts, state, Reading::SessionOnly).await?;
        Ok(user)
    }
}

/// The request's session (401 without a live one), remembered for the request's other
/// extractors; with the member's feed marks when `reading` asks for them (`extract::FeedReader`).
pub(crate) async fn authenticate(
    parts: &mut Parts,
    state: &AppState,
    reading: Reading,
) -> Result<(CurrentUser, FeedMarks)> {
    let token = crate::session_cookie::token(&state.config, &parts.headers).ok_or(Error::Unauthorized)?;
    let network = ClientIp::resolve(peer(&parts.extensions), &parts.headers, &state.config.trusted_proxies).network();
    let (id, session_hash, marks) = sessions::lookup(
        &state.credentials.sessions,
        &state.db.write,
        token,
        network.as_deref(),
        state.clock.now(),
        reading,
    )
    .await?
    .ok_or(Error::Unauthorized)?;
    let user = CurrentUser { id, session_hash };
    Writer::note(parts, id);
    parts.extensions.insert(user.clone());
    Ok((user, marks))
}

/// The member making the request, if there is one with a live session.
#[derive(Clone, Debug)]
pub struct MaybeUser(pub Option<CurrentUser>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        match CurrentUser::from_request_parts(parts, state).await {
            Ok(user) => Ok(MaybeUser(Some(user))),
            Err(ApiError(Error::Unauthorized)) => Ok(MaybeUser(None)),
            Err(other) => Err(other),
        }
    }
}
