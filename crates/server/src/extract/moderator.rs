//! `Moderator`: the extractor of every moderation route but the log. A handler that takes it
//! runs only for a moderator or an admin with a live session: 401 without one, 403 for members.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::error::{ApiError, Error, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_domain::moderation;
use murmur_domain::moderation::domain::{ONLY_MODERATORS, Role};

/// The moderator or admin making the request (`murmur_domain::moderation::Moderator`, which
/// every moderation action takes).
#[derive(Clone, Debug)]
pub struct Moderator(pub murmur_domain::moderation::Moderator);

impl std::ops::Deref for Moderator {
    type Target = murmur_domain::moderation::Moderator;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl FromRequestParts<AppState> for Moderator {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        // A session that outlived its member is no session.
        match moderation::role_of(&state.db.read, current.id).await?.ok_or(Error::Unauthorized)? {
            Role::Member => Err(Error::forbidden(ONLY_MODERATORS).into()),
            role => Ok(Moderator(murmur_domain::moderation::Moderator { id: current.id, role })),
        }
    }
}
