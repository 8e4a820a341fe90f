-- Each home timeline row names its post's author and, for a repost, the original's author, so
-- the Friends page applies the visibility rule (blocks, mutes, suspensions) from the timeline's
-- index alone instead of reading every walked post (src/feeds/timeline.rs, `selection`).
ALTER TABLE home_timeline ADD COLUMN author_id BIGINT, ADD COLUMN original_author_id BIGINT;
UPDATE home_timeline t SET author_id = p.author_id, original_author_id = o.author_id
FROM posts p LEFT JOIN posts o ON o.id = p.repost_of_id
WHERE p.id = t.post_id;
ALTER TABLE home_timeline ALTER COLUMN author_id SET NOT NULL;
-- The page's walk reads the authors from the key's index (an index-only scan).
ALTER TABLE home_timeline DROP CONSTRAINT home_timeline_pkey;
ALTER TABLE home_timeline ADD PRIMARY KEY (member_id, post_id) INCLUDE (author_id, original_author_id);
