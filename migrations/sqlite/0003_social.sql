-- The social core: the For You snapshot and the indexes its reads and deletes need.

-- For You: each member's ranked list of post ids (comma-separated), computed when they open
-- the feed's first page and then read page by page from here, so paging neither repeats nor
-- skips while likes and new posts change the ranking underneath (see docs/feeds.md).
CREATE TABLE for_you_snapshots (
    user_id    BIGINT  PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    post_ids   TEXT    NOT NULL
);

-- The Friends feed: each followed member's newest posts and reposts, read from the index
-- alone (see src/feeds/friends.rs).
CREATE INDEX posts_author_live_idx ON posts (author_id, id) WHERE deleted_at IS NULL AND reply_to_id IS NULL;
-- Reposts of a post (deleting the original removes them); plain posts are not indexed.
CREATE INDEX posts_repost_of_idx ON posts (repost_of_id) WHERE repost_of_id IS NOT NULL;
-- Notifications quoting a post (removed with it).
CREATE INDEX notifications_post_idx ON notifications (post_id);
-- The unread badge.
CREATE INDEX notifications_unread_idx ON notifications (recipient_id) WHERE read_at IS NULL;
-- Suggestions: the most followed members first.
CREATE INDEX users_follower_count_idx ON users (follower_count DESC, id);
