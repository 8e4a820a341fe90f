-- Posts by members with many followers reach their followers' home timelines in chunks after
-- the post is written, not in its transaction (src/feeds/timeline.rs, docs/feeds.md): one post
-- by a member followed by thousands held SQLite's only writer for 70-220 ms. A row here is a
-- post still on its way: followers with ids above `after_follower` are yet to be reached.
CREATE TABLE timeline_fanouts (
    post_id        BIGINT PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
    author_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    after_follower BIGINT NOT NULL DEFAULT 0
);
