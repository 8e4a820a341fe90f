//! Notifications: made by the server inside the transaction of their cause (follow, like,
//! repost, reply, mention, a moderators' removal, a data archive ready), listed and marked read
//! by their recipient.

pub(crate) mod store;

pub use store::{Kind, Kinds, notify, notify_self, withdraw};

use sqlx::Connection;

use crate::apps::markers::{self, Marker};
use murmur_core::clock::Millis;
use murmur_core::db::{Db, PoolConnection};
use murmur_core::error::Result;
use murmur_core::rate_limit::{self, MemberLimit};
pub use store::{
    Actor, Entry, NO_POST, NotificationRow, clear, dismiss, entries, list, list_grouped, mark_all_read, mark_read,
};

const READ_TOO_FAST: &str = "You are marking notifications read too fast. Please wait a minute.";

/// The writer for changing `member`'s notifications (marking read, dismissing), once their
/// rate limit allows it.
pub async fn writer(db: &Db, member: i64, now: Millis) -> Result<PoolConnection> {
    rate_limit::count_member_then_take_writer(db, MemberLimit::NotificationsRead, member, now, READ_TOO_FAST).await
}

/// The member has seen their notifications up to `last_seen` (an id): the newest their
/// Notifications screen showed them, or where an app set its notifications marker. Both mean
/// the same, one rule: those notifications are read (the unread badge and the tab's title count
/// none of them), and the marker every app of theirs reads is there.
pub async fn mark_seen(db: &Db, member: i64, last_seen: i64, now: Millis) -> Result<Marker> {
    let mut writer = writer(db, member, now).await?;
    let mut tx = writer.begin().await?;
    store::mark_read_up_to(&mut tx, member, last_seen, now).await?;
    let marker = markers::put(&mut tx, member, markers::NOTIFICATIONS, last_seen, now).await?;
    tx.commit().await?;
    Ok(marker)
}
