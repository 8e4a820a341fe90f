//! Followed tags: a member follows a hashtag, and new posts using it, from anyone they see,
//! reach their Friends feed marked with it (the post's fan-out: `timelines::fan_out_to_tags`;
//! docs/feeds.md, "Followed tags"). Following brings no older posts; unfollowing takes the
//! posts it brought out of the timeline.

use serde::Serialize;
use sqlx::{Acquire, AnyConnection};
use utoipa::ToSchema;

use super::tag_name;
use crate::posts::entities::tag_key;
use crate::timelines::{self, changes};
use murmur_core::clock::{Millis, to_rfc3339};
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, MemberLimit};

/// Tags one member may follow at once: bounds the Settings list and the feed's marks.
pub const MAX_FOLLOWED_TAGS: i64 = 100;

/// A tag the member follows.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowedTag {
    /// As first written on this instance.
    pub name: String,
    /// RFC 3339: when the member followed it.
    pub followed_at: String,
}

impl FollowedTag {
    fn from_row((name, at): (String, Millis)) -> FollowedTag {
        FollowedTag { name, followed_at: to_rfc3339(at) }
    }
}

/// The tags `member` follows, by name (at most `MAX_FOLLOWED_TAGS`: no paging).
pub async fn list(db: &Db, member: i64) -> Result<Vec<FollowedTag>> {
    let rows: Vec<(String, Millis)> = sqlx::query_as(
        "SELECT t.name, f.created_at FROM followed_tags f JOIN tags t ON t.id = f.tag_id \
         WHERE f.member_id = $1 ORDER BY t.key",
    )
    .bind(member)
    .fetch_all(&db.read)
    .await?;
    Ok(rows.into_iter().map(FollowedTag::from_row).collect())
}

/// Whether `member` follows the tag with key `key`.
pub async fn is_following(db: &Db, member: i64, key: &str) -> Result<bool> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM followed_tags f JOIN tags t ON t.id = f.tag_id WHERE f.member_id = $1 AND t.key = $2",
    )
    .bind(member)
    .bind(key)
    .fetch_optional(&db.read)
    .await?;
    Ok(found.is_some())
}

/// `member` follows the tag named `raw` (without `#`, or with it; any case), made if no post
/// used it yet. Following a tag already followed changes nothing. Answers the tag as followed.
/// Counted with follows (`MemberLimit::Follow`).
pub async fn follow(db: &Db, member: i64, raw: &str, now: Millis) -> Result<FollowedTag> {
    let name = tag_name(raw)?;
    let key = tag_key(name);
    let message = "You are following too fast. Please wait a minute.";
    let mut writer = rate_limit::count_member_then_take_writer(db, MemberLimit::Follow, member, now, message).await?;
    let mut tx = writer.begin().await?;
    // The member's kept Friends pages go (a followed tag changes what reaches them), and their
    // row lock orders two follows of theirs, so the bound below holds on PostgreSQL too.
    changes::member_changed(&mut tx, member).await?;
    let tag = tag_id(&mut tx, &key, name, now).await?;
    let followed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM followed_tags WHERE member_id = $1 AND tag_id <> $2")
        .bind(member)
        .bind(tag)
        .fetch_one(&mut *tx)
        .await?;
    if followed >= MAX_FOLLOWED_TAGS {
        return Err(Error::conflict(format!(
            "You can follow at most {MAX_FOLLOWED_TAGS} tags: unfollow one in Settings first"
        )));
    }
    sqlx::query(
        "INSERT INTO followed_tags (member_id, tag_id, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (member_id, tag_id) DO NOTHING",
    )
    .bind(member)
    .bind(tag)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let followed: (String, Millis) = sqlx::query_as(
        "SELECT t.name, f.created_at FROM followed_tags f JOIN tags t ON t.id = f.tag_id \
         WHERE f.member_id = $1 AND f.tag_id = $2",
    )
    .bind(member)
    .bind(tag)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(FollowedTag::from_row(followed))
}

/// `member` stops following the tag named `raw`: the posts it brought leave their Friends feed
/// (`timelines::tag_unfollowed`). Not following it is no error (the outcome is the same).
pub async fn unfollow(db: &Db, member: i64, raw: &str) -> Result<()> {
    let key = tag_key(tag_name(raw)?);
    let mut tx = db.write.begin().await?;
    changes::member_changed(&mut tx, member).await?;
    let tag: Option<i64> = sqlx::query_scalar(
        "DELETE FROM followed_tags WHERE member_id = $1 AND tag_id = (SELECT id FROM tags WHERE key = $2) \
         RETURNING tag_id",
    )
    .bind(member)
    .bind(&key)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(tag) = tag {
        timelines::tag_unfollowed(&mut tx, member, tag).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The id of the tag with key `key`, made with `name` if no post used it yet.
async fn tag_id(conn: &mut AnyConnection, key: &str, name: &str, now: Millis) -> Result<i64> {
    sqlx::query("INSERT INTO tags (key, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING")
        .bind(key)
        .bind(name)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(sqlx::query_scalar("SELECT id FROM tags WHERE key = $1").bind(key).fetch_one(conn).await?)
}
