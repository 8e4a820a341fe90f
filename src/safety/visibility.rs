//! Who a member does not see, as SQL that each list puts in its own `WHERE` (so a page of 20 is
//! still 20 when posts are hidden), and who may not act on whom.
//!
//! - A block hides each of the two members from the other everywhere (`Scope::Anywhere`) and
//!   stops every interaction between them.
//! - A mute hides the muted member from the muter in the Friends and For You feeds and in
//!   notifications (`Scope::Feeds`) until it expires; nothing else changes.
//! - A suspended member is hidden from everyone everywhere while suspended.
//!
//! Each test is a primary-key or partial-index lookup per row (`blocks` both ways, `mutes`,
//! `users_suspended_idx`), never a scan of a member's blocks.

use sqlx::AnyConnection;

use crate::error::{Error, Result};

/// Where a list is shown, which decides what hides an author from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// Threads, profiles, likes tabs, search, suggestions: blocks and suspensions.
    Anywhere,
    /// The Friends and For You feeds and notifications: mutes too, unexpired at `now` (SQL: a
    /// parameter or a number).
    Feeds { now: &'a str },
}

/// SQL true when the member `author` is hidden from `viewer` in `scope` (each an SQL
/// expression: a column or a parameter such as `$1`).
pub fn hidden(scope: Scope<'_>, viewer: &str, author: &str) -> String {
    let mut sql = format!(
        "({} OR EXISTS (SELECT 1 FROM users hs WHERE hs.id = {author} AND hs.suspended_until IS NOT NULL)",
        blocked_between(viewer, author)
    );
    if let Scope::Feeds { now } = scope {
        sql.push_str(&format!(
            " OR EXISTS (SELECT 1 FROM mutes hm WHERE hm.muter_id = {viewer} AND hm.muted_id = {author} \
             AND (hm.expires_at IS NULL OR hm.expires_at > {now}))"
        ));
    }
    sql.push(')');
    sql
}

/// SQL true when the post `post` (an alias of `posts`) is hidden from `viewer` in `scope`: its
/// author is, or, for a repost, the original's author is.
pub fn post_hidden(scope: Scope<'_>, viewer: &str, post: &str) -> String {
    format!("({} OR {})", hidden(scope, viewer, &format!("{post}.author_id")), original_hidden(scope, viewer, post))
}

/// SQL true when a post whose author is `author` (and, for a repost, whose original's author is
/// `original_author`, else NULL) is hidden from `viewer` in `scope`: for lists that keep the
/// authors beside the post's id (`feeds::timeline`).
pub fn written_hidden(scope: Scope<'_>, viewer: &str, author: &str, original_author: &str) -> String {
    format!(
        "({} OR ({original_author} IS NOT NULL AND {}))",
        hidden(scope, viewer, author),
        hidden(scope, viewer, original_author)
    )
}

/// SQL true when `post` is a repost whose original's author is hidden from `viewer`: for lists
/// that already left out hidden authors (so a muted member's posts are never walked one by one).
pub fn original_hidden(scope: Scope<'_>, viewer: &str, post: &str) -> String {
    format!(
        "({post}.repost_of_id IS NOT NULL AND EXISTS ( \
             SELECT 1 FROM posts ho WHERE ho.id = {post}.repost_of_id AND {}))",
        hidden(scope, viewer, "ho.author_id")
    )
}

/// SQL true when either of the members `a` and `b` (SQL expressions) blocked the other.
pub fn blocked_between(a: &str, b: &str) -> String {
    format!(
        "(EXISTS (SELECT 1 FROM blocks hb WHERE hb.blocker_id = {a} AND hb.blocked_id = {b}) \
         OR EXISTS (SELECT 1 FROM blocks hb WHERE hb.blocker_id = {b} AND hb.blocked_id = {a}))"
    )
}

/// Whether either member blocked the other.
async fn blocked_either_way(conn: &mut AnyConnection, a: i64, b: i64) -> Result<bool> {
    static SQL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("SELECT CASE WHEN {} THEN 1 ELSE 0 END", blocked_between("$1", "$2")));
    let blocked: i64 = sqlx::query_scalar(SQL.as_str()).bind(a).bind(b).fetch_one(conn).await?;
    Ok(blocked == 1)
}

/// The message a member gets when a block between them and another stops what they tried.
pub const CANNOT_INTERACT: &str = "You can't interact with this member";

/// Refuses (403) an interaction of `actor` with `other` (following, replying, liking,
/// reposting, voting) when either blocked the other. Every writer of an interaction calls it in
/// its transaction.
pub async fn ensure_can_interact(conn: &mut AnyConnection, actor: i64, other: i64) -> Result<()> {
    if actor != other && blocked_either_way(conn, actor, other).await? {
        return Err(Error::forbidden(CANNOT_INTERACT));
    }
    Ok(())
}
