//! Abuse limits as fixed-window counters in the database, so they hold across every server
//! process of an instance (nothing shared lives in one process's memory).

use crate::clock::{DAY, HOUR, MINUTE, Millis};
use crate::db::{Db, PoolConnection};
use crate::error::{Error, Result};

/// A limit: at most `max` events per `window` for one key.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub max: i64,
    pub window: Millis,
}

/// Declares the limits on one member's actions, each with its key's prefix and its allowance,
/// and `MemberLimit::ALL` from the same list, so nothing that must name every kind (the leaving
/// job) can miss one.
macro_rules! member_limits {
    ($($(#[$doc:meta])* $kind:ident = $prefix:literal, $max:expr, $window:expr;)*) => {
        /// A limit on one member's actions; its counts are kept under `<prefix>:<member id>`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum MemberLimit {
            $($(#[$doc])* $kind,)*
        }

        impl MemberLimit {
            /// Every kind: a member's counts are found (and removed when they leave) by these.
            pub const ALL: &[MemberLimit] = &[$(MemberLimit::$kind,)*];

            /// The key's prefix, also the kind's label in `/metrics`.
            pub const fn prefix(self) -> &'static str {
                match self {
                    $(MemberLimit::$kind => $prefix,)*
                }
            }

            pub const fn limit(self) -> Limit {
                match self {
                    $(MemberLimit::$kind => Limit { max: $max, window: $window },)*
                }
            }
        }
    };
}

member_limits! {
    /// Posts, replies and reposts.
    Post = "post", 30, MINUTE;
    Like = "like", 120, MINUTE;
    Edit = "edit", 30, MINUTE;
    Bookmark = "bookmark", 120, MINUTE;
    Follow = "follow", 60, MINUTE;
    /// Blocks and mutes together: enough for a member cleaning up after a wave of harassment.
    Safety = "safety", 60, MINUTE;
    /// Reports: enough for a person who meets a wave of spam; too few to bury the queue.
    Report = "report", 20, HOUR;
    MediaUpload = "media-upload", 30, MINUTE;
    InviteCodes = "invite:user", 10, MINUTE;
    /// Data archives asked for.
    Export = "export:user", 5, HOUR;
    /// E-mailed links to delete the account.
    DeletionLink = "account-delete", 3, HOUR;
    /// Notifications marked read, one or all: each tells the member's open tabs.
    NotificationsRead = "notifications-read", 120, MINUTE;
    /// Web Push subscriptions made or changed: a browser subscribes once per session.
    PushSubscribe = "push-subscribe", 20, HOUR;
    /// Passkeys begun to be added: a member adds one per device.
    Passkey = "passkey", 10, HOUR;
    /// Direct messages sent, in every conversation together.
    Message = "message", 60, MINUTE;
    /// New conversations started: enough for a member's friends, too few to spam strangers.
    Conversation = "conversation", 20, DAY;
    /// New conversations started by a member in their first day, counted besides `Conversation`.
    NewcomerConversation = "conversation:newcomer", 5, DAY;
}

impl MemberLimit {
    /// The key of `member`'s counts of this kind.
    pub fn key(self, member: i64) -> String {
        format!("{}:{member}", self.prefix())
    }
}

/// Counts one of `member`'s `kind` and refuses with 429 past its allowance (`hit`).
pub async fn hit_member(db: &Db, kind: MemberLimit, member: i64, now: Millis, message: &str) -> Result<()> {
    hit(db, &kind.key(member), kind.limit(), now, message).await
}

/// `count_then_take_writer` for one of `member`'s `kind`.
pub async fn count_member_then_take_writer(
    db: &Db,
    kind: MemberLimit,
    member: i64,
    now: Millis,
    message: &str,
) -> Result<PoolConnection> {
    count_then_take_writer(db, &kind.key(member), kind.limit(), now, message).await
}

/// Counts one event for `key` and refuses with 429 once the window's allowance is spent.
/// `message` is what the person reads.
pub async fn hit(db: &Db, key: &str, limit: Limit, now: Millis, message: &str) -> Result<()> {
    count_then_take_writer(db, key, limit, now, message).await.map(drop)
}

/// `hit`, on the writer's connection, which it then hands back for the write the event is
/// about (`sqlx::Connection::begin` on it). The count commits on its own first (behind a
/// pooler, with the writer's own transaction: `db::Pool`), so it stands whatever the write then
/// does, as with `hit`. Let the connection go before reading the
/// answer: on PostgreSQL a write request's reads come from the same few connections, and
/// requests that each held one while waiting for another would wait until the pool's timeout.
///
/// Why: every time a connection goes back to its pool sqlx spawns a task that pings it (one
/// more round trip), and on SQLite each acquisition of the one writer queues behind every other
/// write: a post's count and its transaction each waited for the writer longer than the
/// transaction held it (docs/performance.md, "One turn at the writer per write"). One
/// acquisition instead of two takes a count's round trip, a ping's and a queue's turn off
/// every like, follow and post.
pub async fn count_then_take_writer(
    db: &Db,
    key: &str,
    limit: Limit,
    now: Millis,
    message: &str,
) -> Result<PoolConnection> {
    let asked = std::time::Instant::now();
    let mut writer = db.write.acquire().await?;
    crate::metrics::writer_wait(asked.elapsed());
    let window_start = now - now.rem_euclid(limit.window);
    let count: i64 = sqlx::query_scalar(
        "INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1) \
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 \
         RETURNING count",
    )
    .bind(key)
    .bind(window_start)
    .fetch_one(&mut *writer)
    .await?;
    if count > limit.max {
        crate::metrics::rate_limit_refusal(key);
        let retry_after_ms = window_start + limit.window - now;
        return Err(Error::TooManyRequests {
            message: message.to_string(),
            retry_after_secs: (retry_after_ms.max(0) as u64).div_ceil(1000),
        });
    }
    Ok(writer)
}

/// Removes counters of windows that ended before `before` (called by the background task).
pub async fn prune(db: &Db, before: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM rate_limits WHERE window_start < $1").bind(before).execute(&db.write).await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::MemberLimit;

    #[test]
    fn every_member_limit_has_its_own_prefix() {
        let mut prefixes: Vec<&str> = MemberLimit::ALL.iter().map(|kind| kind.prefix()).collect();
        prefixes.sort_unstable();
        prefixes.dedup();
        assert_eq!(prefixes.len(), MemberLimit::ALL.len());
        assert_eq!(MemberLimit::InviteCodes.key(9), "invite:user:9");
    }
}
