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
    // The most used tags, counted once: every session's member follows the same ones.
    let tags: Vec<i64> =
        sqlx::query_scalar("SELECT tag_id FROM post_tags GROUP BY tag_id ORDER BY COUNT(*) DESC, tag_id LIMIT $1")
            .bind(i64::from(options.followed_tags_per_session))
            .fetch_all(&mut *conn)
            .await?;
    if tags.is_empty() {
        return Ok(0);
    }
    // The tags' fan-out reaches every follower, and upkeep then trims each timeline to its newest
    // `KEEP` rows, raising its floor: so a timeline holds at most the newest `KEEP` of the tags'
    // posts, and its floor is at least the oldest of them (the invariant of `timelines` holds).
    let in_tags = murmur_core::db::sql::in_list(2, tags.len());
    let mut newest = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "SELECT COALESCE(MIN(post_id), 0) FROM (SELECT DISTINCT pt.post_id FROM post_tags pt \
         JOIN posts p ON p.id = pt.post_id AND p.reply_to_id IS NULL AND p.deleted_at IS NULL \
         WHERE pt.tag_id IN ({in_tags}) ORDER BY pt.post_id DESC LIMIT $1) newest"
    )))
    .bind(murmur_domain::timelines::KEEP);
    for tag in murmur_core::db::sql::padded_values(&tags) {
        newest = newest.bind(tag);
    }
    let bound = newest.fetch_one(&mut *conn).await?;
    let mut written = 0;
    // A transaction per chunk of sessions: one for all of them grew SQLite's write-ahead log
    // past a gigabyte, which no checkpoint could copy back until the end, and every read slowed.
    for chunk in sessions.chunks(100) {
        conn.execute("BEGIN").await?;
        for session in chunk {
            for tag in &tags {
                written += sqlx::query("INSERT INTO followed_tags (member_id, tag_id, created_at) VALUES ($1, $2, $3)")
                    .bind(session.user_id)
                    .bind(*tag)
                    .bind(now)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
            }
            sqlx::query("UPDATE users SET home_floor = $1 WHERE id = $2 AND home_floor < $1")
                .bind(bound)
                .bind(session.user_id)
                .execute(&mut *conn)
                .await?;
            // What the tags' fan-out would have brought since the floor: posts of members they do
            // not follow, each once, marked with its lowest followed tag.
            sqlx::query(
                "INSERT INTO home_timeline (member_id, post_id, author_id, original_author_id, via_tag_id) \
                 SELECT ft.member_id, pt.post_id, pt.author_id, NULL, MIN(ft.tag_id) FROM followed_tags ft \
                 JOIN post_tags pt ON pt.tag_id = ft.tag_id \
                 JOIN posts p ON p.id = pt.post_id AND p.reply_to_id IS NULL AND p.deleted_at IS NULL \
                 WHERE ft.member_id = $1 AND pt.author_id <> $1 AND pt.post_id >= $2 \
                 AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = $1 AND f.following_id = pt.author_id) \
                 GROUP BY ft.member_id, pt.post_id, pt.author_id \
                 ON CONFLICT DO NOTHING",
            )
            .bind(session.user_id)
            .bind(bound)
            .execute(&mut *conn)
            .await?;
        }
        conn.execute("COMMIT").await?;
    }
    if db.backend == Backend::Postgres {
        conn.execute("VACUUM (ANALYZE) followed_tags, home_timeline").await?;
    }
    Ok(written)
}
