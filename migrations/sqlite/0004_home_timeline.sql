-- The Friends feed kept ready (fan-out on write): each member's home timeline holds the ids of
-- their own and their followed members' posts and reposts (never replies), written when a post
-- is made, a member followed or unfollowed (src/feeds/timeline.rs, docs/feeds.md).
--
-- Invariant: a member's timeline holds every post of their Friends feed whose id is at least
-- users.home_floor. Older pages (and rows left below the floor) are read from posts and follows
-- directly. Upkeep trims each timeline back to its newest few hundred rows and raises the floor.
CREATE TABLE home_timeline (
    member_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id   BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    PRIMARY KEY (member_id, post_id)
) WITHOUT ROWID;
-- Deleting a post (or a repost) removes it from every timeline.
CREATE INDEX home_timeline_post_idx ON home_timeline (post_id);

ALTER TABLE users ADD COLUMN home_floor BIGINT NOT NULL DEFAULT 0;
-- Existing members start with an empty timeline that is complete from the next post on; their
-- older pages come from the fan-in read until new posts fill the first pages.
UPDATE users SET home_floor = (SELECT COALESCE(MAX(id), 0) + 1 FROM posts);
