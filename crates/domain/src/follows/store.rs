//! Follow queries. A follow and both members' counters change in one transaction, and only
//! when the follow row really appeared or disappeared, so followerCount and followingCount
//! stay exact under concurrent requests.

use std::sync::LazyLock;

use sqlx::AnyConnection;

use crate::timelines;
use crate::timelines::changes::FEED_CHANGED;
use crate::users::store as users;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

/// What a follow did.
#[derive(Debug, PartialEq, Eq)]
pub enum Followed {
    /// The follow is new (and counted).
    New,
    /// The member was already followed.
    Already,
    /// There is no such member (or they deleted their account).
    NoMember,
}

pub async fn follow(conn: &mut AnyConnection, follower: i64, following: i64, now: Millis) -> Result<Followed> {
    // The insert reads the followed member's row itself, so the usual follow (a new one of an
    // existing member) needs no statement to ask whether they exist: only a follow that
    // inserted nothing asks, to tell "already" from "no such member".
    let done = sqlx::query(
        "INSERT INTO follows (follower_id, following_id, created_at) \
         SELECT $1, id, $3 FROM users WHERE id = $2 AND deleted_at IS NULL ON CONFLICT DO NOTHING",
    )
    .bind(follower)
    .bind(following)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(if users::exists(conn, following).await? { Followed::Already } else { Followed::NoMember });
    }
    // The counter updates took the followed member's row lock (see timelines), so the
    // copy reads after any post or deletion of theirs; the follower's raised their floor and
    // marked their feed changed (`timelines::changes`), in the same statement.
    static FOLLOWED: LazyLock<String> = LazyLock::new(|| {
        format!(
            "UPDATE users SET following_count = following_count + 1, {FEED_CHANGED}, \
             home_floor = {} WHERE id = $1",
            timelines::floor_after_following("$2")
        )
    });
    in_id_order(
        conn,
        [
            (follower, sqlx::query(FOLLOWED.as_str()).bind(follower).bind(following)),
            (following, sqlx::query(FOLLOWERS).bind(1).bind(following)),
        ],
    )
    .await?;
    // Both members' rows are locked now, as a block takes them before it writes: a block made
    // meanwhile is seen here, and one made later removes this follow.
    crate::visibility::ensure_can_interact(conn, follower, following).await?;
    timelines::followed(conn, follower, following).await?;
    Ok(Followed::New)
}

/// True when there was a follow to remove (and it was uncounted).
pub async fn unfollow(conn: &mut AnyConnection, follower: i64, following: i64) -> Result<bool> {
    let done = sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND following_id = $2")
        .bind(follower)
        .bind(following)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    in_id_order(
        conn,
        [
            (follower, sqlx::query(UNFOLLOWED.as_str()).bind(follower)),
            (following, sqlx::query(FOLLOWERS).bind(-1).bind(following)),
        ],
    )
    .await?;
    timelines::unfollowed(conn, follower, following).await?;
    // A list holds only people its owner follows (`lists`).
    crate::lists::unfollowed(conn, follower, following).await?;
    Ok(true)
}

// The follower's Friends page changes (posts taken out): `timelines::changes`.
static UNFOLLOWED: LazyLock<String> =
    LazyLock::new(|| format!("UPDATE users SET following_count = following_count - 1, {FEED_CHANGED} WHERE id = $1"));
const FOLLOWERS: &str = "UPDATE users SET follower_count = follower_count + $1 WHERE id = $2";

/// Runs the two members' counter updates, the lower id's first: two members following each
/// other at the same moment then lock the two user rows in the same order (PostgreSQL), so
/// neither waits for the other forever.
async fn in_id_order(
    conn: &mut AnyConnection,
    mut updates: [(i64, sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments>); 2],
) -> Result<()> {
    updates.sort_by_key(|(id, _)| *id);
    for (_, update) in updates {
        update.execute(&mut *conn).await?;
    }
    Ok(())
}

pub async fn is_following(pool: &Pool, follower: i64, following: i64) -> Result<bool> {
    let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2")
        .bind(follower)
        .bind(following)
        .fetch_optional(pool)
        .await?;
    Ok(found.is_some())
}
