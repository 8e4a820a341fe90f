-- The Friends feed's pages are kept ready in each process (src/feeds/cache.rs, docs/feeds.md).
-- A kept page is used only while its member's `feed_version` and newest home-timeline row are
-- what they were when it was made: every change a member makes that shows in their own feed
-- (a post, reply, repost, like, vote, follow, deletion or profile edit) adds one here in the
-- same transaction, so the member sees it on the next read from any process.
ALTER TABLE users ADD COLUMN feed_version BIGINT NOT NULL DEFAULT 0;
