//! What a member's kept Friends pages are checked against (`cache`): read in the statement that
//! reads the session (`sessions::reads`) or the app's token (`apps::TokenReads`), so a kept page is
//! answered after that one statement.

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
/// whenever either does. The subqueries' aliases are their own: a statement's alias of the same
/// name would be shadowed inside them (`t.member_id = t.member_id` read every timeline).
pub fn columns(member: &str) -> String {
    format!(
        "u.feed_version + (SELECT COALESCE(MAX(marks_log.id), 0) FROM moderation_log marks_log), \
         (SELECT MAX(marks_timeline.post_id) FROM home_timeline marks_timeline \
          WHERE marks_timeline.member_id = {member})"
    )
}
