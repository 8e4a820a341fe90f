//! The posts of a member's profile tabs (Posts, Replies, Media and Likes) and of their own
//! Bookmarks.

use std::sync::LazyLock;

use murmur_core::page::Page;

use crate::posts::hydrate::Selection;
use crate::visibility::{self, Scope};

/// A member's live posts and reposts without their replies, newest first (the partial index
/// `posts_author_live_idx`), without reposts of members hidden from the viewer (`$1`). The
/// route answers nothing at all when the member is hidden from the viewer.
pub fn posts_of(author: i64, page: Page) -> Selection {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT p.id, -p.id FROM posts p \
             WHERE p.author_id = $2 AND p.deleted_at IS NULL AND p.reply_to_id IS NULL \
             AND p.id < $5 AND p.id > $6 AND NOT {} \
             ORDER BY p.id DESC LIMIT $3 OFFSET $4",
            visibility::original_hidden(Scope::Anywhere, "$1", "p")
        )
    });
    Selection::new(SQL.as_str(), vec![author, page.limit, page.offset, page.below, page.above])
}

/// A member's live replies, newest first (the partial index `posts_author_replies_idx`).
pub fn replies_of(author: i64, page: Page) -> Selection {
    const SQL: &str = "SELECT p.id, -p.id FROM posts p \
         WHERE p.author_id = $2 AND p.deleted_at IS NULL AND p.reply_to_id IS NOT NULL \
         AND p.id < $5 AND p.id > $6 ORDER BY p.id DESC LIMIT $3 OFFSET $4";
    Selection::new(SQL, vec![author, page.limit, page.offset, page.below, page.above])
}

/// A member's own live posts and replies with images, newest first; reposts are left out
/// (their images are the original author's).
pub fn media_of(author: i64, page: Page) -> Selection {
    // `image_count` exists for this: the partial index `posts_author_media_idx` holds only
    // posts with images, so a page costs its own rows however few of a member's posts have any.
    const SQL: &str = "SELECT p.id, -p.id FROM posts p \
         WHERE p.author_id = $2 AND p.deleted_at IS NULL AND p.image_count > 0 \
         AND p.id < $5 AND p.id > $6 ORDER BY p.id DESC LIMIT $3 OFFSET $4";
    Selection::new(SQL, vec![author, page.limit, page.offset, page.below, page.above])
}

/// The live posts a member liked that the viewer (`$1`) may see, newest like first (index
/// `likes_user_created_idx`).
pub fn liked_by(member: i64, page: Page) -> Selection {
    static SQL: LazyLock<String> = LazyLock::new(|| marked_by("likes"));
    Selection::new(SQL.as_str(), vec![member, page.limit, page.offset])
}

/// The live posts a member pinned to their profile that the viewer (`$1`) may see, newest pin
/// first (at most `MAX_PINS`).
pub fn pinned_of(member: i64) -> Selection {
    static SQL: LazyLock<String> = LazyLock::new(|| marked_by("pinned_posts"));
    Selection::new(SQL.as_str(), vec![member, crate::posts::domain::MAX_PINS, 0])
}

/// The viewer's own bookmarks of live posts they may see, newest bookmark first (index
/// `bookmarks_user_created_idx`).
pub fn bookmarks(viewer: i64, page: Page) -> Selection {
    static SQL: LazyLock<String> = LazyLock::new(|| marked_by("bookmarks"));
    Selection::new(SQL.as_str(), vec![viewer, page.limit, page.offset])
}

/// The live posts the member `$2` marked in `table` (a like, a bookmark) that the viewer (`$1`)
/// may see, newest mark first; `$3` and `$4` are the page's limit and offset.
fn marked_by(table: &str) -> String {
    // Numbered after the page is cut, so the window sorts a page, not every mark.
    format!(
        "SELECT post_id, ROW_NUMBER() OVER (ORDER BY created_at DESC, post_id DESC) FROM ( \
             SELECT m.post_id, m.created_at FROM {table} m JOIN posts p ON p.id = m.post_id \
             WHERE m.user_id = $2 AND p.deleted_at IS NULL AND NOT {} \
             ORDER BY m.created_at DESC, m.post_id DESC LIMIT $3 OFFSET $4 \
         ) marked",
        visibility::post_hidden(Scope::Anywhere, "$1", "p")
    )
}
