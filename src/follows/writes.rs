//! Every follow, whoever asks for it (the Follow button, a sign-up with a member's invite): the
//! row, both counters and the timeline copy (`store::follow`) and the followed member's
//! notification, together in the caller's transaction.

use sqlx::AnyConnection;

use super::store::{self, Followed};
use crate::clock::Millis;
use crate::error::Result;
use crate::notifications::{self, Kind, store::NO_POST};
use crate::safety::{Scope, visibility};

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
