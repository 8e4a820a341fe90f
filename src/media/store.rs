//! Queries about uploads (the `media` table).

use sqlx::{Any, AnyPool, Executor};

use super::images::CleanImage;
use crate::clock::Millis;
use crate::error::Result;

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

pub async fn insert_pending(pool: &AnyPool, id: &str, owner_id: i64, now: Millis) -> Result<()> {
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

/// Marks an upload as in use, so the orphan cleanup keeps it.
pub async fn attach<'c, E>(executor: E, id: &str, now: Millis) -> Result<()>
where
    E: Executor<'c, Database = Any>,
{
    sqlx::query("UPDATE media SET attached_at = COALESCE(attached_at, $2) WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(executor)
        .await?;
    Ok(())
}

/// Uploads made before `before` and never attached, oldest first.
pub async fn orphans(pool: &AnyPool, before: Millis, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM media WHERE attached_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2",
    )
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Deletes an orphan's row unless it was attached meanwhile; true when deleted.
pub async fn delete_orphan(pool: &AnyPool, id: &str, before: Millis) -> Result<bool> {
    let done = sqlx::query("DELETE FROM media WHERE id = $1 AND attached_at IS NULL AND created_at < $2")
        .bind(id)
        .bind(before)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() == 1)
}
