//! `Moderator`: the extractor of every moderation route but the log. A handler that takes it
//! runs only for a moderator or an admin with a live session: 401 without one, 403 for members.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::domain::{ONLY_MODERATORS, Role};
use super::store;
use crate::accounts::CurrentUser;
use crate::error::{Error, Result};
use crate::state::AppState;

/// The moderator or admin making the request, with their role as stored when it began.
#[derive(Clone, Debug)]
pub struct Moderator {
    pub id: i64,
    pub role: Role,
}

impl FromRequestParts<AppState> for Moderator {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        // A session that outlived its member is no session.
        match store::role_of(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)? {
            Role::Member => Err(Error::forbidden(ONLY_MODERATORS)),
            role => Ok(Moderator { id: current.id, role }),
        }
    }
}
