//! Queries about posts. Writes take the caller's transaction (`&mut AnyConnection`), so a row
//! and everything that counts or announces it (counters, notifications) commit together.
//!
//! Counters never drift: each is changed in the same transaction as the row it counts, and only
//! when the insert or delete really changed a row (`ON CONFLICT DO NOTHING` and
//! `rows_affected`). On PostgreSQL a concurrent duplicate insert waits on the unique key and
//! then does nothing; `UPDATE … SET n = n + 1` takes the row lock and re-reads `n`. On SQLite
//! writes are serialized through `Db::write` anyway.

use std::sync::LazyLock;

use sqlx::{AnyConnection, Connection};

use super::domain::KeyedRequest;
use super::entities::Entity;
use super::hydrate::Selection;
use crate::notifications::{self, Kind};
use murmur_core::clock::Millis;
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::db::{Backend, Pool};
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;

/// What the write paths need to know about a post.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PostRef {
    pub id: i64,
    pub author_id: i64,
    pub reply_to_id: Option<i64>,
    pub repost_of_id: Option<i64>,
    pub poll_expires_at: Option<Millis>,
    pub deleted_at: Option<Millis>,
}

pub async fn find_ref(conn: &mut AnyConnection, id: i64) -> Result<Option<PostRef>> {
    Ok(sqlx::query_as(
        "SELECT id, author_id, reply_to_id, repost_of_id, poll_expires_at, deleted_at FROM posts WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?)
}

/// The live post a card action is about: a repost stands for its original (likes, replies,
/// reposts and votes all go to the original). None when unknown or deleted.
pub async fn live_original(conn: &mut AnyConnection, id: i64) -> Result<Option<PostRef>> {
    Ok(sqlx::query_as(LIVE_ORIGINAL).bind(id).fetch_optional(conn).await?)
}

/// Post `id` when moderators removed it and `author` wrote it.
pub async fn removed_post_of(conn: &mut AnyConnection, id: i64, author: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("SELECT id FROM posts WHERE id = $1 AND author_id = $2 AND removed_at IS NOT NULL")
        .bind(id)
        .bind(author)
        .fetch_optional(conn)
        .await?)
}

/// `live_original`'s statement, of post `$1`: a repost's row joined to its original, any other
/// post's to itself; also the `target` of a like's and an unlike's statement on PostgreSQL.
const LIVE_ORIGINAL: &str = "SELECT o.id, o.author_id, o.reply_to_id, o.repost_of_id, o.poll_expires_at, o.deleted_at \
     FROM posts p JOIN posts o ON o.id = COALESCE(p.repost_of_id, p.id) \
     WHERE p.id = $1 AND o.deleted_at IS NULL";

pub struct NewPost<'a> {
    pub author_id: i64,
    pub content: &'a str,
    /// Its content warning, if any.
    pub spoiler_text: Option<&'a str>,
    pub reply_to_id: Option<i64>,
    /// The post it quotes; the caller checked it may.
    pub quote_of_id: Option<i64>,
    pub poll: Option<(&'a [String], Millis)>,
    /// Its poll takes several options from each voter.
    pub poll_multiple: bool,
    /// Claimed uploads (`media::claim`) with their descriptions, in the order they show.
    pub images: &'a [NewImage<'a>],
    /// What `content` holds (`posts::entities`).
    pub entities: &'a [Entity],
    /// The app it was written from (Mastodon client API), if any.
    pub app_id: Option<i64>,
    pub now: Millis,
}

/// A post's words as muted words are matched against them (`posts.muting_text`): its text and
/// content warning both, folded by `text::word_key`.
pub fn muting_text(content: &str, spoiler_text: Option<&str>) -> String {
    murmur_core::text::word_key(&format!("{content}\n{}", spoiler_text.unwrap_or_default()))
}

/// A claimed upload shown by a new post, and its description (alt text).
pub struct NewImage<'a> {
    pub media_id: &'a str,
    pub alt: Option<&'a str>,
}

/// Inserts a post or reply with its poll and images; answers its id. The caller checked the
/// parent.
pub async fn insert_post(conn: &mut AnyConnection, new: &NewPost<'_>) -> Result<i64> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO posts (author_id, content, created_at, reply_to_id, poll_expires_at, image_count, entities, app_id, \
         spoiler_text, muting_text, quote_of_id, poll_multiple) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         RETURNING id",
    )
    .bind(new.author_id)
    .bind(new.content)
    .bind(new.now)
    .bind(new.reply_to_id)
    .bind(new.poll.map(|(_, expires)| expires))
    .bind(new.images.len() as i64)
    .bind(super::entities::to_column(new.entities))
    .bind(new.app_id)
    .bind(new.spoiler_text)
    .bind(muting_text(new.content, new.spoiler_text))
    .bind(new.quote_of_id)
    .bind(i64::from(new.poll_multiple))
    .fetch_one(&mut *conn)
    .await?;
    if let Some((options, _)) = new.poll {
        for (position, text) in options.iter().enumerate() {
            sqlx::query("INSERT INTO poll_options (post_id, position, text) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(position as i64)
                .bind(text.as_str())
                .execute(&mut *conn)
                .await?;
        }
    }
    for (position, image) in new.images.iter().enumerate() {
        sqlx::query("INSERT INTO post_images (post_id, position, media_id, alt) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(position as i64)
            .bind(image.media_id)
            .bind(image.alt)
            .execute(&mut *conn)
            .await?;
    }
    Ok(id)
}

/// True when `author` is hidden from `viewer` (blocked either way, or suspended: `visibility`).
pub async fn author_hidden(conn: &mut AnyConnection, viewer: i64, author: i64) -> Result<bool> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT CAST(1 AS BIGINT) WHERE {}",
            crate::visibility::hidden(crate::visibility::Scope::Anywhere, "$1", "$2")
        )
    });
    let hidden: Option<i64> = sqlx::query_scalar(SQL.as_str()).bind(viewer).bind(author).fetch_optional(conn).await?;
    Ok(hidden.is_some())
}

/// Whether post `id`'s author lets others quote it.
pub async fn quotes_allowed(conn: &mut AnyConnection, id: i64) -> Result<bool> {
    let allowed: Option<i64> =
        sqlx::query_scalar("SELECT quotes_allowed FROM posts WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(allowed == Some(1))
}

/// Lets others quote post `id`, or not.
pub async fn set_quotes_allowed(conn: &mut AnyConnection, id: i64, allowed: bool) -> Result<()> {
    sqlx::query("UPDATE posts SET quotes_allowed = $1 WHERE id = $2")
        .bind(i64::from(allowed))
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Detaches post `quoted` from post `quote` (which must quote it); an earlier detachment stays
/// as it was. False when `quote` does not quote `quoted`.
pub async fn detach_quote(conn: &mut AnyConnection, quoted: i64, quote: i64, now: Millis) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE posts SET quote_detached_at = COALESCE(quote_detached_at, $1) WHERE id = $2 AND quote_of_id = $3",
    )
    .bind(now)
    .bind(quote)
    .bind(quoted)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 1 {
        crate::live::note(crate::live::Change::Counted { post: quote });
    }
    Ok(done.rows_affected() == 1)
}

/// Adds `delta` to one of a live post's counters; false when the post is gone (deleted in the
/// meantime: on PostgreSQL the row lock makes this re-check `deleted_at` after a concurrent
/// delete commits). The column name is one of ours, never input.
pub async fn bump(conn: &mut AnyConnection, post_id: i64, counter: Counter, delta: i64) -> Result<bool> {
    let sql = match counter {
        Counter::Likes => "UPDATE posts SET like_count = like_count + $1 WHERE id = $2 AND deleted_at IS NULL",
        Counter::Reposts => "UPDATE posts SET repost_count = repost_count + $1 WHERE id = $2 AND deleted_at IS NULL",
        Counter::Replies => "UPDATE posts SET reply_count = reply_count + $1 WHERE id = $2 AND deleted_at IS NULL",
    };
    let done = sqlx::query(sql).bind(delta).bind(post_id).execute(conn).await?;
    crate::live::note(crate::live::Change::Counted { post: post_id });
    Ok(done.rows_affected() == 1)
}

/// Takes the row lock of a live post for the rest of the transaction; false when it is gone.
/// For writes that change no counter of the post (a vote): on PostgreSQL a vote inserted while
/// a delete is under way would otherwise outlive it (the delete removes the votes it sees, and
/// inserting a vote does not wait for the post's row lock). Waiting here makes a vote either
/// commit before the delete (which then removes it) or find the post deleted.
pub async fn lock_live(conn: &mut AnyConnection, post_id: i64) -> Result<bool> {
    let done = sqlx::query("UPDATE posts SET poll_expires_at = poll_expires_at WHERE id = $1 AND deleted_at IS NULL")
        .bind(post_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

#[derive(Clone, Copy, Debug)]
pub enum Counter {
    Likes,
    Reposts,
    Replies,
}

/// The member's repost of `original_id`; None when they already reposted it.
pub async fn insert_repost(
    conn: &mut AnyConnection,
    author_id: i64,
    original_id: i64,
    now: Millis,
) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "INSERT INTO posts (author_id, content, created_at, repost_of_id) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING RETURNING id",
    )
    .bind(author_id)
    .bind(super::REPOST_CONTENT)
    .bind(now)
    .bind(original_id)
    .fetch_optional(conn)
    .await?)
}

/// Removes the member's repost of `original_id`; answers its id, None when there was none.
pub async fn delete_repost(conn: &mut AnyConnection, author_id: i64, original_id: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("DELETE FROM posts WHERE author_id = $1 AND repost_of_id = $2 RETURNING id")
        .bind(author_id)
        .bind(original_id)
        .fetch_optional(conn)
        .await?)
}

/// `member` likes post `id` (a repost: its original), with the post's counter and its author's
/// notification; liking twice changes nothing. Answers the id of the post liked, or None when
/// there is no live post, also when it was deleted while this ran (the caller must then not
/// commit); refused when the member and the post's author blocked each other. The caller holds
/// the member's row lock (`timelines::changes::member_changed`), so a block made meanwhile is seen.
pub async fn like(
    conn: &mut AnyConnection,
    backend: Backend,
    member: i64,
    id: i64,
    now: Millis,
) -> Result<Option<i64>> {
    if backend.statements_are_round_trips() {
        // The same steps as below, in one statement. Each statement is a round trip to
        // another process, and on a busy machine each trip waits for a core twice (once for
        // PostgreSQL, once for the answer), so a like's latency grew with its statements more
        // than with their work (docs/performance.md). The steps keep their order (the like,
        // then the post's row lock, then the notification), and the statement comes after the
        // member's row lock, so it reads as of after that wait. SQLite has no data-modifying
        // `WITH`, and there a statement is a call within the process.
        static LIKE: LazyLock<String> = LazyLock::new(|| {
            format!(
                "WITH target AS ({LIVE_ORIGINAL}), \
                 allowed AS (SELECT id FROM target WHERE NOT {blocked}), \
                 liked AS (INSERT INTO likes (user_id, post_id, created_at) \
                     SELECT $2, id, $3 FROM allowed ON CONFLICT DO NOTHING RETURNING post_id), \
                 counted AS (UPDATE posts SET like_count = like_count + 1 \
                     WHERE id = (SELECT post_id FROM liked) AND deleted_at IS NULL RETURNING id, author_id), \
                 notified AS (INSERT INTO notifications (recipient_id, actor_id, type, post_id, created_at) \
                     SELECT author_id, $2, $4, id, $3 FROM counted WHERE author_id <> $2 ON CONFLICT DO NOTHING \
                     RETURNING id, recipient_id, actor_id, type), \
                 pushed AS ({push}) \
                 SELECT id, (SELECT COUNT(*) FROM liked), (SELECT COUNT(*) FROM counted), \
                 (SELECT COUNT(*) FROM allowed), author_id FROM target",
                blocked = crate::visibility::blocked_between("target.author_id", "$2"),
                // What `notify` queues on SQLite.
                push = crate::push::store::queue_made("notified", "$3")
            )
        });
        let done: Option<(i64, i64, i64, i64, i64)> = sqlx::query_as(LIKE.as_str())
            .bind(id)
            .bind(member)
            .bind(now)
            .bind(Kind::Like.as_str())
            .fetch_optional(conn)
            .await?;
        if done.is_some_and(|(_, _, _, allowed, _)| allowed == 0) {
            return Err(Error::forbidden(crate::visibility::CANNOT_INTERACT));
        }
        if let Some((post, 1, 1, _, author)) = done {
            // What `bump` and `notify` note on SQLite.
            crate::live::note(crate::live::Change::Counted { post });
            if author != member {
                crate::live::note(crate::live::Change::Notified { member: author, new: true });
            }
        }
        return Ok(done.and_then(|(post, liked, counted, _, _)| (liked == counted).then_some(post)));
    }
    let Some(post) = live_original(&mut *conn, id).await? else {
        return Ok(None);
    };
    crate::visibility::ensure_can_interact(conn, member, post.author_id).await?;
    let done =
        sqlx::query("INSERT INTO likes (user_id, post_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(member)
            .bind(post.id)
            .bind(now)
            .execute(&mut *conn)
            .await?;
    if done.rows_affected() == 1 {
        if !bump(&mut *conn, post.id, Counter::Likes, 1).await? {
            return Ok(None);
        }
        notifications::notify(conn, post.author_id, member, Kind::Like, post.id, now).await?;
    }
    Ok(Some(post.id))
}

/// `member` takes back their like of post `id` (a repost: its original), with its counter and
/// its notification while unread; unliking a post not liked changes nothing. Answers the id of
/// the post, or None when there is no live post. The caller holds the member's row lock.
pub async fn unlike(conn: &mut AnyConnection, backend: Backend, member: i64, id: i64) -> Result<Option<i64>> {
    if backend.statements_are_round_trips() {
        // The same steps as below, in one statement (why: `like`).
        static UNLIKE: LazyLock<String> = LazyLock::new(|| {
            format!(
                "WITH target AS ({LIVE_ORIGINAL}), \
                 unliked AS (DELETE FROM likes WHERE user_id = $2 AND post_id = (SELECT id FROM target) \
                     RETURNING post_id), \
                 counted AS (UPDATE posts SET like_count = like_count - 1 \
                     WHERE id = (SELECT post_id FROM unliked) AND deleted_at IS NULL), \
                 withdrawn AS (DELETE FROM notifications WHERE recipient_id = (SELECT author_id FROM target) \
                     AND actor_id = $2 AND type = $3 AND post_id = (SELECT post_id FROM unliked) AND read_at IS NULL) \
                 SELECT id, author_id FROM target"
            )
        });
        let post: Option<(i64, i64)> = sqlx::query_as(UNLIKE.as_str())
            .bind(id)
            .bind(member)
            .bind(Kind::Like.as_str())
            .fetch_optional(conn)
            .await?;
        if let Some((post, author)) = post {
            // What `bump` and `withdraw` note on SQLite (a like that was not there changes
            // nothing, but a hint to refetch costs the streams little).
            crate::live::note(crate::live::Change::Counted { post });
            crate::live::note(crate::live::Change::Notified { member: author, new: false });
        }
        return Ok(post.map(|(post, _)| post));
    }
    let Some(post) = live_original(&mut *conn, id).await? else {
        return Ok(None);
    };
    let done = sqlx::query("DELETE FROM likes WHERE user_id = $1 AND post_id = $2")
        .bind(member)
        .bind(post.id)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 1 {
        bump(&mut *conn, post.id, Counter::Likes, -1).await?;
        notifications::withdraw(conn, post.author_id, member, Kind::Like, post.id).await?;
    }
    Ok(Some(post.id))
}

/// The position of `option` in the post's poll.
pub async fn poll_position(conn: &mut AnyConnection, post_id: i64, option: &str) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("SELECT position FROM poll_options WHERE post_id = $1 AND text = $2")
        .bind(post_id)
        .bind(option)
        .fetch_optional(conn)
        .await?)
}

/// Whether post `post_id`'s poll takes several options from each voter.
pub async fn poll_is_multiple(conn: &mut AnyConnection, post_id: i64) -> Result<bool> {
    let multiple: Option<i64> =
        sqlx::query_scalar("SELECT poll_multiple FROM posts WHERE id = $1").bind(post_id).fetch_optional(conn).await?;
    Ok(multiple == Some(1))
}

/// Whether the member voted in post `post_id`'s poll.
pub async fn has_voted(conn: &mut AnyConnection, post_id: i64, user_id: i64) -> Result<bool> {
    let voted: Option<i64> =
        sqlx::query_scalar("SELECT position FROM poll_votes WHERE post_id = $1 AND user_id = $2 LIMIT 1")
            .bind(post_id)
            .bind(user_id)
            .fetch_optional(conn)
            .await?;
    Ok(voted.is_some())
}

/// True when the vote (one chosen option) was recorded; false when it already was.
pub async fn insert_vote(
    conn: &mut AnyConnection,
    post_id: i64,
    user_id: i64,
    position: i64,
    now: Millis,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO poll_votes (post_id, user_id, position, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(post_id)
    .bind(user_id)
    .bind(position)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Who takes a post down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakenDownBy {
    /// Its author deletes it: its text, images and poll go with it.
    Author,
    /// Moderators remove it (`removed_at`): its text, images and poll stay, for its author and
    /// the moderators to see; everyone else sees it deleted.
    Moderators,
}

/// Soft-deletes a post: the row stays (its replies keep pointing at it) with its likes and
/// reposts gone, and, when its author deletes it, its text, images and poll too. False when it
/// was already deleted (a concurrent delete). The caller takes it out of the home timelines
/// (`timelines::changes::MemberWrite::removed`).
pub async fn soft_delete(conn: &mut AnyConnection, post_id: i64, now: Millis, by: TakenDownBy) -> Result<bool> {
    let sql = match by {
        TakenDownBy::Author => {
            "UPDATE posts SET deleted_at = $1, content = '', spoiler_text = NULL, entities = NULL, poll_expires_at = NULL, \
             like_count = 0, repost_count = 0, image_count = 0 WHERE id = $2 AND deleted_at IS NULL"
        }
        TakenDownBy::Moderators => {
            "UPDATE posts SET deleted_at = $1, removed_at = $1, like_count = 0, repost_count = 0 \
             WHERE id = $2 AND deleted_at IS NULL"
        }
    };
    let done = sqlx::query(sql).bind(now).bind(post_id).execute(&mut *conn).await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    const WHAT_OTHERS_DID: [&str; 4] = [
        "DELETE FROM likes WHERE post_id = $1",
        // a deleted post leaves its author's pins, freeing its place among them
        "DELETE FROM pinned_posts WHERE post_id = $1",
        // a bookmark of a post nobody can read any more leaves its member's list
        "DELETE FROM bookmarks WHERE post_id = $1",
        // reposts of it: the reposted thing is gone, so are they (their timeline rows go
        // with them through the foreign key)
        "DELETE FROM posts WHERE repost_of_id = $1",
    ];
    const WHAT_IT_HELD: [&str; 4] = [
        "DELETE FROM post_images WHERE post_id = $1",
        "DELETE FROM post_edits WHERE post_id = $1",
        "DELETE FROM poll_votes WHERE post_id = $1",
        "DELETE FROM poll_options WHERE post_id = $1",
    ];
    let held: &[&str] = if by == TakenDownBy::Author { &WHAT_IT_HELD } else { &[] };
    for sql in held.iter().chain(&WHAT_OTHERS_DID) {
        sqlx::query(*sql).bind(post_id).execute(&mut *conn).await?;
    }
    Ok(true)
}

/// What an edit needs to know about a live post, read under its row lock (`lock_live`).
#[derive(Debug, sqlx::FromRow)]
pub struct EditedPost {
    pub content: String,
    pub spoiler_text: Option<String>,
    pub created_at: Millis,
    pub has_poll: bool,
    /// Votes in its poll (0 without one).
    pub votes: i64,
    /// Its images' media ids, in the order they show.
    pub images: Vec<String>,
    /// Their descriptions, in the same order.
    pub alts: Vec<Option<String>>,
}

/// Post `id` as an edit finds it; None when it is deleted.
pub async fn edited_post(conn: &mut AnyConnection, id: i64) -> Result<Option<EditedPost>> {
    /// content, spoiler_text, created_at, poll_expires_at, votes
    type Row = (String, Option<String>, Millis, Option<Millis>, i64);
    let row: Option<Row> = sqlx::query_as(
        "SELECT content, spoiler_text, created_at, poll_expires_at, \
         (SELECT COUNT(*) FROM poll_votes v WHERE v.post_id = p.id) FROM posts p WHERE id = $1 AND deleted_at IS NULL",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((content, spoiler_text, created_at, poll_expires_at, votes)) = row else {
        return Ok(None);
    };
    let described: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT media_id, alt FROM post_images WHERE post_id = $1 ORDER BY position")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let (images, alts) = described.into_iter().unzip();
    Ok(Some(EditedPost { content, spoiler_text, created_at, has_poll: poll_expires_at.is_some(), votes, images, alts }))
}

/// A post's new text, as its author edited it.
pub struct Edit<'a> {
    pub post_id: i64,
    pub content: &'a str,
    /// Its content warning from now on; None: none.
    pub spoiler_text: Option<&'a str>,
    /// What `content` holds (`posts::entities`).
    pub entities: &'a [Entity],
    /// The images it keeps (media ids); the others leave it.
    pub kept_images: &'a [String],
    /// The kept images' descriptions from now on (media id, description), in any order.
    pub alts: &'a [(String, Option<String>)],
    pub now: Millis,
}

/// Keeps the post's text, content warning and images (with their descriptions) as they stood in
/// its history, then writes the new ones: its entities, its images (those not kept leave; the
/// orphan cleanup removes their files once no version shows them), their descriptions and
/// `edited_at`. The caller holds the post's row lock and checked it is live.
pub async fn edit(conn: &mut AnyConnection, edit: &Edit<'_>) -> Result<()> {
    let version: i64 = sqlx::query_scalar(
        "INSERT INTO post_edits (post_id, content, spoiler_text, written_at, replaced_at) \
         SELECT id, content, spoiler_text, COALESCE(edited_at, created_at), $2 FROM posts WHERE id = $1 RETURNING id",
    )
    .bind(edit.post_id)
    .bind(edit.now)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO post_edit_images (edit_id, position, media_id, alt) \
         SELECT $1, position, media_id, alt FROM post_images WHERE post_id = $2",
    )
    .bind(version)
    .bind(edit.post_id)
    .execute(&mut *conn)
    .await?;
    for (media_id, alt) in edit.alts {
        sqlx::query("UPDATE post_images SET alt = $1 WHERE post_id = $2 AND media_id = $3")
            .bind(alt.as_deref())
            .bind(edit.post_id)
            .bind(media_id)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query(
        "UPDATE posts SET content = $1, entities = $2, edited_at = $3, image_count = $4, spoiler_text = $6, \
         muting_text = $7 WHERE id = $5",
    )
    .bind(edit.content)
    .bind(super::entities::to_column(edit.entities))
    .bind(edit.now)
    .bind(edit.kept_images.len() as i64)
    .bind(edit.post_id)
    .bind(edit.spoiler_text)
    .bind(muting_text(edit.content, edit.spoiler_text))
    .execute(&mut *conn)
    .await?;
    let sql = if edit.kept_images.is_empty() {
        "DELETE FROM post_images WHERE post_id = $1".to_string()
    } else {
        format!(
            "DELETE FROM post_images WHERE post_id = $1 AND media_id NOT IN ({})",
            in_list(2, edit.kept_images.len())
        )
    };
    let mut delete = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(edit.post_id);
    for media_id in padded_values(edit.kept_images) {
        delete = delete.bind(media_id.as_str());
    }
    delete.execute(&mut *conn).await?;
    Ok(())
}

/// One earlier version of a post: its text, content warning and images.
#[derive(Debug)]
pub struct VersionRow {
    pub content: String,
    pub spoiler_text: Option<String>,
    pub written_at: Millis,
    pub replaced_at: Millis,
    /// Its images then (media id, description), in the order they showed; none for a version
    /// kept before versions kept their images.
    pub images: Vec<(String, Option<String>)>,
}

/// A page of post `id`'s earlier versions, newest first (index `post_edits_post_idx`).
pub async fn history(pool: &Pool, id: i64, page: Page) -> Result<Vec<VersionRow>> {
    /// id, content, spoiler_text, written_at, replaced_at
    type Row = (i64, String, Option<String>, Millis, Millis);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, content, spoiler_text, written_at, replaced_at FROM post_edits WHERE post_id = $1 \
         ORDER BY id DESC LIMIT $2 OFFSET $3",
    )
    .bind(id)
    .bind(page.limit)
    .bind(page.offset)
    .fetch_all(pool)
    .await?;
    let (Some(newest), Some(oldest)) = (rows.first(), rows.last()) else {
        return Ok(Vec::new());
    };
    let images: Vec<(i64, String, Option<String>)> = sqlx::query_as(
        "SELECT i.edit_id, i.media_id, i.alt FROM post_edit_images i JOIN post_edits e ON e.id = i.edit_id \
         WHERE e.post_id = $1 AND i.edit_id BETWEEN $2 AND $3 ORDER BY i.edit_id, i.position",
    )
    .bind(id)
    .bind(oldest.0)
    .bind(newest.0)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(version, content, spoiler_text, written_at, replaced_at)| VersionRow {
            content,
            spoiler_text,
            written_at,
            replaced_at,
            images: images
                .iter()
                .filter(|(edit, ..)| *edit == version)
                .map(|(_, media_id, alt)| (media_id.clone(), alt.clone()))
                .collect(),
        })
        .collect())
}

/// `member` bookmarks post `post_id` (a live original); twice changes nothing.
pub async fn bookmark(conn: &mut AnyConnection, member: i64, post_id: i64, now: Millis) -> Result<()> {
    sqlx::query("INSERT INTO bookmarks (user_id, post_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(member)
        .bind(post_id)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many posts `member` has pinned.
pub async fn pin_count(conn: &mut AnyConnection, member: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM pinned_posts WHERE user_id = $1")
        .bind(member)
        .fetch_one(conn)
        .await?)
}

/// `member` pins their post `post_id`; true when it was not pinned yet.
pub async fn pin(conn: &mut AnyConnection, member: i64, post_id: i64, now: Millis) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO pinned_posts (user_id, post_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(member)
    .bind(post_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// `member` unpins post `post_id`; not pinned changes nothing.
pub async fn unpin(conn: &mut AnyConnection, member: i64, post_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM pinned_posts WHERE user_id = $1 AND post_id = $2")
        .bind(member)
        .bind(post_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// `member` takes their bookmark of post `post_id` away; none there changes nothing.
pub async fn unbookmark(conn: &mut AnyConnection, member: i64, post_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM bookmarks WHERE user_id = $1 AND post_id = $2")
        .bind(member)
        .bind(post_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A reply left its parent: one reply fewer (never below zero, whatever happened before).
pub async fn reply_removed(conn: &mut AnyConnection, parent_id: i64) -> Result<()> {
    sqlx::query("UPDATE posts SET reply_count = reply_count - 1 WHERE id = $1 AND reply_count > 0")
        .bind(parent_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The existing members with these (lower-case) usernames: id and username.
pub async fn members_by_username(conn: &mut AnyConnection, usernames: &[String]) -> Result<Vec<(i64, String)>> {
    if usernames.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!("SELECT id, username FROM users WHERE username IN ({})", in_list(1, usernames.len()));
    let mut query = sqlx::query_as::<_, (i64, String)>(sqlx::AssertSqlSafe(sql));
    for name in padded_values(usernames) {
        query = query.bind(name);
    }
    Ok(query.fetch_all(conn).await?)
}

/// How long a post's `Idempotency-Key` answers retries with it (as Mastodon's).
pub const KEY_KEPT_FOR: Millis = murmur_core::clock::HOUR;

/// What a key `member` used within `KEY_KEPT_FOR` served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyUse {
    /// The post it made; None once that post is gone for good (a repost undone), or while it
    /// is being made.
    pub post_id: Option<i64>,
    /// Whether that post was deleted since.
    pub post_deleted: bool,
    /// The request it first served (`KeyedRequest`); None for keys taken before keys kept it.
    pub endpoint: Option<String>,
    pub body_hash: Option<String>,
}

/// What `member`'s `key` served within `KEY_KEPT_FOR`, if it did.
pub async fn key_use<'c, E>(executor: E, member: i64, key: &str, now: Millis) -> Result<Option<KeyUse>>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    // post_id, deleted (1 or 0), endpoint, body_hash
    type Row = (Option<i64>, i64, Option<String>, Option<String>);
    let row: Option<Row> = sqlx::query_as(
        "SELECT k.post_id, CAST(CASE WHEN p.deleted_at IS NULL THEN 0 ELSE 1 END AS BIGINT), k.endpoint, k.body_hash \
         FROM post_keys k LEFT JOIN posts p ON p.id = k.post_id \
         WHERE k.member_id = $1 AND k.key = $2 AND k.created_at > $3",
    )
    .bind(member)
    .bind(key)
    .bind(now - KEY_KEPT_FOR)
    .fetch_optional(executor)
    .await?;
    Ok(row.map(|(post_id, deleted, endpoint, body_hash)| KeyUse {
        post_id,
        post_deleted: deleted == 1,
        endpoint,
        body_hash,
    }))
}

/// Takes the key of `request` for the post `member` is making, first in its transaction, with
/// the request it serves; false when a use within `KEY_KEPT_FOR` holds it (on PostgreSQL, a
/// concurrent request with the same key waits here for the first to commit). `keep_key` names
/// the post once it exists.
pub async fn take_key(conn: &mut AnyConnection, member: i64, request: &KeyedRequest, now: Millis) -> Result<bool> {
    let taken = sqlx::query(
        "INSERT INTO post_keys (member_id, key, post_id, created_at, endpoint, body_hash) \
         VALUES ($1, $2, NULL, $3, $5, $6) \
         ON CONFLICT (member_id, key) DO UPDATE SET post_id = NULL, created_at = excluded.created_at, \
             endpoint = excluded.endpoint, body_hash = excluded.body_hash \
         WHERE post_keys.created_at <= $4",
    )
    .bind(member)
    .bind(request.key())
    .bind(now)
    .bind(now - KEY_KEPT_FOR)
    .bind(request.endpoint)
    .bind(&request.body_hash)
    .execute(conn)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// Names the post made with the key `take_key` took.
pub async fn keep_key(conn: &mut AnyConnection, member: i64, key: &str, post_id: i64) -> Result<()> {
    sqlx::query("UPDATE post_keys SET post_id = $3 WHERE member_id = $1 AND key = $2")
        .bind(member)
        .bind(key)
        .bind(post_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Removes the keys past `KEY_KEPT_FOR` (upkeep); answers how many.
pub async fn prune_keys(pool: &Pool, now: Millis) -> Result<u64> {
    let done =
        sqlx::query("DELETE FROM post_keys WHERE created_at <= $1").bind(now - KEY_KEPT_FOR).execute(pool).await?;
    Ok(done.rows_affected())
}

/// Maximum depth of the ancestor chain a thread shows (the nearest ones).
pub const MAX_ANCESTORS: i64 = 50;
/// Maximum replies a thread shows (the oldest ones; `replies` pages through the rest).
pub const MAX_REPLIES: i64 = 200;

/// A thread's posts: the chain above `id` (ord -depth, so the top comes first; deleted ones
/// included: they show as placeholders), the post itself (ord 0) and its live replies, oldest
/// first (ord = their id), in one statement.
pub fn thread(id: i64) -> Selection {
    const SQL: &str = "WITH RECURSIVE chain (id, depth) AS ( \
             SELECT reply_to_id, 1 FROM posts WHERE id = $2 AND reply_to_id IS NOT NULL \
             UNION ALL \
             SELECT p.reply_to_id, c.depth + 1 FROM posts p JOIN chain c ON p.id = c.id \
             WHERE p.reply_to_id IS NOT NULL AND c.depth < $3 \
         ) \
         SELECT id, -CAST(depth AS BIGINT) FROM chain \
         UNION ALL SELECT CAST($2 AS BIGINT), CAST(0 AS BIGINT) \
         UNION ALL SELECT id, id FROM ( \
             SELECT id FROM posts WHERE reply_to_id = $2 AND deleted_at IS NULL ORDER BY id LIMIT $4 \
         ) replies";
    Selection::new(SQL, vec![id, MAX_ANCESTORS, MAX_REPLIES])
}

/// A page of the live replies to post `id`, oldest first as in `thread` (index
/// `posts_reply_to_idx`): how a thread's replies are read past its first `MAX_REPLIES`.
pub fn replies(id: i64, page: Page) -> Selection {
    const SQL: &str = "SELECT id, id FROM posts WHERE reply_to_id = $2 AND deleted_at IS NULL \
         ORDER BY id LIMIT $3 OFFSET $4";
    Selection::new(SQL, vec![id, page.limit, page.offset])
}

/// How many posts one round of the entities backfill parses (one short write transaction).
const BACKFILL_CHUNK: i64 = 500;

/// The next chunk of a backfill job (`jobs.name`), whose cursor walks post ids down to 0.
enum BackfillChunk<'c> {
    /// Nothing is left.
    Done,
    /// Another process moved the cursor first: it writes this chunk.
    Taken,
    /// Posts with ids in `(next, cursor]` are this round's, the cursor moved to `next` in `tx`.
    Claimed { tx: sqlx::Transaction<'c, sqlx::Any>, next: i64, cursor: i64 },
}

/// Claims the next `BACKFILL_CHUNK` post ids of the backfill job `job`: the round that moves the
/// cursor first writes them, so several processes never write one chunk twice.
async fn claim_backfill_chunk<'c>(conn: &'c mut AnyConnection, job: &str) -> Result<BackfillChunk<'c>> {
    let Some(cursor) = sqlx::query_scalar::<_, i64>("SELECT cursor FROM jobs WHERE name = $1")
        .bind(job)
        .fetch_optional(&mut *conn)
        .await?
        .filter(|cursor| *cursor > 0)
    else {
        return Ok(BackfillChunk::Done);
    };
    let next = (cursor - BACKFILL_CHUNK).max(0);
    let mut tx = conn.begin().await?;
    let moved = sqlx::query("UPDATE jobs SET cursor = $1 WHERE name = $2 AND cursor = $3")
        .bind(next)
        .bind(job)
        .bind(cursor)
        .execute(&mut *tx)
        .await?;
    if moved.rows_affected() != 1 {
        return Ok(BackfillChunk::Taken);
    }
    Ok(BackfillChunk::Claimed { tx, next, cursor })
}

/// One round of the entities backfill: parses the next `BACKFILL_CHUNK` posts written before
/// entities were stored (migration 0014 left the newest one's id as the `entities` job's
/// cursor, walked down to 0), storing their entities and tags as `writes` does for a new post.
/// Answers false when nothing is left. Safe in several processes: the round that moves the
/// cursor first writes, the other finds it moved and writes nothing.
pub async fn backfill_entities(conn: &mut AnyConnection) -> Result<bool> {
    let (mut tx, next, cursor) = match claim_backfill_chunk(conn, "entities").await? {
        BackfillChunk::Done => return Ok(false),
        BackfillChunk::Taken => return Ok(true),
        BackfillChunk::Claimed { tx, next, cursor } => (tx, next, cursor),
    };
    let posts: Vec<(i64, i64, String, Millis)> = sqlx::query_as(
        "SELECT id, author_id, content, created_at FROM posts \
         WHERE id > $1 AND id <= $2 AND deleted_at IS NULL AND repost_of_id IS NULL",
    )
    .bind(next)
    .bind(cursor)
    .fetch_all(&mut *tx)
    .await?;
    let parsed: Vec<_> = posts.iter().map(|(_, _, content, _)| super::entities::parse(content)).collect();
    let mut names: Vec<String> = parsed.iter().flat_map(|p| p.mentions()).collect();
    names.sort();
    names.dedup();
    let mut members = std::collections::HashMap::new();
    for chunk in names.chunks(64) {
        members.extend(members_by_username(&mut tx, chunk).await?.into_iter().map(|(id, name)| (name, id)));
    }
    for ((id, author, content, created_at), parsed) in posts.iter().zip(&parsed) {
        let entities = parsed.entities(content, &members);
        if entities.is_empty() {
            continue;
        }
        sqlx::query("UPDATE posts SET entities = $1 WHERE id = $2")
            .bind(super::entities::to_column(&entities))
            .bind(*id)
            .execute(&mut *tx)
            .await?;
        crate::posts::tags::tag_post(&mut tx, *id, *author, &parsed.hashtags(), *created_at).await?;
    }
    tx.commit().await?;
    Ok(next > 0)
}

/// One round of the muting texts' backfill: writes `muting_text` for the next `BACKFILL_CHUNK`
/// posts written before migration 0035 (which left the newest one's id as the `muting_texts`
/// job's cursor, walked down to 0). Answers false when nothing is left; safe in several
/// processes as `backfill_entities` is.
pub async fn backfill_muting_texts(conn: &mut AnyConnection) -> Result<bool> {
    let (mut tx, next, cursor) = match claim_backfill_chunk(conn, "muting_texts").await? {
        BackfillChunk::Done => return Ok(false),
        BackfillChunk::Taken => return Ok(true),
        BackfillChunk::Claimed { tx, next, cursor } => (tx, next, cursor),
    };
    let posts: Vec<(i64, String, Option<String>)> = sqlx::query_as(
        "SELECT id, content, spoiler_text FROM posts \
         WHERE id > $1 AND id <= $2 AND deleted_at IS NULL AND repost_of_id IS NULL AND muting_text IS NULL",
    )
    .bind(next)
    .bind(cursor)
    .fetch_all(&mut *tx)
    .await?;
    for (id, content, spoiler_text) in &posts {
        // Only where still unwritten: an edit meanwhile wrote its own.
        sqlx::query("UPDATE posts SET muting_text = $1 WHERE id = $2 AND muting_text IS NULL")
            .bind(muting_text(content, spoiler_text.as_deref()))
            .bind(*id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(next > 0)
}

/// Who liked post `post` (newest like first) or reposted it (newest repost first), without the
/// members hidden from `viewer`: a page of their ids.
pub async fn likers_or_reposters(pool: &Pool, viewer: i64, post: i64, reposters: bool, page: Page) -> Result<Vec<i64>> {
    static LIKERS: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT l.user_id FROM likes l WHERE l.post_id = $1 AND NOT {} \
             ORDER BY l.created_at DESC, l.user_id DESC LIMIT $3 OFFSET $4",
            crate::visibility::hidden(crate::visibility::Scope::Anywhere, "$2", "l.user_id")
        )
    });
    static REPOSTERS: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT r.author_id FROM posts r WHERE r.repost_of_id = $1 AND r.deleted_at IS NULL AND NOT {} \
             ORDER BY r.id DESC LIMIT $3 OFFSET $4",
            crate::visibility::hidden(crate::visibility::Scope::Anywhere, "$2", "r.author_id")
        )
    });
    let sql = if reposters { &REPOSTERS } else { &LIKERS };
    Ok(sqlx::query_scalar(sql.as_str())
        .bind(post)
        .bind(viewer)
        .bind(page.limit)
        .bind(page.offset)
        .fetch_all(pool)
        .await?)
}
