//! The reader of the Friends feed, who brings their `FeedMarks` read in the session's own
//! statement.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use super::{CurrentUser, authenticate};
use crate::error::{ApiError, Result};
use crate::state::AppState;
use murmur_domain::sessions::Reading;
use murmur_domain::timelines::FeedMarks;

/// The member reading their Friends feed, with their marks.
#[derive(Clone, Debug)]
pub struct FeedReader {
    pub user: CurrentUser,
    pub marks: FeedMarks,
}

impl FromRequestParts<AppState> for FeedReader {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let (user, marks) = authenticate(parts, state, Reading::WithFeedMarks).await?;
        Ok(FeedReader { user, marks })
    }
}
