//! Discovery: hashtags and their pages, Trending, and post search (docs/discovery.md). The
//! entities a post's text holds are parsed by `posts::entities` when it is written; this area
//! keeps the tags (`store::tag_post`, called by every writer of a post's text) and reads them.

pub mod followed;
pub mod search;
pub(crate) mod store;
pub mod trending;

use crate::posts::Post;
use crate::posts::entities::{is_tag_name, tag_key};
use crate::posts::hydrate::{self, Selection};
use crate::visibility::{self, Scope};
use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;
pub use store::{WEEK, tag, tag_counts, trending};

/// A tag as named in a path or a search (without `#`, or with it), checked.
pub fn tag_name(raw: &str) -> Result<&str> {
    let name = raw.strip_prefix('#').unwrap_or(raw);
    if is_tag_name(name) {
        Ok(name)
    } else {
        Err(Error::bad_request("A tag is 1 to 50 letters, digits or underscores"))
    }
}

/// A page of the live posts using the tag `name`, newest first, as `viewer` may see them.
pub async fn tag_posts(db: &Db, viewer: i64, name: &str, page: Page, now: Millis) -> Result<Vec<Post>> {
    let name = tag_name(name)?;
    let Some(row) = store::tag(&db.read, &tag_key(name)).await? else {
        return Ok(Vec::new());
    };
    hydrate::list(&db.read, db.backend, viewer, &store::tag_page(row.id, page, now)).await
}

/// Every member's live posts (not replies or reposts), newest first, without those of members
/// hidden from the viewer (`$1`): the Mastodon API's public timeline (`posts_reply_to_idx`
/// walked down from the page's top).
pub fn latest(page: Page, now: Millis) -> Selection {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT p.id, -p.id FROM posts p \
             WHERE p.reply_to_id IS NULL AND p.deleted_at IS NULL AND p.repost_of_id IS NULL \
             AND p.id < $5 AND p.id > $6 AND NOT {} \
             ORDER BY p.id DESC LIMIT $2 OFFSET $3",
            visibility::hidden(Scope::Feeds { now: "$4" }, "$1", "p.author_id")
        )
    });
    Selection::new(SQL.as_str(), vec![page.limit, page.offset, now, page.below, page.above])
}
