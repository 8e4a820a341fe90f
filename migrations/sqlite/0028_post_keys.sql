-- A client's Idempotency-Key on POST /api/posts (`posts::store::take_key`): a retry with the key of a post
-- the member made within the hour answers that post instead of making a second one. The row is
-- taken first in the post's transaction (post_id still NULL) and names the post once it exists.
CREATE TABLE post_keys (
    member_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    post_id    BIGINT REFERENCES posts (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, key)
) WITHOUT ROWID;
-- Upkeep removes the keys past their hour.
CREATE INDEX post_keys_created_idx ON post_keys (created_at);
-- Deleting a post (a repost, for good) finds its key.
CREATE INDEX post_keys_post_idx ON post_keys (post_id);
