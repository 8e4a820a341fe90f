//! Queries about uploads (the `media` table).

use sqlx::{Any, Executor};

use super::images::CleanImage;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

/// An upload as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MediaRow {
    pub owner_id: i64,
    pub status: String,
    pub content_type: Option<String>,
}

impl MediaRow {
    pub fn is_ready(&self) -> bool {
        self.status == "ready"
    }
}

pub async fn insert_pending(pool: &Pool, id: &str, owner_id: i64, now: Millis) -> Result<()> {
    sqlx::query("INSERT INTO media (id, owner_id, created_at, status) VALUES ($1, $2, $3, 'pending')")
        .bind(id)
        .bind(owner_id)
        .bind(now)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn find<'c, E>(executor: E, id: &str) -> Result<Option<MediaRow>>
where
    E: Executor<'c, Database = Any>,
{
    Ok(sqlx::query_as("SELECT owner_id, status, content_type FROM media WHERE id = $1")
        .bind(id)
        .fetch_optional(executor)
        .await?)
}

/// Records a checked image; false when the upload was not pending any more (a concurrent
/// upload won, or it was cleaned up).
pub async fn mark_ready<'c, E>(executor: E, id: &str, image: &CleanImage) -> Result<bool>
where
    E: Executor<'c, Database = Any>,
{
    let done = sqlx::query(
        "UPDATE media SET status = 'ready', content_type = $2, byte_size = $3, width = $4, height = $5 \
         WHERE id = $1 AND status = 'pending'",
    )
    .bind(id)
    .bind(image.content_type)
    .bind(image.bytes.len() as i64)
    .bind(i64::from(image.width))
    .bind(i64::from(image.height))
    .execute(executor)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that an upload was just claimed by a post or profile. The orphan cleanup keeps an
/// upload claimed within `ORPHAN_AGE` even before the reference to it commits (on PostgreSQL
/// this update's row lock makes a concurrent cleanup re-check `attached_at` and back off).
pub async fn attach<'c, E>(executor: E, id: &str, now: Millis) -> Result<()>
where
    E: Executor<'c, Database = Any>,
{
    sqlx::query("UPDATE media SET attached_at = $2 WHERE id = $1").bind(id).bind(now).execute(executor).await?;
    Ok(())
}

/// An orphan: an upload older than the cut-off (`$1`), not claimed since, that nothing refers
/// to any more: no post's image (deleting a post removes its `post_images` rows), no earlier
/// version's (`post_edit_images`, gone with the post's history) and no member's avatar or
/// header (kept as `/objects/{id}`; a replaced one is referred to no more).
macro_rules! orphan_condition {
    () => {
        "media.created_at < $1 AND (media.attached_at IS NULL OR media.attached_at < $1) \
         AND NOT EXISTS (SELECT 1 FROM post_images WHERE post_images.media_id = media.id) \
         AND NOT EXISTS (SELECT 1 FROM post_edit_images WHERE post_edit_images.media_id = media.id) \
         AND media.id NOT IN (SELECT substr(profile_image_url, 10) FROM users WHERE profile_image_url LIKE '/objects/%') \
         AND media.id NOT IN (SELECT substr(header_image_url, 10) FROM users WHERE header_image_url LIKE '/objects/%')"
    };
}

/// Orphaned uploads made before `before`, oldest first.
pub async fn orphans(pool: &Pool, before: Millis, limit: i64) -> Result<Vec<String>> {
    const SQL: &str = concat!("SELECT id FROM media WHERE ", orphan_condition!(), " ORDER BY created_at LIMIT $2");
    Ok(sqlx::query_scalar(SQL).bind(before).bind(limit).fetch_all(pool).await?)
}

/// Deletes an orphan's row unless it was claimed or referred to meanwhile; true when deleted.
pub async fn delete_orphan(pool: &Pool, id: &str, before: Millis) -> Result<bool> {
    const SQL: &str = concat!("DELETE FROM media WHERE ", orphan_condition!(), " AND media.id = $2");
    let done = sqlx::query(SQL).bind(before).bind(id).execute(pool).await?;
    Ok(done.rows_affected() == 1)
}

/// Sets the description of one of `owner`'s images; false when it is not theirs.
pub async fn set_description(pool: &Pool, owner: i64, id: &str, description: Option<&str>) -> Result<bool> {
    let done = sqlx::query("UPDATE media SET description = $1 WHERE id = $2 AND owner_id = $3")
        .bind(description)
        .bind(id)
        .bind(owner)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// One of `owner`'s images: whether it is ready, its description and size.
#[derive(Debug, sqlx::FromRow)]
pub struct OwnImage {
    pub status: String,
    pub description: Option<String>,
    pub width: Option<i64>,
    pub height: Option<i64>,
}

/// Image `id` if it is `owner`'s.
pub async fn own_image(pool: &Pool, owner: i64, id: &str) -> Result<Option<OwnImage>> {
    Ok(sqlx::query_as("SELECT status, description, width, height FROM media WHERE id = $1 AND owner_id = $2")
        .bind(id)
        .bind(owner)
        .fetch_optional(pool)
        .await?)
}
