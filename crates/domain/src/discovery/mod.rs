//! Discovery: hashtags and their pages, Trending, and post search (docs/discovery.md). The
//! entities a post's text holds are parsed by `posts::entities` when it is written; this area
//! keeps the tags (`store::tag_post`, called by every writer of a post's text) and reads them.

pub mod search;
pub mod store;
pub mod trending;
