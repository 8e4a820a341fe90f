//! Blocks and mutes as stored, each write in a transaction of its own. A block and everything
//! it undoes (follows both ways, with their counters, timelines and notifications) happen in
//! one transaction.

use sqlx::{AnyConnection, Connection};

use crate::follows::store as follows;
use crate::timelines::changes::member_changed;
use crate::user_columns;
use crate::users::UserRow;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;

/// A member and when the listing member blocked or muted them.
#[derive(sqlx::FromRow)]
pub struct Listed {
    #[sqlx(flatten)]
    pub user: UserRow,
    pub listed_at: Millis,
    pub expires_at: Option<Millis>,
}

async fn ensure_member(conn: &mut AnyConnection, id: i64) -> Result<()> {
    if crate::users::store::exists(conn, id).await? { Ok(()) } else { Err(Error::not_found("User not found")) }
}

/// Both members' feeds change, their rows locked in id order (the order follows use), so two
/// members blocking each other at once never wait on each other in a circle.
async fn both_changed(conn: &mut AnyConnection, a: i64, b: i64) -> Result<()> {
    member_changed(conn, a.min(b)).await?;
    member_changed(conn, a.max(b)).await?;
    Ok(())
}

/// `blocker` blocks `blocked`: follows between them end (counted), their posts leave each
/// other's timelines, and notifications between them are deleted. Blocking again changes
/// nothing. Answers when the block was made.
pub async fn block(writer: &mut AnyConnection, blocker: i64, blocked: i64, now: Millis) -> Result<Millis> {
    let mut tx = writer.begin().await?;
    let made = block_in(&mut tx, blocker, blocked, now).await?;
    tx.commit().await?;
    Ok(made)
}

async fn block_in(conn: &mut AnyConnection, blocker: i64, blocked: i64, now: Millis) -> Result<Millis> {
    if blocker == blocked {
        return Err(Error::bad_request("You can't block yourself"));
    }
    ensure_member(conn, blocked).await?;
    both_changed(conn, blocker, blocked).await?;
    let made: Option<Millis> = sqlx::query_scalar(
        "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT DO NOTHING RETURNING created_at",
    )
    .bind(blocker)
    .bind(blocked)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(made) = made else {
        let since: Millis =
            sqlx::query_scalar("SELECT created_at FROM blocks WHERE blocker_id = $1 AND blocked_id = $2")
                .bind(blocker)
                .bind(blocked)
                .fetch_one(&mut *conn)
                .await?;
        return Ok(since);
    };
    follows::unfollow(conn, blocker, blocked).await?;
    follows::unfollow(conn, blocked, blocker).await?;
    sqlx::query(
        "DELETE FROM notifications WHERE (recipient_id = $1 AND actor_id = $2) OR (recipient_id = $2 AND actor_id = $1)",
    )
    .bind(blocker)
    .bind(blocked)
    .execute(&mut *conn)
    .await?;
    Ok(made)
}

/// Ends a block; follows it ended stay ended.
pub async fn unblock(pool: &Pool, blocker: i64, blocked: i64) -> Result<()> {
    let mut tx = pool.begin().await?;
    both_changed(&mut tx, blocker, blocked).await?;
    sqlx::query("DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2")
        .bind(blocker)
        .bind(blocked)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// `muter` mutes `muted` until `expires_at` (None: until unmuted); muting again sets the end.
pub async fn mute(
    writer: &mut AnyConnection,
    muter: i64,
    muted: i64,
    now: Millis,
    expires_at: Option<Millis>,
) -> Result<()> {
    if muter == muted {
        return Err(Error::bad_request("You can't mute yourself"));
    }
    let mut tx = writer.begin().await?;
    ensure_member(&mut tx, muted).await?;
    member_changed(&mut tx, muter).await?;
    sqlx::query(
        "INSERT INTO mutes (muter_id, muted_id, created_at, expires_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (muter_id, muted_id) DO UPDATE SET created_at = excluded.created_at, expires_at = excluded.expires_at",
    )
    .bind(muter)
    .bind(muted)
    .bind(now)
    .bind(expires_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Ends a mute; not muting is fine too.
pub async fn unmute(pool: &Pool, muter: i64, muted: i64) -> Result<()> {
    let mut tx = pool.begin().await?;
    member_changed(&mut tx, muter).await?;
    sqlx::query("DELETE FROM mutes WHERE muter_id = $1 AND muted_id = $2")
        .bind(muter)
        .bind(muted)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// The members `blocker` blocked, newest block first.
pub async fn blocked_by(pool: &Pool, blocker: i64, page: Page) -> Result<Vec<Listed>> {
    const SQL: &str = concat!(
        "SELECT ",
        user_columns!(),
        ", listed_at, CAST(NULL AS BIGINT) AS expires_at FROM ( \
             SELECT blocked_id, created_at AS listed_at FROM blocks WHERE blocker_id = $1 \
             ORDER BY created_at DESC, blocked_id DESC LIMIT $2 OFFSET $3 \
         ) b JOIN users ON users.id = b.blocked_id ORDER BY listed_at DESC, id DESC"
    );
    Ok(sqlx::query_as(SQL).bind(blocker).bind(page.limit).bind(page.offset).fetch_all(pool).await?)
}

/// The members `muter` muted and whose mute has not ended at `now`, newest mute first.
pub async fn muted_by(pool: &Pool, muter: i64, page: Page, now: Millis) -> Result<Vec<Listed>> {
    const SQL: &str = concat!(
        "SELECT ",
        user_columns!(),
        ", listed_at, expires_at FROM ( \
             SELECT muted_id, created_at AS listed_at, expires_at FROM mutes \
             WHERE muter_id = $1 AND (expires_at IS NULL OR expires_at > $4) \
             ORDER BY created_at DESC, muted_id DESC LIMIT $2 OFFSET $3 \
         ) m JOIN users ON users.id = m.muted_id ORDER BY listed_at DESC, id DESC"
    );
    Ok(sqlx::query_as(SQL).bind(muter).bind(page.limit).bind(page.offset).bind(now).fetch_all(pool).await?)
}

/// How `viewer` and `other` stand: whether the viewer blocks them, is blocked by them, and
/// until when the viewer mutes them (`Some(None)`: until unmuted).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub blocking: bool,
    pub blocked_by: bool,
    pub muting: Option<Option<Millis>>,
}

/// Whether `author` is hidden from `viewer` everywhere (`visibility::Scope::Anywhere`): the one
/// answer both interfaces give for a member's profile, tabs and account. Never of oneself (a
/// suspended member still reads their own).
pub async fn is_hidden(pool: &Pool, viewer: i64, author: i64) -> Result<bool> {
    if viewer == author {
        return Ok(false);
    }
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT CASE WHEN {} THEN 1 ELSE 0 END",
            crate::visibility::hidden(crate::visibility::Scope::Anywhere, "$1", "$2")
        )
    });
    let hidden: i64 = sqlx::query_scalar(SQL.as_str()).bind(viewer).bind(author).fetch_one(pool).await?;
    Ok(hidden == 1)
}

pub async fn standing(pool: &Pool, viewer: i64, other: i64, now: Millis) -> Result<Standing> {
    if viewer == other {
        return Ok(Standing::default());
    }
    let (blocking, blocked_by, muting, until): (i64, i64, i64, Option<Millis>) = sqlx::query_as(
        "SELECT \
             (SELECT COUNT(*) FROM blocks WHERE blocker_id = $1 AND blocked_id = $2), \
             (SELECT COUNT(*) FROM blocks WHERE blocker_id = $2 AND blocked_id = $1), \
             (SELECT COUNT(*) FROM mutes WHERE muter_id = $1 AND muted_id = $2 AND (expires_at IS NULL OR expires_at > $3)), \
             (SELECT expires_at FROM mutes WHERE muter_id = $1 AND muted_id = $2)",
    )
    .bind(viewer)
    .bind(other)
    .bind(now)
    .fetch_one(pool)
    .await?;
    Ok(Standing { blocking: blocking > 0, blocked_by: blocked_by > 0, muting: (muting > 0).then_some(until) })
}
