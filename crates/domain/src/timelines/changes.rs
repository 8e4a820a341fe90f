//! The rule every write follows when it can change how a member's own Friends page looks (a
//! post, reply, repost, like, bookmark, vote, post edit, deletion, follow, unfollow, profile or
//! avatar edit): in its own transaction it adds one to the member's `users.feed_version`, which
//! tells their kept pages in every process that they are stale (`cache`, docs/feeds.md
//! "Answered pages kept in the process").
//!
//! On PostgreSQL that update also takes the member's `users` row lock, so it comes first in
//! the transaction, before any post's row: with one order a member's writes (a like and a
//! repost of the same post) never wait on each other in a circle, and posting, deleting and
//! following one author never interleave (the races in `timeline`'s comment).
//!
//! A write with a transaction of its own calls `member_changed` first; only what that answers
//! can put a post into the timelines (`MemberWrite::published`). A statement that already
//! updates the member's row (a follow's counters, a profile edit) folds `FEED_CHANGED` into its
//! `SET` instead of paying a statement more.

use sqlx::AnyConnection;

use crate::timelines::{self as timeline, FanOutQueue};
use murmur_core::error::Result;

/// The `SET` fragment that marks a member's feed changed, for an `UPDATE users … WHERE id = …`
/// of that member that does other work too.
pub const FEED_CHANGED: &str = "feed_version = feed_version + 1";

/// A write of `member`'s holding their row lock, in the transaction `member_changed` ran in.
pub struct MemberWrite {
    member: i64,
    /// As of the lock, which a post's fan-out needs: one statement fewer per post.
    followers: i64,
}

/// This member's feed changed: marks their kept pages stale and takes their row lock. Call it
/// first in the transaction, before any post's row is touched.
pub async fn member_changed(conn: &mut AnyConnection, member: i64) -> Result<MemberWrite> {
    static SQL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("UPDATE users SET {FEED_CHANGED} WHERE id = $1 RETURNING follower_count"));
    let followers: Option<i64> = sqlx::query_scalar(SQL.as_str()).bind(member).fetch_optional(conn).await?;
    // No such member: nobody follows them.
    Ok(MemberWrite { member, followers: followers.unwrap_or(0) })
}

impl MemberWrite {
    /// The member published a post or repost: it goes into their and their followers' home
    /// timelines (`timeline::fan_out`). Run what it answers after commit.
    pub async fn published(&self, conn: &mut AnyConnection, post_id: i64) -> Result<AfterCommit> {
        let queued = timeline::fan_out(conn, self.member, self.followers, post_id).await?;
        crate::live::note(crate::live::Change::Published { author: self.member, post: post_id });
        Ok(AfterCommit { wake_fan_out: queued })
    }

    /// The member's new post has tags (written already, `posts::tags::tag_post`): it also goes
    /// to the timelines of its tags' followers (`timeline::fan_out_to_tags`), after `published`.
    /// Run what it answers after commit.
    pub async fn tagged(&self, conn: &mut AnyConnection, post_id: i64) -> Result<AfterCommit> {
        let queued = timeline::fan_out_to_tags(conn, self.member, post_id).await?;
        Ok(AfterCommit { wake_fan_out: queued })
    }

    /// The member's post was deleted: it leaves every home timeline (a repost deleted for good
    /// leaves them through the foreign key).
    pub async fn removed(&self, conn: &mut AnyConnection, post_id: i64) -> Result<()> {
        timeline::remove_post(conn, post_id).await
    }
}

/// What a published post still needs once its transaction committed.
#[must_use]
pub struct AfterCommit {
    /// The post was queued for followers past the first chunk (`timeline::fan_out`).
    wake_fan_out: bool,
}

impl AfterCommit {
    /// Both of what two parts of one write need after commit.
    pub fn and(self, other: AfterCommit) -> AfterCommit {
        AfterCommit { wake_fan_out: self.wake_fan_out || other.wake_fan_out }
    }

    pub fn run(self, fan_out: &FanOutQueue) {
        if self.wake_fan_out {
            fan_out.wake();
        }
    }
}
