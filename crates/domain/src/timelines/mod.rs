//! The home timelines: the Friends feed kept ready (fan-out on write), like Mastodon's home
//! feeds, and the rule every write that changes a member's Friends page follows (`changes`).
//! Reading a page is `feeds::friends`.
//!
//! Reading the Friends feed from `posts` and `follows` (`friends::fan_in_page`) costs about
//! `follows × (offset + limit)` index entries a request, or a walk over everyone's posts: too
//! slow at scale (docs/feeds.md, "The fallback: fan-in on read"). Instead each post is written
//! into its author's and their followers' timelines when it is made, so a page is one range
//! read of `home_timeline (member_id, post_id)`, whatever the follow count or the page's offset.
//!
//! The invariant (migrations/*/0004_home_timeline.sql): a member's timeline holds every post of
//! their Friends feed whose id is at least `users.home_floor`. Every write keeps it:
//! - a new post or repost goes to the author and every follower (its id is above every floor):
//!   in its own transaction when the author has at most `CHUNK` followers, else to the author at
//!   once and to the followers `CHUNK` at a time right after (`fan_out_chunk`, from the queue
//!   `timeline_fanouts`), so one post by a member followed by thousands never holds SQLite's
//!   only writer for long (every other write would wait behind it). Until its
//!   last chunk, such a post is missing from the timelines it has not reached yet: they see it
//!   a moment later, as on any large network;
//! - a follow copies the followed member's live posts at or above the floor, at most `KEEP` of
//!   them: if there are more, the floor rises to the oldest copied (everything above the new
//!   floor is still there);
//! - an unfollow removes the unfollowed member's posts; a deleted post leaves every timeline
//!   (`changes::MemberWrite::removed`; reposts, deleted for good, through the foreign key);
//! - upkeep trims a timeline past `TRIM_ABOVE` rows to its newest `KEEP` and raises the floor.
//!
//! Reads take only rows at or above the floor, and only full pages; a page that reaches below
//! the floor (deep pages, or members whose timeline is short) or the end of the feed is read
//! with the fan-in query instead, which answers the same rows in the same order. So the
//! timeline is bounded (400–800 rows a member) and older pages still work.
//!
//! Races (PostgreSQL, where writers run at once): a post fanning out while its author gains or
//! loses a follower could miss the new follower or reach the old one, and a follow copying a
//! post while it is deleted could leave a row for a deleted post (which would shift every later
//! page's offset). Posting, deleting and following all take the author's `users` row lock first
//! (posts, reposts and deletions by `changes::member_changed`, which updates that row; the
//! fan-out's later chunks by `lock_author`; a follow's counter update takes it too), so one
//! commits before the other reads: the follow then sees the post (or its deletion), or the post
//! (or deletion) the follow.

pub mod changes;
pub mod marks;

pub use marks::FeedMarks;

use std::sync::LazyLock;

use sqlx::AnyConnection;

use murmur_core::db::{Backend, Db, Pool};
use murmur_core::error::Result;

/// Rows a timeline keeps after a trim (Mastodon keeps 400 per home feed).
pub const KEEP: i64 = 400;
/// A timeline is trimmed once it holds more than this.
pub const TRIM_ABOVE: i64 = 2 * KEEP;

/// Takes the author's row lock for a chunk of a fan-out (`fan_out_chunk`), so it and a follow
/// of the same author never interleave (see the module's comment). SQLite needs none: its
/// writes already run one at a time on the single writer connection, and the no-op update would
/// still rewrite the row and its `users_follower_count_idx` entry on every chunk.
async fn lock_author(conn: &mut AnyConnection, backend: Backend, author: i64) -> Result<()> {
    if backend.writes_run_at_once() {
        sqlx::query("UPDATE users SET follower_count = follower_count WHERE id = $1")
            .bind(author)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// A timeline row's columns, for every writer of rows (also `seed`): each row names its post's
/// author and a repost's original author, which the page's visibility rule reads (`selection`).
pub const ROW: &str = "home_timeline (member_id, post_id, author_id, original_author_id)";
/// The select list of a row's columns after the member's, read from post `p`.
const OF_POST: &str = "p.id, p.author_id, o.author_id FROM posts p LEFT JOIN posts o ON o.id = p.repost_of_id";

/// Followers reached in a post's own transaction, and in each later chunk. A chunk of 100 rows
/// (each on another member's part of the timeline's b-tree) takes a few milliseconds on SQLite.
pub const CHUNK: i64 = 100;

/// Puts a new post or repost into its author's and every follower's timeline, or, past `CHUNK`
/// followers, into the author's and queues the rest: answers true when it queued (wake the
/// queue's worker after commit: `FanOutQueue::wake`). Only through `changes::MemberWrite`,
/// which took the author's row lock earlier in the same transaction and answered `followers`.
pub(super) async fn fan_out(conn: &mut AnyConnection, author: i64, followers: i64, post_id: i64) -> Result<bool> {
    if followers > CHUNK {
        static AUTHOR: LazyLock<String> =
            LazyLock::new(|| format!("INSERT INTO {ROW} SELECT p.author_id, {OF_POST} WHERE p.id = $1"));
        sqlx::query(AUTHOR.as_str()).bind(post_id).execute(&mut *conn).await?;
        sqlx::query("INSERT INTO timeline_fanouts (post_id, author_id) VALUES ($1, $2)")
            .bind(post_id)
            .bind(author)
            .execute(&mut *conn)
            .await?;
        return Ok(true);
    }
    static EVERYONE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO {ROW} SELECT m.id, {OF_POST} \
             JOIN (SELECT follower_id AS id FROM follows WHERE following_id = $1 \
                   UNION ALL SELECT CAST($1 AS BIGINT)) m ON TRUE \
             WHERE p.id = $2"
        )
    });
    sqlx::query(EVERYONE.as_str()).bind(author).bind(post_id).execute(conn).await?;
    Ok(false)
}

/// Members a tagged post reaches through their followed tags (not its author nor their
/// followers, whom its follow fan-out reaches unmarked, whichever comes first), `$1` being the
/// post: one row per member, marked with the lowest id of the tags that brought it.
const TAG_FOLLOWERS: &str = "SELECT ft.member_id AS member_id, MIN(ft.tag_id) AS tag_id FROM post_tags pt \
     JOIN followed_tags ft ON ft.tag_id = pt.tag_id \
     WHERE pt.post_id = $1 AND ft.member_id <> pt.author_id \
     AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ft.member_id AND f.following_id = pt.author_id) \
     GROUP BY ft.member_id";

/// Puts a new tagged post into the timelines of its tags' followers (`TAG_FOLLOWERS`), each row
/// marked with the tag; past `CHUNK` of them, queues it (`tag_fanouts`) for the worker, like a
/// popular author's post: answers true when it queued. Called after the post's tags are written
/// (`posts::tags::tag_post`), in its transaction, only for posts that have tags, so an untagged
/// post pays nothing. Hidden authors are left out when the page is read, like followed members'.
pub(super) async fn fan_out_to_tags(conn: &mut AnyConnection, author: i64, post_id: i64) -> Result<bool> {
    static COUNT: LazyLock<String> = LazyLock::new(|| format!("SELECT COUNT(*) FROM ({TAG_FOLLOWERS}) m"));
    let members: i64 = sqlx::query_scalar(COUNT.as_str()).bind(post_id).fetch_one(&mut *conn).await?;
    if members == 0 {
        return Ok(false);
    }
    if members > CHUNK {
        sqlx::query("INSERT INTO tag_fanouts (post_id, author_id) VALUES ($1, $2)")
            .bind(post_id)
            .bind(author)
            .execute(&mut *conn)
            .await?;
        return Ok(true);
    }
    static EVERYONE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO {ROW_VIA_TAG} SELECT m.member_id, p.id, p.author_id, NULL, m.tag_id \
             FROM posts p JOIN ({TAG_FOLLOWERS}) m ON TRUE WHERE p.id = $1 \
             ON CONFLICT DO NOTHING"
        )
    });
    sqlx::query(EVERYONE.as_str()).bind(post_id).execute(conn).await?;
    Ok(false)
}

/// A timeline row brought by a followed tag: `ROW` and the tag.
const ROW_VIA_TAG: &str = "home_timeline (member_id, post_id, author_id, original_author_id, via_tag_id)";

/// Takes the oldest queued tagged post one chunk of its tags' followers further (by member id);
/// answers false when that queue is empty. A post deleted meanwhile has no tags left, so it
/// reaches nobody more. As with `fan_out_chunk`, several workers may take the same chunk: each
/// row is inserted at most once and the cursor only moves forward.
async fn tag_fan_out_chunk(write: &Pool, read: &Pool) -> Result<bool> {
    let next: Option<(i64, i64)> =
        sqlx::query_as("SELECT post_id, after_member FROM tag_fanouts ORDER BY post_id LIMIT 1")
            .fetch_optional(read)
            .await?;
    let Some((post_id, after)) = next else {
        return Ok(false);
    };
    let mut tx = write.begin().await?;
    static CHUNK_OF_MEMBERS: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT MAX(member_id), COUNT(*) FROM ( \
                 SELECT member_id FROM ({TAG_FOLLOWERS}) m WHERE member_id > $2 ORDER BY member_id LIMIT $3 \
             ) chunk"
        )
    });
    let (last, count): (Option<i64>, i64) =
        sqlx::query_as(CHUNK_OF_MEMBERS.as_str()).bind(post_id).bind(after).bind(CHUNK).fetch_one(&mut *tx).await?;
    if let Some(last) = last {
        static INSERT: LazyLock<String> = LazyLock::new(|| {
            format!(
                "INSERT INTO {ROW_VIA_TAG} SELECT m.member_id, p.id, p.author_id, NULL, m.tag_id \
                 FROM posts p JOIN ({TAG_FOLLOWERS}) m ON m.member_id > $2 AND m.member_id <= $3 \
                 WHERE p.id = $1 AND p.deleted_at IS NULL \
                 ON CONFLICT DO NOTHING"
            )
        });
        sqlx::query(INSERT.as_str()).bind(post_id).bind(after).bind(last).execute(&mut *tx).await?;
    }
    if count == CHUNK
        && let Some(last) = last
    {
        sqlx::query("UPDATE tag_fanouts SET after_member = $1 WHERE post_id = $2 AND after_member = $3")
            .bind(last)
            .bind(post_id)
            .bind(after)
            .execute(&mut *tx)
            .await?;
    } else {
        sqlx::query("DELETE FROM tag_fanouts WHERE post_id = $1").bind(post_id).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// A deleted post leaves every home timeline (`changes::MemberWrite::removed`).
pub(super) async fn remove_post(conn: &mut AnyConnection, post_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM home_timeline WHERE post_id = $1").bind(post_id).execute(conn).await?;
    Ok(())
}

/// Takes the oldest queued post one chunk of followers further; answers false when the queue
/// is empty. Several workers (processes) may work on the same post: each chunk's rows are
/// inserted at most once, and the cursor only moves forward. A post deleted meanwhile reaches
/// nobody more. On PostgreSQL the chunk takes the author's row lock, like the post itself, so
/// follows and unfollows of the author never interleave with it.
pub async fn fan_out_chunk(write: &Pool, read: &Pool, backend: Backend) -> Result<bool> {
    let next: Option<(i64, i64, i64)> =
        sqlx::query_as("SELECT post_id, author_id, after_follower FROM timeline_fanouts ORDER BY post_id LIMIT 1")
            .fetch_optional(read)
            .await?;
    let Some((post_id, author, after)) = next else {
        // Followers first: then the tagged posts queued for their tags' followers.
        return tag_fan_out_chunk(write, read).await;
    };
    let mut tx = write.begin().await?;
    lock_author(&mut tx, backend, author).await?;
    // The chunk: the next CHUNK followers by id, none if the post is gone or deleted.
    let (last, count): (Option<i64>, i64) = sqlx::query_as(
        "SELECT MAX(follower_id), COUNT(*) FROM ( \
             SELECT follower_id FROM follows WHERE following_id = $1 AND follower_id > $2 \
             ORDER BY follower_id LIMIT $3 \
         ) chunk WHERE EXISTS (SELECT 1 FROM posts WHERE id = $4 AND deleted_at IS NULL)",
    )
    .bind(author)
    .bind(after)
    .bind(CHUNK)
    .bind(post_id)
    .fetch_one(&mut *tx)
    .await?;
    if let Some(last) = last {
        static CHUNK_OF_FOLLOWERS: LazyLock<String> = LazyLock::new(|| {
            format!(
                "INSERT INTO {ROW} SELECT f.follower_id, {OF_POST} \
                 JOIN follows f ON f.following_id = $1 AND f.follower_id > $2 AND f.follower_id <= $3 \
                 WHERE p.id = $4 \
                 ON CONFLICT DO NOTHING"
            )
        });
        sqlx::query(CHUNK_OF_FOLLOWERS.as_str())
            .bind(author)
            .bind(after)
            .bind(last)
            .bind(post_id)
            .execute(&mut *tx)
            .await?;
    }
    if count == CHUNK
        && let Some(last) = last
    {
        sqlx::query("UPDATE timeline_fanouts SET after_follower = $1 WHERE post_id = $2 AND after_follower = $3")
            .bind(last)
            .bind(post_id)
            .bind(after)
            .execute(&mut *tx)
            .await?;
    } else {
        sqlx::query("DELETE FROM timeline_fanouts WHERE post_id = $1").bind(post_id).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// Wakes this process's worker of the fan-out queue (the fan-out job in `jobs`).
pub type FanOutQueue = murmur_core::wake::Wake;

/// What `users.home_floor` becomes when its member follows the member whose id is the
/// placeholder `followed` (set in the follower's counter update, `follows::store`): the
/// followed member's `KEEP`-th newest live post when that is above the floor (older ones are
/// not copied: `followed` then copies everything at or above the new floor), else the floor as
/// it is. Taken in that update, it needs no statement of its own. Read before the followed
/// member's row lock (the lower id's row is locked first), the cut can miss a post being made
/// or deleted: the floor is then one post lower or higher, and the copy, which reads after both
/// locks, still copies every post at or above it, so the invariant holds either way.
pub fn floor_after_following(followed: &str) -> String {
    format!(
        "COALESCE((SELECT id FROM posts WHERE author_id = {followed} AND deleted_at IS NULL \
         AND reply_to_id IS NULL AND id > users.home_floor ORDER BY id DESC LIMIT 1 OFFSET {}), home_floor)",
        KEEP - 1
    )
}

/// `member` now follows `followed`, and their floor was raised by `floor_after_following`:
/// copy the followed member's live posts at or above it into the timeline. A post a followed
/// tag brought earlier is now there by the follow: its mark goes.
pub async fn followed(conn: &mut AnyConnection, member: i64, followed: i64) -> Result<()> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO {ROW} SELECT CAST($1 AS BIGINT), {OF_POST} \
             WHERE p.author_id = $2 AND p.deleted_at IS NULL AND p.reply_to_id IS NULL \
             AND p.id >= (SELECT home_floor FROM users WHERE id = $1) \
             ON CONFLICT (member_id, post_id) DO UPDATE SET via_tag_id = NULL \
             WHERE home_timeline.via_tag_id IS NOT NULL"
        )
    });
    sqlx::query(SQL.as_str()).bind(member).bind(followed).execute(conn).await?;
    Ok(())
}

/// The lowest id of the tags `$1` follows that post `home_timeline.post_id` uses, for a
/// statement on `home_timeline` rows of member `$1`; NULL when none.
const FOLLOWED_TAG_OF_ROW: &str = "(SELECT MIN(ft.tag_id) FROM post_tags pt \
     JOIN followed_tags ft ON ft.member_id = $1 AND ft.tag_id = pt.tag_id \
     WHERE pt.post_id = home_timeline.post_id)";

/// `member` stopped following `unfollowed`: their posts leave the timeline, but for those a
/// tag the member follows would have brought (they stay, marked with it). Walks the member's
/// timeline (bounded), not the unfollowed member's posts (unbounded).
pub async fn unfollowed(conn: &mut AnyConnection, member: i64, unfollowed: i64) -> Result<()> {
    static MARK: LazyLock<String> = LazyLock::new(|| {
        format!(
            "UPDATE home_timeline SET via_tag_id = {FOLLOWED_TAG_OF_ROW} \
             WHERE member_id = $1 AND author_id = $2 AND via_tag_id IS NULL AND original_author_id IS NULL"
        )
    });
    sqlx::query(MARK.as_str()).bind(member).bind(unfollowed).execute(&mut *conn).await?;
    sqlx::query("DELETE FROM home_timeline WHERE member_id = $1 AND author_id = $2 AND via_tag_id IS NULL")
        .bind(member)
        .bind(unfollowed)
        .execute(conn)
        .await?;
    Ok(())
}

/// `member` stopped following tag `tag` (its `followed_tags` row is gone): the posts it
/// brought leave the timeline, but for those another followed tag would have brought (marked
/// with that one now). Walks the member's timeline (bounded).
pub async fn tag_unfollowed(conn: &mut AnyConnection, member: i64, tag: i64) -> Result<()> {
    static DELETE: LazyLock<String> = LazyLock::new(|| {
        format!("DELETE FROM home_timeline WHERE member_id = $1 AND via_tag_id = $2 AND {FOLLOWED_TAG_OF_ROW} IS NULL")
    });
    static MARK: LazyLock<String> = LazyLock::new(|| {
        format!("UPDATE home_timeline SET via_tag_id = {FOLLOWED_TAG_OF_ROW} WHERE member_id = $1 AND via_tag_id = $2")
    });
    sqlx::query(DELETE.as_str()).bind(member).bind(tag).execute(&mut *conn).await?;
    sqlx::query(MARK.as_str()).bind(member).bind(tag).execute(conn).await?;
    Ok(())
}

async fn raise_floor(conn: &mut AnyConnection, member: i64, floor: i64) -> Result<()> {
    sqlx::query("UPDATE users SET home_floor = $1 WHERE id = $2 AND home_floor < $1")
        .bind(floor)
        .bind(member)
        .execute(conn)
        .await?;
    Ok(())
}

/// Rows a trim deletes in one transaction: like a fan-out chunk, a few milliseconds of the
/// writer, after which member writes may have their turn (`db::member_writes`).
pub const TRIM_CHUNK: i64 = 100;

/// Trims the member's timeline to its newest `keep` rows once it holds more than `above`, and
/// raises the floor to the oldest row kept. Answers the rows removed. The floor rises first, in
/// a transaction of its own: from then on the rows below it are in no page (every read takes
/// only rows at or above the floor), so they can go `chunk` at a time, each chunk after
/// giving way to member writes.
pub async fn trim(db: &Db, member: i64, keep: i64, above: i64, chunk: i64) -> Result<u64> {
    let over: Option<i64> = sqlx::query_scalar(
        "SELECT post_id FROM home_timeline WHERE member_id = $1 ORDER BY post_id DESC LIMIT 1 OFFSET $2",
    )
    .bind(member)
    .bind(above)
    .fetch_optional(&db.read)
    .await?;
    if over.is_none() {
        return Ok(0);
    }
    db.member_writes.wait_for_none().await;
    let mut tx = db.write.begin().await?;
    let oldest_kept: Option<i64> = sqlx::query_scalar(
        "SELECT post_id FROM home_timeline WHERE member_id = $1 ORDER BY post_id DESC LIMIT 1 OFFSET $2",
    )
    .bind(member)
    .bind(keep - 1)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(oldest_kept) = oldest_kept else {
        return Ok(0);
    };
    raise_floor(&mut tx, member, oldest_kept).await?;
    tx.commit().await?;
    let mut removed = 0;
    loop {
        db.member_writes.wait_for_none().await;
        let done = sqlx::query(
            "DELETE FROM home_timeline WHERE member_id = $1 AND post_id IN ( \
                 SELECT post_id FROM home_timeline WHERE member_id = $1 AND post_id < $2 \
                 ORDER BY post_id LIMIT $3)",
        )
        .bind(member)
        .bind(oldest_kept)
        .bind(chunk)
        .execute(&db.write)
        .await?;
        removed += done.rows_affected();
        if (done.rows_affected() as i64) < chunk {
            return Ok(removed);
        }
    }
}

/// Members are trimmed a slice per upkeep round, so a round stays short whatever the network's
/// size: with upkeep every 5 minutes each member is looked at every 50 minutes.
const SLICES: i64 = 10;

/// One upkeep round's share of trimming: the members whose id falls in this round's slice.
/// The slice follows the clock, so several processes agree without sharing anything.
pub async fn trim_round(db: &Db, round: i64) -> Result<u64> {
    let members: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE id % $1 = $2")
        .bind(SLICES)
        .bind(round.rem_euclid(SLICES))
        .fetch_all(&db.read)
        .await?;
    let mut removed = 0;
    for member in members {
        removed += trim(db, member, KEEP, TRIM_ABOVE, TRIM_CHUNK).await?;
    }
    Ok(removed)
}
