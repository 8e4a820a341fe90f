//! What a member's kept Friends pages are checked against (`cache`), and the reader of the
//! Friends feed who brings them: read in the session's own statement, so a kept page is
//! answered after that one statement (`accounts::session_reads`).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::accounts::CurrentUser;
use crate::accounts::extract::authenticate;
use crate::accounts::session::Reading;
use crate::error::{Error, Result};
use crate::state::AppState;

/// The member's `feed_version` (raised by every write of theirs: `changes`) plus the newest
/// moderators' action (a post removed or a member suspended changes every member's pages), and
/// the newest post in their home timeline (raised by every post that reaches them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeedMarks {
    pub version: i64,
    pub newest: Option<i64>,
}

/// The marks as two columns of a statement that joins the member's `users` row as `u`, their
/// id being the SQL expression `member`: a primary-key join and two indexes' last entries on
/// top of the statement's own row. Both parts of `version` only grow, so their sum changes
/// whenever either does.
pub fn columns(member: &str) -> String {
    format!(
        "u.feed_version + (SELECT COALESCE(MAX(l.id), 0) FROM moderation_log l), \
         (SELECT MAX(t.post_id) FROM home_timeline t WHERE t.member_id = {member})"
    )
}

/// The member reading their Friends feed, with their marks.
#[derive(Clone, Debug)]
pub struct FeedReader {
    pub user: CurrentUser,
    pub marks: FeedMarks,
}

impl FromRequestParts<AppState> for FeedReader {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let (user, marks) = authenticate(parts, state, Reading::WithFeedMarks).await?;
        Ok(FeedReader { user, marks })
    }
}
