//! A list's feed: the newest posts and reposts of the people in the list whom its owner still
//! follows and sees. A list holds only people its owner follows, so their posts are in the
//! owner's home timeline, all of them at or above its floor: a page is read there first, the
//! rows of the list's people. What the timeline cannot give (older posts, below the floor) is
//! read by author as the Friends feed's fan-in read is (`feeds::friends::fan_in_page`,
//! whose comment says why each form): on PostgreSQL a `LATERAL` walk of
//! `posts_author_live_idx (author_id, id)` for each person; on SQLite that walk emulated by a
//! correlated subquery for lists of fewer than `FEW_FOLLOWS` people, else the newest-first walk
//! of all posts. Hidden people (blocks, mutes, suspensions, removals: `visibility`) and posts
//! holding the owner's muted words are left out before the page is cut, by the rules Friends
//! applies (`visibility::timeline_row_hidden`, `walked_post_hidden`); one card per post as on
//! Friends.
//!
//! Why the timeline first: the walk by author reads `offset + limit` posts of every person in
//! the list (a list of 50: 1,000 posts for a page of 20), the timeline walk reads index entries
//! of one member's timeline until the page is full, and the walk by author after it only what
//! the page still lacks (a page that begins below the floor is read by author whole). As on
//! Friends, a post whose fan-out goes in chunks (`timelines`) reaches the list a moment later.

use std::sync::LazyLock;

use crate::feeds::friends::{FEW_FOLLOWS, one_card_per_post};
use crate::posts::Post;
use crate::posts::hydrate::{self, Selection};
use crate::visibility::{self, Scope};
use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::Result;
use murmur_core::page::Page;

/// A page of one of the owner's lists' feed; 404 for another's list.
pub async fn page(db: &Db, owner: i64, id: i64, page: Page, now: Millis) -> Result<Vec<Post>> {
    let list = super::get(db, owner, id).await?;
    let postgres = db.backend.plans_by_statistics();
    let few = list.member_count < FEW_FOLLOWS;
    let by_author = |page: Page| selection(postgres, few, id, page, now);
    let mut entries = hydrate::list(&db.read, db.backend, owner, &timeline_selection(postgres, id, page, now)).await?;
    // A safety net as Friends' (`whole_page`): a row of a deleted post sends the page to the
    // read by author, which leaves it out.
    if entries.iter().any(|post| post.is_deleted) {
        entries.clear();
    }
    let short = page.limit - entries.len() as i64;
    if short > 0 {
        let rest = match entries.last() {
            // The timeline holds every one of the list's posts at or above its floor, so the
            // page goes on below the last one it gave: those are read by author.
            Some(last) => by_author(Page { limit: short, offset: 0, below: last.id, above: page.above }),
            // The page begins below the floor (or past the feed's end): read by author whole.
            None => by_author(page),
        };
        entries.extend(hydrate::list(&db.read, db.backend, owner, &rest).await?);
    }
    Ok(one_card_per_post(entries))
}

/// The page from the owner's home timeline (`$1` is the owner, `$7` the list): the rows at or
/// above its floor whose author is in the list, the hidden ones left out as Friends leaves them
/// out (`visibility::timeline_row_hidden`). The list is tested
/// first, a cheap test that leaves out most rows: on PostgreSQL as an array read once (an `IN`
/// becomes a join made after the rows' other tests).
fn timeline_selection(postgres: bool, list: i64, page: Page, now: Millis) -> Selection {
    fn sql(in_list: &str) -> String {
        format!(
            "SELECT t.post_id, -t.post_id FROM home_timeline t \
             WHERE t.member_id = $1 AND t.post_id >= (SELECT home_floor FROM users WHERE id = $1) \
             AND t.post_id < $5 AND t.post_id > $6 AND {in_list} AND NOT {} \
             ORDER BY t.post_id DESC LIMIT $2 OFFSET $3",
            visibility::timeline_row_hidden("$4", "$1", "t")
        )
    }
    static POSTGRES: LazyLock<String> =
        LazyLock::new(|| sql("t.author_id = ANY (ARRAY(SELECT m.member_id FROM list_members m WHERE m.list_id = $7))"));
    static SQLITE: LazyLock<String> =
        LazyLock::new(|| sql("t.author_id IN (SELECT m.member_id FROM list_members m WHERE m.list_id = $7)"));
    let sql = if postgres { &POSTGRES } else { &SQLITE };
    Selection::new(sql.as_str(), vec![page.limit, page.offset, now, page.below, page.above, list])
}

/// The page's selection (`$1` is the owner, `$7` the list).
fn selection(postgres: bool, few: bool, list: i64, page: Page, now: Millis) -> Selection {
    const FEEDS: Scope<'static> = Scope::Feeds { now: "$4" };
    fn authors() -> String {
        format!(
            "SELECT m.member_id AS author FROM list_members m \
             JOIN follows f ON f.follower_id = $1 AND f.following_id = m.member_id \
             WHERE m.list_id = $7 AND NOT {}",
            visibility::hidden(FEEDS, "$1", "m.member_id")
        )
    }
    static POSTGRES: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT latest.id, -latest.id FROM ({authors}) a \
             CROSS JOIN LATERAL ( \
                 SELECT id FROM posts q WHERE q.author_id = a.author AND q.deleted_at IS NULL \
                 AND q.reply_to_id IS NULL AND q.id < $5 AND q.id > $6 AND NOT {walked_hidden} \
                 ORDER BY q.id DESC LIMIT $2 + $3 \
             ) latest \
             ORDER BY latest.id DESC LIMIT $2 OFFSET $3",
            authors = authors(),
            walked_hidden = visibility::walked_post_hidden("$4", "$1", "q")
        )
    });
    static SQLITE_FEW: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id, -p.id FROM ({authors}) a \
             JOIN posts p ON p.id IN ( \
                 SELECT q.id FROM posts q WHERE q.author_id = a.author AND q.deleted_at IS NULL \
                 AND q.reply_to_id IS NULL AND q.id < $5 AND q.id > $6 AND NOT {walked_hidden} \
                 ORDER BY q.id DESC LIMIT $2 + $3 \
             ) \
             ORDER BY p.id DESC LIMIT $2 OFFSET $3",
            authors = authors(),
            walked_hidden = visibility::walked_post_hidden("$4", "$1", "q")
        )
    });
    static SQLITE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id, -p.id FROM posts p \
             WHERE p.author_id IN ({authors}) \
             AND p.deleted_at IS NULL AND p.reply_to_id IS NULL AND p.id < $5 AND p.id > $6 \
             AND NOT {walked_hidden} \
             ORDER BY p.id DESC LIMIT $2 OFFSET $3",
            authors = authors(),
            walked_hidden = visibility::walked_post_hidden("$4", "$1", "p")
        )
    });
    let sql = match (postgres, few) {
        (true, _) => &POSTGRES,
        (false, true) => &SQLITE_FEW,
        (false, false) => &SQLITE,
    };
    Selection::new(sql.as_str(), vec![page.limit, page.offset, now, page.below, page.above, list])
}
