-- Post search takes every last word as a prefix, and sessions show where they were last used
-- (docs/discovery.md, docs/auth.md).

-- Prefix indexes for a last word of 2 to 10 characters (`discovery::search::PREFIX_INDEXED`),
-- so a prefix reads one ready list, newest first, as a whole word does. FTS5 cannot change its
-- options in place: the table is made again and filled from the posts. The triggers of 0014
-- name it and keep it in step as before.
DROP TABLE post_search;
CREATE VIRTUAL TABLE post_search USING fts5 (
    content, content = '', contentless_delete = 1, prefix = '2 3 4 5 6 7 8 9 10',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO post_search (rowid, content)
    SELECT id, content FROM posts WHERE deleted_at IS NULL AND repost_of_id IS NULL;

-- The network a session was last used from: the client's IPv4 /24 or IPv6 /48
-- ("203.0.113.0/24"), written with `last_seen_at`; NULL when unknown or from before.
ALTER TABLE sessions ADD COLUMN network TEXT CONSTRAINT sessions_network_check CHECK (length(network) <= 64);
