//! The Friends feed: the caller's and followed members' posts and reposts, newest first.
//!
//! Pages come from the member's home timeline (`timeline`, fan-out on write). What follows is
//! the fan-in read (`fan_in_page`), used for pages below the timeline's floor: it must not
//! touch more than a page's worth of each followed member's posts:
//!
//! - PostgreSQL: a `LATERAL` join walks the partial index `posts_author_live_idx (author_id, id)
//!   WHERE deleted_at IS NULL AND reply_to_id IS NULL` backwards for each followed member (plus
//!   the caller), index-only, taking at most `offset + limit` entries each, and merges those
//!   into the page. Cost ≈ follows × (offset + limit) index entries, independent of the table's
//!   size (the plain `IN (…)` form read every post of every followed member from the heap).
//! - SQLite has no `LATERAL`, and its planner answers `author_id IN (…) ORDER BY id DESC` by
//!   walking all top-level posts newest first (`posts_reply_to_idx`) until the page is full.
//!   That is fast for members who follow many (their followees' posts are everywhere) but a
//!   scan of most of the table for members who follow few. So SQLite picks the form by the
//!   viewer's `following_count` (results are identical, only the cost differs; the measurements
//!   are in docs/feeds.md, "The fallback: fan-in on read", and docs/performance.md):
//!   - below `FEW_FOLLOWS`: the `LATERAL` emulated by a correlated `IN (… LIMIT offset + limit)`
//!     subquery per followed member on `posts_author_live_idx`, cost ≈ follows × (offset + limit);
//!   - otherwise the newest-first walk, cost ≈ (offset + limit) × all posts / followees' posts.
//!
//! Order is by id (ids grow with time and never repeat), so pages are stable: a new post only
//! shifts later pages by one, which the client tolerates (it refetches from the top).
//! Since the benchmark showed this read to be too slow at scale, pages are
//! served from the member's home timeline (`timeline`, fan-out on write) and this fan-in read is
//! only the fallback for pages below the timeline's floor.
//!
//! Replies are not in this feed (they are read in threads and on profiles): the Friends feed is
//! the posts and reposts of the people the caller follows.

/// On SQLite, members following fewer than this read their feed member by member (see above):
/// near the measured crossover between the two forms (docs/performance.md).
pub(crate) const FEW_FOLLOWS: i64 = 50;

use std::sync::LazyLock;

use crate::posts::Post;
use crate::posts::hydrate::{self, Selection};
use crate::visibility::{self, Scope};
use murmur_core::clock::Millis;
use murmur_core::db::{Backend, Pool};
use murmur_core::error::Result;
use murmur_core::page::Page;

/// A page of the Friends feed: from the member's home timeline when it holds the page whole
/// (nearly always), else from the fan-in read below; one card per post (`one_card_per_post`).
pub async fn read_page(pool: &Pool, backend: Backend, viewer: i64, page: Page, now: Millis) -> Result<Vec<Post>> {
    let entries = match whole_page(pool, backend, viewer, page, now).await? {
        Some(posts) => posts,
        None => fan_in_page(pool, backend, viewer, page, now).await?,
    };
    Ok(one_card_per_post(entries))
}

/// A page's entries (newest first) with one card per post: when a post and its reposts, or
/// several reposts of it, fall in one page, the newest entry stays in its place (a repost: with
/// "Reposted by") and the older ones go, counted in its `feed_entries`. The page's entries are
/// still `limit` of the feed, so offsets move on as before and no entry is skipped; a page may
/// hold fewer cards than `limit`, and the entries its cards stand for tell a full page.
pub fn one_card_per_post(entries: Vec<Post>) -> Vec<Post> {
    let mut cards: Vec<Post> = Vec::with_capacity(entries.len());
    let mut card_of: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
    for entry in entries {
        let post = entry.repost_of_id.unwrap_or(entry.id);
        match card_of.get(&post) {
            Some(&at) => *cards[at].feed_entries.get_or_insert(1) += 1,
            None => {
                card_of.insert(post, cards.len());
                cards.push(entry);
            }
        }
    }
    cards
}

/// A page of the Friends feed read from posts and follows (see the module's comment); answers
/// the same posts as the timeline where both hold the page.
pub async fn fan_in_page(pool: &Pool, backend: Backend, viewer: i64, page: Page, now: Millis) -> Result<Vec<Post>> {
    let selection = fan_in_selection(pool, backend, viewer, page, now).await?;
    hydrate::list(pool, backend, viewer, &selection).await
}

/// The fan-in read's selection (`$1` is the viewer). Members the viewer does not see are left
/// out of the followed members, and reposts of their posts where each member's posts are
/// taken, so every form still fills its page. The posts followed tags brought are read from
/// the timeline's rows (`with_tags`), so where the timeline holds a page both reads agree.
async fn fan_in_selection(pool: &Pool, backend: Backend, viewer: i64, page: Page, now: Millis) -> Result<Selection> {
    static POSTGRES: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT latest.id FROM ( \
                 SELECT following_id AS author FROM follows WHERE follower_id = $1 AND NOT {author_hidden} \
                 UNION ALL SELECT CAST($1 AS BIGINT) \
             ) a \
             CROSS JOIN LATERAL ( \
                 SELECT id FROM posts q WHERE q.author_id = a.author AND q.deleted_at IS NULL \
                 AND q.reply_to_id IS NULL AND q.id < $5 AND q.id > $6 AND NOT {walked_hidden} \
                 ORDER BY q.id DESC LIMIT $2 + $3 \
             ) latest \
             ORDER BY latest.id DESC LIMIT $2 + $3",
            author_hidden = author_hidden(),
            walked_hidden = walked_hidden("q")
        )
    });
    static SQLITE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id FROM posts p \
             WHERE p.author_id IN ( \
                 SELECT following_id FROM follows WHERE follower_id = $1 AND NOT {author_hidden} \
                 UNION ALL SELECT $1) \
             AND p.deleted_at IS NULL AND p.reply_to_id IS NULL AND p.id < $5 AND p.id > $6 \
             AND NOT {walked_hidden} \
             ORDER BY p.id DESC LIMIT $2 + $3",
            author_hidden = author_hidden(),
            walked_hidden = walked_hidden("p")
        )
    });
    static SQLITE_FEW: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id FROM ( \
                 SELECT following_id AS author FROM follows WHERE follower_id = $1 AND NOT {author_hidden} \
                 UNION ALL SELECT $1 \
             ) a \
             JOIN posts p ON p.id IN ( \
                 SELECT q.id FROM posts q WHERE q.author_id = a.author AND q.deleted_at IS NULL \
                 AND q.reply_to_id IS NULL AND q.id < $5 AND q.id > $6 AND NOT {walked_hidden} \
                 ORDER BY q.id DESC LIMIT $2 + $3 \
             ) \
             ORDER BY p.id DESC LIMIT $2 + $3",
            author_hidden = author_hidden(),
            walked_hidden = walked_hidden("q")
        )
    });
    const FEEDS: Scope<'static> = Scope::Feeds { now: "$4" };
    fn author_hidden() -> String {
        visibility::hidden(FEEDS, "$1", "following_id")
    }
    fn walked_hidden(post: &str) -> String {
        visibility::walked_post_hidden("$4", "$1", post)
    }
    /// The followed members' entries (one of the forms above) and the posts followed tags
    /// brought into the timeline (`home_timeline.via_tag_id`: no other table knows which tagged
    /// posts reached the member), each their newest `offset + limit`, merged into the page.
    fn with_tags(followed: &str) -> String {
        format!(
            "SELECT e.id, -e.id FROM ( \
                 SELECT id FROM ({followed}) followed \
                 UNION SELECT post_id FROM ( \
                     SELECT t.post_id FROM home_timeline t WHERE t.member_id = $1 AND t.via_tag_id IS NOT NULL \
                     AND t.post_id < $5 AND t.post_id > $6 AND NOT {hidden} \
                     ORDER BY t.post_id DESC LIMIT $2 + $3 \
                 ) tagged \
             ) e ORDER BY e.id DESC LIMIT $2 OFFSET $3",
            hidden = visibility::timeline_row_hidden("$4", "$1", "t")
        )
    }
    static POSTGRES_PAGE: LazyLock<String> = LazyLock::new(|| with_tags(&POSTGRES));
    static SQLITE_PAGE: LazyLock<String> = LazyLock::new(|| with_tags(&SQLITE));
    static SQLITE_FEW_PAGE: LazyLock<String> = LazyLock::new(|| with_tags(&SQLITE_FEW));
    let sql = if backend.plans_by_statistics() {
        &POSTGRES_PAGE
    } else {
        let following: Option<i64> = sqlx::query_scalar("SELECT following_count FROM users WHERE id = $1")
            .bind(viewer)
            .fetch_optional(pool)
            .await?;
        if following.unwrap_or(0) < FEW_FOLLOWS { &SQLITE_FEW_PAGE } else { &SQLITE_PAGE }
    };
    Ok(Selection::new(sql.as_str(), vec![page.limit, page.offset, now, page.below, page.above]).with_via_tag())
}

/// The Friends feed page from the timeline; None when the timeline cannot answer it whole (the
/// caller reads it with the fan-in query).
pub async fn whole_page(
    pool: &Pool,
    backend: Backend,
    viewer: i64,
    page: Page,
    now: Millis,
) -> Result<Option<Vec<Post>>> {
    let posts = hydrate::list(pool, backend, viewer, &selection(page, now)).await?;
    // A safety net: the timeline holds no row of a deleted post (see the module's comment on
    // races); if it ever did, the fan-in read answers the page, which leaves it out.
    let whole = posts.len() as i64 == page.limit && !posts.iter().any(|p| p.is_deleted);
    Ok(whole.then_some(posts))
}

/// The Friends feed page as read from the timeline (`$1` is the viewer, the timeline's owner).
/// Only a full page counts: a short one is the end of the feed or a page reaching below the
/// floor, which the fan-in read answers (short pages are rare: the end of a feed). Posts the
/// viewer does not see (blocks, mutes, suspensions, muted words: `visibility`) are left out before
/// the page is cut, so a page stays whole. The rule reads the authors from the timeline's rows,
/// not from the posts: a deep page walks up to `TRIM_ABOVE` rows of one member's part of the
/// timeline's key, and reads only its page's posts (in `hydrate`).
fn selection(page: Page, now: Millis) -> Selection {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT t.post_id, -t.post_id FROM home_timeline t \
             WHERE t.member_id = $1 AND t.post_id >= (SELECT home_floor FROM users WHERE id = $1) \
             AND t.post_id < $5 AND t.post_id > $6 AND NOT {} \
             ORDER BY t.post_id DESC LIMIT $2 OFFSET $3",
            visibility::timeline_row_hidden("$4", "$1", "t")
        )
    });
    Selection::new(SQL.as_str(), vec![page.limit, page.offset, now, page.below, page.above]).with_via_tag()
}
