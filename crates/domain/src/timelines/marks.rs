//! What a member's kept Friends pages are checked against (`cache`): read in the session's own
//! statement, so a kept page is answered after that one statement (`sessions::reads`).

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

/// The member's marks alone, for callers that did not read them with the session (Mastodon
/// apps' bearer tokens); default marks for a member who is gone.
pub async fn read(pool: &murmur_core::db::Pool, member: i64) -> murmur_core::error::Result<FeedMarks> {
    use std::sync::LazyLock;
    static SQL: LazyLock<String> = LazyLock::new(|| format!("SELECT {} FROM users u WHERE u.id = $1", columns("u.id")));
    let marks: Option<(i64, Option<i64>)> = sqlx::query_as(SQL.as_str()).bind(member).fetch_optional(pool).await?;
    Ok(marks.map(|(version, newest)| FeedMarks { version, newest }).unwrap_or_default())
}
