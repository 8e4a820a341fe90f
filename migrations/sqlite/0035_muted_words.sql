-- Muted words (the conversation tools issue, docs/feeds.md "Muted words"): a member hides posts
-- holding a word, phrase or hashtag from their feeds, notifications, search and tag pages, for
-- a time or until they remove it.

-- A muted word: the text as the member typed it, and its words as `text::word_key` makes them
-- (" new york "), which a post's `muting_text` is matched against whole (`LIKE '% new york %'`).
-- `expires_at` NULL: until removed.
CREATE TABLE muted_words (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    text       TEXT NOT NULL CONSTRAINT muted_words_text_check CHECK (length(text) BETWEEN 1 AND 100),
    word_key   TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT,
    CONSTRAINT muted_words_member_key UNIQUE (member_id, word_key)
);

-- A post's words as muted words meet them: `text::word_key` of its text and content warning
-- (written with the post and with each edit). NULL for posts from before this migration until
-- `fills::fill_muting_texts` reaches them; reposts have none (their original's is read).
ALTER TABLE posts ADD COLUMN muting_text TEXT;
-- The posts written before it get theirs in the background (the discovery job), walked down
-- from the newest as the entities backfill of 0014 was.
INSERT INTO jobs (name, next_run_at, cursor) SELECT 'muting_texts', 0, MAX(id) FROM posts HAVING COUNT(*) > 0;
