//! A post's hashtags, written in the post's own transaction: tag pages and Trending
//! (`discovery`) read them.

use sqlx::AnyConnection;

use crate::posts::entities::Hashtag;
use murmur_core::clock::Millis;
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::error::Result;

/// Records that post `post_id` by `author` uses `tags` (each tag made on first use, named as
/// first written). Every writer of a post's text calls it in the post's transaction.
pub async fn tag_post(
    conn: &mut AnyConnection,
    post_id: i64,
    author: i64,
    tags: &[Hashtag],
    now: Millis,
) -> Result<()> {
    if tags.is_empty() {
        return Ok(());
    }
    // The values are (key, name) pairs: one statement whatever the number of tags.
    let values: Vec<String> =
        (0..tags.len()).map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3)).collect();
    let sql =
        format!("INSERT INTO tags (key, name, created_at) VALUES {} ON CONFLICT (key) DO NOTHING", values.join(", "));
    let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
    for tag in tags {
        insert = insert.bind(tag.key.as_str()).bind(tag.name.as_str()).bind(now);
    }
    insert.execute(&mut *conn).await?;
    let keys: Vec<&str> = tags.iter().map(|t| t.key.as_str()).collect();
    let sql = format!(
        "INSERT INTO post_tags (tag_id, post_id, author_id, created_at) \
         SELECT id, $1, $2, $3 FROM tags WHERE key IN ({})",
        in_list(4, keys.len())
    );
    let mut link = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(post_id).bind(author).bind(now);
    for key in padded_values(&keys) {
        link = link.bind(key);
    }
    link.execute(&mut *conn).await?;
    Ok(())
}

/// Takes post `post_id` off its tags' pages and counts (deleted or removed).
pub async fn untag_post(conn: &mut AnyConnection, post_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM post_tags WHERE post_id = $1").bind(post_id).execute(conn).await?;
    Ok(())
}
