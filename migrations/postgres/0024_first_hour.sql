-- The newcomer's first hour (issue 43): the first-run step, changing one's username, and the
-- Followers and Following lists.

-- Whether the member went through (or skipped) the first-run step; every member from before it
-- has, and sign-up writes 0 for a new one.
ALTER TABLE users ADD COLUMN first_run_done BIGINT NOT NULL DEFAULT 1;
-- When the member last changed their username (NULL: never): at most once in 30 days.
ALTER TABLE users ADD COLUMN username_changed_at BIGINT;

-- A name held after its member changed it: links to the old name find them until `until`, and
-- nobody else takes it. NULL for a deleted member's name (and when a renamed member leaves).
ALTER TABLE username_holds ADD COLUMN user_id BIGINT REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX username_holds_user_idx ON username_holds (user_id) WHERE user_id IS NOT NULL;

-- The Followers and Following lists: newest follow first, walked from the top of the member's
-- follows and stopped at the page.
CREATE INDEX follows_following_newest_idx ON follows (following_id, created_at, follower_id);
CREATE INDEX follows_follower_newest_idx ON follows (follower_id, created_at, following_id);

-- A mention names its member by id (`userId`), so it follows them when they change their username.
-- The posts written before this: each stored mention gets the id of the member its name belongs
-- to now (the posts still waiting for the entities backfill get theirs when it reaches them).
UPDATE posts SET entities = (
    SELECT CAST(json_agg(
        CASE WHEN e.value ->> 'type' = 'mention'
             THEN CAST(e.value AS jsonb) || jsonb_build_object('userId', (SELECT u.id FROM users u WHERE u.username = e.value ->> 'value'))
             ELSE CAST(e.value AS jsonb) END
        ORDER BY e.position) AS TEXT)
    FROM json_array_elements(CAST(posts.entities AS json)) WITH ORDINALITY AS e (value, position)
)
WHERE entities LIKE '%"mention"%';
