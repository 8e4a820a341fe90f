//! Members' safety from each other: blocks and mutes (`store`), muted words (`muted_words`).
//! The one rule every list and every interaction follows about them and about suspensions is
//! `crate::visibility`.
//! Reports and moderators' actions are in `moderation`; docs/safety.md has the rules as a table.
//! Names and text that cannot deceive (every writer of members' text calls it) are `murmur_core::text`.

pub mod muted_words;
pub mod store;

use murmur_core::clock::Millis;
use murmur_core::db::{Db, PoolConnection};
use murmur_core::error::Result;
use murmur_core::rate_limit::{self, MemberLimit};

/// The writer for one of `member`'s blocks or mutes, counted against their allowance.
async fn writer(db: &Db, member: i64, now: Millis) -> Result<PoolConnection> {
    let message = "You are blocking or muting too fast. Please wait a minute.";
    rate_limit::count_member_then_take_writer(db, MemberLimit::Safety, member, now, message).await
}

/// A member blocks another, whichever interface asks (`store::block`); answers when the block
/// was made.
pub async fn block(db: &Db, blocker: i64, blocked: i64, now: Millis) -> Result<Millis> {
    let mut writer = writer(db, blocker, now).await?;
    store::block(&mut writer, blocker, blocked, now).await
}

/// A member mutes another until `expires_at` (None: until unmuted), whichever interface asks.
pub async fn mute(db: &Db, muter: i64, muted: i64, now: Millis, expires_at: Option<Millis>) -> Result<()> {
    let mut writer = writer(db, muter, now).await?;
    store::mute(&mut writer, muter, muted, now, expires_at).await
}
