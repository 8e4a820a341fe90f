//! The SQL of hashtags and Trending.

use std::sync::LazyLock;

use crate::posts::hydrate::Selection;
use crate::visibility;
use crate::visibility::Scope;
use murmur_core::clock::{DAY, Millis};
use murmur_core::db::Pool;
use murmur_core::error::Result;
use murmur_core::page::Page;

/// A tag page's counts cover this long.
pub const WEEK: Millis = 7 * DAY;

/// A tag as stored: its id and its name as first written.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TagRow {
    pub id: i64,
    pub name: String,
}

/// The tag whose key is `key`, if any post ever used it.
pub async fn tag(pool: &Pool, key: &str) -> Result<Option<TagRow>> {
    Ok(sqlx::query_as("SELECT id, name FROM tags WHERE key = $1").bind(key).fetch_optional(pool).await?)
}

/// Posts using the tag and distinct members using it since `since` (from the index alone).
pub async fn tag_counts(pool: &Pool, tag_id: i64, since: Millis) -> Result<(i64, i64)> {
    Ok(sqlx::query_as(
        "SELECT COUNT(*), COUNT(DISTINCT author_id) FROM post_tags WHERE tag_id = $1 AND created_at >= $2",
    )
    .bind(tag_id)
    .bind(since)
    .fetch_one(pool)
    .await?)
}

/// The live posts using tag `tag_id` that the viewer (`$1`) may see, newest first: the primary
/// key walked down, blocks, mutes, suspensions and muted words left out before the page is cut.
pub fn tag_page(tag_id: i64, page: Page, now: Millis) -> Selection {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT pt.post_id, -pt.post_id FROM post_tags pt \
             WHERE pt.tag_id = $2 AND pt.post_id < $6 AND pt.post_id > $7 AND NOT {} AND NOT {} \
             ORDER BY pt.post_id DESC LIMIT $4 OFFSET $5",
            visibility::hidden(Scope::Feeds { now: "$3" }, "$1", "pt.author_id"),
            visibility::muted_post("$1", "pt.post_id", "$3")
        )
    });
    Selection::new(SQL.as_str(), vec![tag_id, now, page.limit, page.offset, page.below, page.above])
}

/// One entry of Trending as last computed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TrendingRow {
    pub name: String,
    pub people_count: i64,
    pub post_count: i64,
}

/// The first `limit` of Trending.
pub async fn trending(pool: &Pool, limit: i64) -> Result<Vec<TrendingRow>> {
    Ok(sqlx::query_as(
        "SELECT t.name, tt.people_count, tt.post_count FROM trending_tags tt JOIN tags t ON t.id = tt.tag_id \
         ORDER BY tt.rank LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await?)
}
