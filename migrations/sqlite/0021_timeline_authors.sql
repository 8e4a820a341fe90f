-- Each home timeline row names its post's author and, for a repost, the original's author, so
-- the Friends page applies the visibility rule (blocks, mutes, suspensions) from the timeline
-- alone instead of reading every walked post (src/feeds/timeline.rs, `selection`). The table
-- is its key's b-tree (WITHOUT ROWID), so the authors are read with the key.
ALTER TABLE home_timeline ADD COLUMN author_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE home_timeline ADD COLUMN original_author_id BIGINT;
UPDATE home_timeline SET
    author_id = (SELECT p.author_id FROM posts p WHERE p.id = home_timeline.post_id),
    original_author_id = (SELECT o.author_id FROM posts p JOIN posts o ON o.id = p.repost_of_id
                          WHERE p.id = home_timeline.post_id);
