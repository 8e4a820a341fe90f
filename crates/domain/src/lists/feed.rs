//! A list's feed: the newest posts and reposts of the people in the list whom its owner still
//! follows and sees, read by author as the Friends feed's fan-in read is
//! (`feeds::friends::fan_in_page`, whose comment says why each form): on PostgreSQL a
//! `LATERAL` walk of `posts_author_live_idx (author_id, id)` for each person; on SQLite that
//! walk emulated by a correlated subquery for lists of fewer than `FEW_FOLLOWS` people, else
//! the newest-first walk of all posts. Hidden people (blocks, mutes, suspensions, removals:
//! `visibility`) are left out before the page is cut; one card per post as on Friends.

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
    let few = list.member_count < FEW_FOLLOWS;
    let selection = selection(db.backend.plans_by_statistics(), few, id, page, now);
    Ok(one_card_per_post(hydrate::list(&db.read, db.backend, owner, &selection).await?))
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
                 AND q.reply_to_id IS NULL AND q.id < $5 AND q.id > $6 AND NOT {original_hidden} \
                 ORDER BY q.id DESC LIMIT $2 + $3 \
             ) latest \
             ORDER BY latest.id DESC LIMIT $2 OFFSET $3",
            authors = authors(),
            original_hidden = visibility::original_hidden(FEEDS, "$1", "q")
        )
    });
    static SQLITE_FEW: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id, -p.id FROM ({authors}) a \
             JOIN posts p ON p.id IN ( \
                 SELECT q.id FROM posts q WHERE q.author_id = a.author AND q.deleted_at IS NULL \
                 AND q.reply_to_id IS NULL AND q.id < $5 AND q.id > $6 AND NOT {original_hidden} \
                 ORDER BY q.id DESC LIMIT $2 + $3 \
             ) \
             ORDER BY p.id DESC LIMIT $2 OFFSET $3",
            authors = authors(),
            original_hidden = visibility::original_hidden(FEEDS, "$1", "q")
        )
    });
    static SQLITE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id, -p.id FROM posts p \
             WHERE p.author_id IN ({authors}) \
             AND p.deleted_at IS NULL AND p.reply_to_id IS NULL AND p.id < $5 AND p.id > $6 \
             AND NOT {original_hidden} \
             ORDER BY p.id DESC LIMIT $2 OFFSET $3",
            authors = authors(),
            original_hidden = visibility::original_hidden(FEEDS, "$1", "p")
        )
    });
    let sql = match (postgres, few) {
        (true, _) => &POSTGRES,
        (false, true) => &SQLITE_FEW,
        (false, false) => &SQLITE,
    };
    Selection::new(sql.as_str(), vec![page.limit, page.offset, now, page.below, page.above, list])
}
