//! Follows and unfollows, whoever asks for them (the Follow button, a sign-up with a member's
//! invite): the row, both counters and the timeline copy (`store::follow`) and the followed
//! member's notification, together in one transaction.

use sqlx::{AnyConnection, Connection};

use super::store::{self, Followed};
use crate::notifications::{self, Kind, store::NO_POST};
use crate::visibility::{self, Scope};
use murmur_core::clock::Millis;
use murmur_core::db::{Db, Pool};
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, MemberLimit};

/// `member` follows `target`, in the caller's transaction; a new follow tells `target`.
pub async fn follow(conn: &mut AnyConnection, member: i64, target: i64, now: Millis) -> Result<Followed> {
    let followed = store::follow(&mut *conn, member, target, now).await?;
    if followed == Followed::New {
        notifications::notify(&mut *conn, target, member, Kind::Follow, NO_POST, now).await?;
    }
    Ok(followed)
}

/// A new member follows the member whose invite they used, as an ordinary follow they can undo;
/// not when the inviter is hidden from them (suspended, deleted, or a block either way), which
/// is no reason to refuse the sign-up. Call it in the sign-up's transaction.
pub async fn follow_inviter(conn: &mut AnyConnection, member: i64, inviter: i64, now: Millis) -> Result<()> {
    static HIDDEN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!("SELECT CASE WHEN {} THEN 1 ELSE 0 END", visibility::hidden(Scope::Anywhere, "$1", "$2"))
    });
    let hidden: i64 = sqlx::query_scalar(HIDDEN.as_str()).bind(member).bind(inviter).fetch_one(&mut *conn).await?;
    if hidden == 0 {
        follow(conn, member, inviter, now).await?;
    }
    Ok(())
}

/// The Follow button's write (and an app's): `member` follows `target` in a transaction of its
/// own, within their allowance of follows a minute; 404 when `target` is not a member (or has
/// left).
///
/// A follow copies the member's posts and reposts into the caller's timeline; a repost removed
/// meanwhile (its original deleted by another member, under that member's lock) fails the
/// copy's foreign key on PostgreSQL. The follow is then simply done again: the next copy no
/// longer sees that repost. Each failure waited for one such delete to commit, so only a run of
/// deletes racing this very follow needs several tries.
pub async fn follow_member(db: &Db, member: i64, target: i64, now: Millis) -> Result<()> {
    if target == member {
        return Err(Error::bad_request("You cannot follow yourself"));
    }
    let message = "You are following too fast. Please wait a minute.";
    let mut writer = rate_limit::count_member_then_take_writer(db, MemberLimit::Follow, member, now, message).await?;
    let mut attempts = 0;
    loop {
        attempts += 1;
        match follow_once(&mut writer, member, target, now).await {
            Err(Error::Database(e)) if attempts < MAX_FOLLOW_ATTEMPTS && timeline_copy_lost_a_post(&e) => continue,
            answer => return answer,
        }
    }
}

const MAX_FOLLOW_ATTEMPTS: u32 = 10;

async fn follow_once(writer: &mut AnyConnection, member: i64, target: i64, now: Millis) -> Result<()> {
    let mut tx = writer.begin().await?;
    if follow(&mut tx, member, target, now).await? == Followed::NoMember {
        return Err(Error::not_found("User not found"));
    }
    tx.commit().await?;
    Ok(())
}

/// The timeline copy named a post deleted before it committed (PostgreSQL names the key; SQLite
/// serializes writers and never gets here).
fn timeline_copy_lost_a_post(e: &sqlx::Error) -> bool {
    e.as_database_error().and_then(|db| db.constraint()).is_some_and(|name| name == "home_timeline_post_id_fkey")
}

/// `member` stops following `target`, and the follow's notification is withdrawn; not
/// following is fine too.
pub async fn unfollow(pool: &Pool, member: i64, target: i64) -> Result<()> {
    let mut tx = pool.begin().await?;
    if store::unfollow(&mut tx, member, target).await? {
        notifications::withdraw(&mut tx, target, member, Kind::Follow, NO_POST).await?;
    }
    tx.commit().await?;
    Ok(())
}
