//! Notifications: made by the server inside the transaction of their cause (follow, like,
//! repost, reply, mention, a moderators' removal, a data archive ready), listed and marked read
//! by their recipient.

pub mod store;

pub use store::{Kind, Kinds, notify, notify_self, withdraw};

use murmur_core::clock::Millis;
use murmur_core::db::{Db, PoolConnection};
use murmur_core::error::Result;
use murmur_core::rate_limit::{self, MemberLimit};

const READ_TOO_FAST: &str = "You are marking notifications read too fast. Please wait a minute.";

/// The writer for changing `member`'s notifications (marking read, dismissing), once their
/// rate limit allows it.
pub async fn writer(db: &Db, member: i64, now: Millis) -> Result<PoolConnection> {
    rate_limit::count_member_then_take_writer(db, MemberLimit::NotificationsRead, member, now, READ_TOO_FAST).await
}
