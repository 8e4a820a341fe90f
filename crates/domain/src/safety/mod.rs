//! Members' safety from each other: blocks and mutes (`store`), muted words (`muted_words`).
//! The one rule every list and every interaction follows about them and about suspensions is
//! `crate::visibility`.
//! Reports and moderators' actions are in `moderation`; docs/safety.md has the rules as a table.
//! Names and text that cannot deceive (every writer of members' text calls it) are `murmur_core::text`.

pub mod muted_words;
pub(crate) mod store;

use murmur_core::clock::{HOUR, Millis, SECOND};
use murmur_core::db::{Db, PoolConnection};
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, MemberLimit};
pub use store::{Listed, blocked_by, muted_by, standing, unblock, unmute};

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

/// How long a mute lasts, in hours: one of these, or until the member unmutes.
pub const MUTE_HOURS: [i64; 3] = [1, 24, 168];
/// What a member is told when they ask for another length.
pub const MUTE_LENGTHS: &str = "A mute lasts 1 hour, 1 day or 1 week, or until you unmute";

/// How long a mute lasts: one of `MUTE_HOURS`, or until unmuted. Both interfaces read it here,
/// so a mute is the same length however it was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuteLength(Option<i64>);

impl MuteLength {
    /// From hours (Murmur's API); None: until unmuted.
    pub fn from_hours(hours: Option<i64>) -> Result<MuteLength> {
        match hours {
            Some(hours) if !MUTE_HOURS.contains(&hours) => Err(Error::bad_request(MUTE_LENGTHS)),
            hours => Ok(MuteLength(hours)),
        }
    }

    /// From seconds (Mastodon's API); None or 0: until unmuted.
    pub fn from_seconds(seconds: Option<i64>) -> Result<MuteLength> {
        match seconds {
            None | Some(0) => Ok(MuteLength(None)),
            // Divided, not multiplied: an app may send any number.
            Some(seconds) if seconds % (HOUR / SECOND) == 0 => MuteLength::from_hours(Some(seconds / (HOUR / SECOND))),
            Some(_) => Err(Error::bad_request(MUTE_LENGTHS)),
        }
    }

    /// When a mute made at `now` ends; None: it does not.
    pub fn ends(self, now: Millis) -> Option<Millis> {
        self.0.map(|hours| now + hours * HOUR)
    }
}

/// A member mutes another for `length`, whichever interface asks; answers when it ends.
pub async fn mute(db: &Db, muter: i64, muted: i64, now: Millis, length: MuteLength) -> Result<Option<Millis>> {
    let mut writer = writer(db, muter, now).await?;
    let expires_at = length.ends(now);
    store::mute(&mut writer, muter, muted, now, expires_at).await?;
    Ok(expires_at)
}
