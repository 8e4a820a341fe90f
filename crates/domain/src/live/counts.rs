//! What a live event about notifications says: the member's unread count. The notifications
//! list (`notifications::store::list`) shows exactly what it counts (`shown`).

use std::sync::LazyLock;

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

use crate::visibility::{self, Scope};

/// Notifications from members hidden from the recipient (blocked either way, muted, suspended:
/// `visibility`) or about a post holding a word the recipient mutes (a reply, a mention:
/// `visibility::muted_post`, which never hides the recipient's own posts) are not shown or
/// counted; moderators' notices and the member's own (`notify_self`) always are. Likes and
/// reposts (`GROUPED`) are of the recipient's own posts (the original, never a repost), so
/// their posts are not read for muted words. `$1` is the recipient, `now` the time's
/// placeholder.
pub fn shown(now: &'static str) -> String {
    format!(
        "(n.type = 'removed' OR n.actor_id = n.recipient_id OR NOT ({} OR \
          (n.post_id <> 0 AND n.type NOT IN {GROUPED} AND {})))",
        visibility::hidden(Scope::Feeds { now }, "$1", "n.actor_id"),
        visibility::muted_post("$1", "n.post_id", now)
    )
}

/// The kinds whose notifications about one post are one group ("Ada and 4 others liked your
/// post"), as an SQL list of their stored types.
pub const GROUPED: &str = "('like', 'repost')";

/// SQL true when the notification `n` has a newer one in its group that is shown, and, with
/// `unread_only`, unread: then `n` is not its group's head. `$1` is the recipient, `now` the
/// time's placeholder (index `notifications_group_idx`).
pub fn newer_in_group(now: &'static str, unread_only: bool) -> String {
    format!(
        "(n.type IN {GROUPED} AND EXISTS (SELECT 1 FROM notifications g WHERE g.recipient_id = $1 \
          AND g.type = n.type AND g.post_id = n.post_id AND g.id > n.id{} AND NOT {}))",
        if unread_only { " AND g.read_at IS NULL" } else { "" },
        visibility::hidden(Scope::Feeds { now }, "$1", "g.actor_id")
    )
}

/// Unread notifications that `notifications::store::list_grouped` shows, a group counted once
/// (index `notifications_unread_idx`).
pub async fn unread_count(pool: &Pool, recipient: i64, now: Millis) -> Result<i64> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications n \
             WHERE n.recipient_id = $1 AND n.read_at IS NULL AND {} AND NOT {}",
            shown("$2"),
            newer_in_group("$2", true)
        )
    });
    Ok(sqlx::query_scalar(SQL.as_str()).bind(recipient).bind(now).fetch_one(pool).await?)
}
