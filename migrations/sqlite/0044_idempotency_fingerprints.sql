-- An Idempotency-Key answers only a retry of the request it first served (the IETF
-- Idempotency-Key draft): the key keeps that request's endpoint and the SHA-256 of its body, and
-- a different request with it is refused (422). A key whose post is gone stays, naming no post
-- (post_id NULL), so a retry is told so (409) instead of making the post again. Keys taken
-- before this migration have no fingerprint and answer as they did until their hour is over.
-- SQLite cannot change a foreign key's action in place, so the table is made again (nothing
-- refers to it).
CREATE TABLE post_keys_new (
    member_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    post_id    BIGINT REFERENCES posts (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    -- last, as PostgreSQL's ALTER TABLE adds them: both backends list the columns alike
    endpoint   TEXT,
    body_hash  TEXT,
    PRIMARY KEY (member_id, key)
) WITHOUT ROWID;
INSERT INTO post_keys_new (member_id, key, post_id, created_at)
    SELECT member_id, key, post_id, created_at FROM post_keys;
DROP TABLE post_keys;
ALTER TABLE post_keys_new RENAME TO post_keys;
-- Upkeep removes the keys past their hour.
CREATE INDEX post_keys_created_idx ON post_keys (created_at);
-- Deleting a post (a repost, for good) finds its key.
CREATE INDEX post_keys_post_idx ON post_keys (post_id);
