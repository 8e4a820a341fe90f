//! Feeds: Friends (who you follow, newest first) and For You (the network, ranked).
//! The design, and how it scales, is in docs/feeds.md and in `friends` and `for_you`. Every
//! write that changes how a member's own Friends page looks follows `timelines::changes`.

pub mod cache;
pub mod for_you;
pub mod friends;

pub use crate::timelines::FeedMarks;

use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::Result;
use murmur_core::page::Page;

use crate::posts::Post;

/// A feed page's size when the request names none.
pub const PAGE_SIZE: i64 = 20;

/// A page of `viewer`'s Friends feed as the API answers it.
pub async fn friends_page(db: &Db, viewer: i64, page: Page, now: Millis) -> Result<Vec<Post>> {
    friends::read_page(&db.read, db.backend, viewer, page, now).await
}
