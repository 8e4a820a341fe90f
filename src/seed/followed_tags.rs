//! The benchmark's followed tags: each session's member follows the network's most used tags
//! (`--followed-tags-per-session`), and their home timeline holds those tags' posts above its
//! floor, marked, as the posts' fan-out would have left them (`timelines::fan_out_to_tags`), so
//! the Friends feed is measured with followed tags in place (docs/feeds.md, "Followed tags").

use sqlx::Executor;

use murmur_core::clock::Millis;
use murmur_core::db::{Backend, Db};

use super::{BenchSession, Options};

/// Answers the followed-tag rows written.
pub(super) async fn follow_tags(
    db: &Db,
    options: &Options,
    sessions: &[BenchSession],
    now: Millis,
) -> anyhow::Result<u64> {
    if options.followed_tags_per_session == 0 {
        return Ok(0);
    }
    let mut conn = db.write.acquire().await?;
    conn.execute("BEGIN").await?;
    let mut written = 0;
    for session in sessions {
        written += sqlx::query(
            "INSERT INTO followed_tags (member_id, tag_id, created_at) \
             SELECT $1, tag_id, $2 FROM post_tags GROUP BY tag_id ORDER BY COUNT(*) DESC, tag_id LIMIT $3",
        )
        .bind(session.user_id)
        .bind(now)
        .bind(i64::from(options.followed_tags_per_session))
        .execute(&mut *conn)
        .await?
        .rows_affected();
        // What the tags' fan-out would have brought since the floor: posts of members they do
        // not follow, each once, marked with its lowest followed tag.
        sqlx::query(
            "INSERT INTO home_timeline (member_id, post_id, author_id, original_author_id, via_tag_id) \
             SELECT ft.member_id, pt.post_id, pt.author_id, NULL, MIN(ft.tag_id) FROM followed_tags ft \
             JOIN post_tags pt ON pt.tag_id = ft.tag_id \
             JOIN posts p ON p.id = pt.post_id AND p.reply_to_id IS NULL AND p.deleted_at IS NULL \
             WHERE ft.member_id = $1 AND pt.author_id <> $1 \
             AND pt.post_id >= (SELECT home_floor FROM users WHERE id = $1) \
             AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = $1 AND f.following_id = pt.author_id) \
             GROUP BY ft.member_id, pt.post_id, pt.author_id \
             ON CONFLICT DO NOTHING",
        )
        .bind(session.user_id)
        .execute(&mut *conn)
        .await?;
    }
    conn.execute("COMMIT").await?;
    if db.backend == Backend::Postgres {
        conn.execute("VACUUM (ANALYZE) followed_tags, home_timeline").await?;
    }
    Ok(written)
}
