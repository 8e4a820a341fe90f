//! What a live event about notifications says: the member's unread count. The notifications
//! list (`notifications::store::list`) shows exactly what it counts (`shown`).

use std::sync::LazyLock;

use murmur_core::clock::Millis;
use murmur_core::error::Result;
use sqlx::AnyPool;

use crate::visibility::{self, Scope};

/// Notifications from members hidden from the recipient (blocked either way, muted, suspended:
/// `visibility`) or about a post holding a word the recipient mutes (a reply, a mention:
/// `visibility::muted_post`, which never hides the recipient's own posts) are not shown or
/// counted; moderators' notices and the member's own (`notify_self`) always are. `$1` is the
/// recipient, `now` the time's placeholder.
pub fn shown(now: &'static str) -> String {
    format!(
        "(n.type = 'removed' OR n.actor_id = n.recipient_id OR NOT ({} OR (n.post_id <> 0 AND {})))",
        visibility::hidden(Scope::Feeds { now }, "$1", "n.actor_id"),
        visibility::muted_post("$1", "n.post_id", now)
    )
}

/// Unread notifications that `notifications::store::list` shows (index `notifications_unread_idx`).
pub async fn unread_count(pool: &AnyPool, recipient: i64, now: Millis) -> Result<i64> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications n \
             WHERE n.recipient_id = $1 AND n.read_at IS NULL AND {}",
            shown("$2")
        )
    });
    Ok(sqlx::query_scalar(SQL.as_str()).bind(recipient).bind(now).fetch_one(pool).await?)
}
