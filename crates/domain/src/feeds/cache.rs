//! The Friends feed's and lists' pages kept ready in each process, and Mastodon apps' home
//! timeline (the Friends page as Mastodon's statuses).
//!
//! Why: building a Friends page (its cards' index lookups and JSON, then the answer's bytes)
//! costs several times the session's statement, which alone costs what `/api/auth/me` does
//! (docs/feeds.md, "Answered pages kept in the process"). Under load, members
//! read the same first page again and again while nothing in it has changed, so each process
//! keeps the answers it made, bounded by their bytes, and answers a page again after the
//! session's statement alone.
//!
//! When a kept page is used: only for the member it was made for, for the same feed, offset and
//! limit, while the member's `FeedMarks` (read in the statement that reads the session or the
//! app's bearer token) are what they were when it was made, and for at most `keep_for` after it
//! was made. So:
//! - what the member does shows on their next read, through any process: every write of theirs
//!   that can change their own page (a post, reply, repost, like, bookmark, vote, follow,
//!   unfollow, deletion, post or profile edit) adds one to `users.feed_version` in its own transaction (`changes`);
//! - a new post or repost of someone they follow shows at once: it raises the newest post in
//!   their home timeline, which is part of the marks (a list holds only people its owner
//!   follows, so this holds for lists too; a change of who is in a list is a write of theirs);
//! - what others do to posts already on the page (likes, replies, reposts, votes, an edit, a
//!   deletion, a new name or avatar) shows within `keep_for` (5 s by default), as counts do on any large
//!   network.
//!
//! Nothing here is shared state: every process checks its pages against the database's marks,
//! so several processes on one PostgreSQL database need no messages between them. The marks
//! are read before the page, so a kept page is never older than its marks.

use std::sync::Arc;

use bytes::Bytes;
use quick_cache::sync::Cache;

use crate::timelines::marks::FeedMarks;
use murmur_core::clock::Millis;
use murmur_core::page::Page;

/// The answers a process keeps; cheap to clone (one cache shared by the clones).
#[derive(Clone)]
pub struct FeedCache {
    /// None when keeping is off (no memory or no time given).
    pages: Option<Arc<Cache<Key, Kept, ByBytes>>>,
    keep_for: Millis,
}

/// Which of a member's feeds a page is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feed {
    Friends,
    /// One of the member's lists, by id.
    List(i64),
    /// The Friends page as Mastodon apps are answered it (`GET /api/v1/timelines/home`).
    MastodonHome,
}

/// `(member, feed, offset, limit)`.
type Key = (i64, Feed, i64, i64);

#[derive(Clone)]
struct Kept {
    marks: FeedMarks,
    made_at: Millis,
    answer: Answer,
}

/// A page's answer: its body and, for answers whose paging names items' ids (Mastodon's `Link`
/// header), the ids of its first and last items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub body: Bytes,
    pub edges: Option<(i64, i64)>,
}

impl Answer {
    /// `value` as a JSON answer. Kept answers are weighed by their length, so it keeps no
    /// spare capacity beside it.
    pub fn json(value: &impl serde::Serialize, edges: Option<(i64, i64)>) -> murmur_core::error::Result<Answer> {
        let mut json = serde_json::to_vec(value).map_err(anyhow::Error::from)?;
        json.shrink_to_fit();
        Ok(Answer { body: Bytes::from(json), edges })
    }
}

/// A kept page weighs its answer's bytes and a little for its key and bookkeeping.
#[derive(Clone)]
struct ByBytes;

impl quick_cache::Weighter<Key, Kept> for ByBytes {
    fn weight(&self, _key: &Key, kept: &Kept) -> u64 {
        kept.answer.body.len() as u64 + 64
    }
}

/// A page's answer as a rough size, to size the cache's table (quick_cache wants an estimate).
const TYPICAL_PAGE: u64 = 16 * 1024;

impl FeedCache {
    /// Keeps up to `bytes` of answers, each for at most `keep_for`; either 0 turns keeping off.
    pub fn new(bytes: u64, keep_for: Millis) -> FeedCache {
        let pages = (bytes > 0 && keep_for > 0).then(|| {
            let items = (bytes / TYPICAL_PAGE).max(16) as usize;
            Arc::new(Cache::with_weighter(items, bytes, ByBytes))
        });
        FeedCache { pages, keep_for }
    }

    /// The answer kept for this member, feed and page, if it was made under these marks less
    /// than `keep_for` before `now`.
    pub fn get(&self, member: i64, feed: Feed, page: Page, marks: FeedMarks, now: Millis) -> Option<Answer> {
        if page.is_windowed() {
            return None;
        }
        let kept = self.pages.as_ref()?.get(&(member, feed, page.offset, page.limit))?;
        (kept.marks == marks && now - kept.made_at < self.keep_for).then_some(kept.answer)
    }

    /// Keeps an answer made under `marks`, reading at `made_at` or later.
    pub fn keep(&self, member: i64, feed: Feed, page: Page, marks: FeedMarks, made_at: Millis, answer: Answer) {
        if let Some(pages) = self.pages.as_ref().filter(|_| !page.is_windowed()) {
            pages.insert((member, feed, page.offset, page.limit), Kept { marks, made_at, answer });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: Page = Page::new(20, 0);
    const MARKS: FeedMarks = FeedMarks { version: 3, newest: Some(40) };

    fn answer(body: &'static [u8]) -> Answer {
        Answer { body: Bytes::from_static(body), edges: None }
    }

    #[test]
    fn a_kept_page_is_answered_under_the_same_marks_within_its_time() {
        let cache = FeedCache::new(1 << 20, 5_000);
        cache.keep(7, Feed::Friends, PAGE, MARKS, 1_000, answer(b"[1]"));
        assert_eq!(cache.get(7, Feed::Friends, PAGE, MARKS, 5_999), Some(answer(b"[1]")));
        assert_eq!(cache.get(7, Feed::Friends, PAGE, MARKS, 6_000), None, "kept for less than keep_for");
        assert_eq!(cache.get(8, Feed::Friends, PAGE, MARKS, 1_000), None, "another member's");
        assert_eq!(cache.get(7, Feed::Friends, Page::new(20, 20), MARKS, 1_000), None, "another page");
        assert_eq!(
            cache.get(7, Feed::Friends, PAGE, FeedMarks { version: 4, ..MARKS }, 1_000),
            None,
            "the member wrote"
        );
        assert_eq!(
            cache.get(7, Feed::Friends, PAGE, FeedMarks { newest: Some(41), ..MARKS }, 1_000),
            None,
            "a new post"
        );
        assert_eq!(
            cache.get(7, Feed::Friends, PAGE, FeedMarks { newest: Some(39), ..MARKS }, 1_000),
            None,
            "a post left"
        );
        assert_eq!(cache.get(7, Feed::List(1), PAGE, MARKS, 1_000), None, "a list's page");
        cache.keep(7, Feed::List(1), PAGE, MARKS, 1_000, answer(b"[2]"));
        assert_eq!(cache.get(7, Feed::List(1), PAGE, MARKS, 1_000), Some(answer(b"[2]")));
        assert_eq!(cache.get(7, Feed::List(2), PAGE, MARKS, 1_000), None, "another list's page");
        assert_eq!(cache.get(7, Feed::Friends, PAGE, MARKS, 1_000), Some(answer(b"[1]")));
        assert_eq!(cache.get(7, Feed::MastodonHome, PAGE, MARKS, 1_000), None, "the apps' home");
        let home = Answer { body: Bytes::from_static(b"[3]"), edges: Some((9, 4)) };
        cache.keep(7, Feed::MastodonHome, PAGE, MARKS, 1_000, home.clone());
        assert_eq!(cache.get(7, Feed::MastodonHome, PAGE, MARKS, 1_000), Some(home));
        for list in [0, -1] {
            assert_eq!(cache.get(7, Feed::List(list), PAGE, MARKS, 1_000), None, "no list is another feed");
        }
        assert_eq!(cache.get(7, Feed::Friends, PAGE, MARKS, 1_000), Some(answer(b"[1]")));
    }

    #[test]
    fn nothing_is_kept_when_keeping_is_off() {
        for cache in [FeedCache::new(0, 5_000), FeedCache::new(1 << 20, 0)] {
            cache.keep(7, Feed::Friends, PAGE, MARKS, 1_000, answer(b"[1]"));
            assert_eq!(cache.get(7, Feed::Friends, PAGE, MARKS, 1_000), None);
        }
    }

    #[test]
    fn the_kept_pages_stay_within_their_bytes() {
        let cache = FeedCache::new(64 * 1024, 5_000);
        let page = Answer { body: Bytes::from(vec![b' '; 16 * 1024]), edges: None };
        for member in 0..100 {
            cache.keep(member, Feed::Friends, PAGE, MARKS, 1_000, page.clone());
        }
        let pages = cache.pages.as_ref().unwrap();
        assert!(pages.weight() <= 64 * 1024, "{} bytes kept", pages.weight());
        assert!(pages.len() < 100 && pages.len() >= 2, "{} pages kept", pages.len());
    }
}
