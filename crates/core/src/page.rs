//! A page of a list: how many items, after how many, and (for lists ordered by id) within
//! which ids: the Mastodon API pages by ids (`max_id`, `since_id`), Murmur's own by offset.

use crate::error::{Error, Result};

/// A validated page request.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    pub limit: i64,
    pub offset: i64,
    /// Only ids below this (exclusive); `i64::MAX`: no bound. Lists not ordered by id ignore it.
    pub below: i64,
    /// Only ids above this (exclusive); 0: no bound.
    pub above: i64,
}

pub const MAX_PAGE: i64 = 50;
pub const MAX_OFFSET: i64 = 100_000;

impl Page {
    /// The page asked for (`limit`, `offset` as sent), or a refusal that says which is out of
    /// bounds.
    pub fn parse(limit: Option<i64>, offset: Option<i64>, default_limit: i64, max_limit: i64) -> Result<Page> {
        let limit = limit.unwrap_or(default_limit);
        if !(1..=max_limit).contains(&limit) {
            return Err(Error::bad_request(format!("limit must be between 1 and {max_limit}")));
        }
        let offset = offset.unwrap_or(0);
        if !(0..=MAX_OFFSET).contains(&offset) {
            return Err(Error::bad_request(format!("offset must be between 0 and {MAX_OFFSET}")));
        }
        Ok(Page::new(limit, offset))
    }

    /// `limit` items after `offset`, whatever their ids.
    pub const fn new(limit: i64, offset: i64) -> Page {
        Page { limit, offset, below: i64::MAX, above: 0 }
    }

    /// The first `limit` items with ids in the window (`None`: no bound on that side).
    pub fn window(limit: i64, below: Option<i64>, above: Option<i64>) -> Page {
        Page { below: below.unwrap_or(i64::MAX), above: above.unwrap_or(0).max(0), ..Page::new(limit, 0) }
    }

    /// Whether the page is bounded by ids (such pages are not kept ready: `feeds::cache`).
    pub fn is_windowed(&self) -> bool {
        self.below != i64::MAX || self.above != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_defaults_and_bounds() {
        let p = Page::parse(None, None, 20, 50).unwrap();
        assert_eq!((p.limit, p.offset), (20, 0));
        assert!(Page::parse(Some(0), None, 20, 50).is_err());
        assert!(Page::parse(Some(51), None, 20, 50).is_err());
        assert!(Page::parse(Some(5), Some(-1), 20, 50).is_err());
    }
}
