-- A member's own controls: editing a post in its first hour, and private bookmarks.

-- When the post's text was last edited; NULL while it never was.
ALTER TABLE posts ADD COLUMN edited_at BIGINT;

-- The earlier versions of an edited post's text, one row per edit: the text as it stood from
-- `written_at` (the post's creation or the edit before) until `replaced_at`. They go with the
-- post's text when its author deletes it.
CREATE TABLE post_edits (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    post_id     BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    content     TEXT   NOT NULL,
    written_at  BIGINT NOT NULL,
    replaced_at BIGINT NOT NULL
);
-- A post's history, newest first.
CREATE INDEX post_edits_post_idx ON post_edits (post_id, id);

-- A member's bookmarks, seen by nobody else. The primary key is the card's probe ("is this
-- post bookmarked?"); the second index is the member's list, newest first.
CREATE TABLE bookmarks (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id    BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, post_id)
) WITHOUT ROWID;
CREATE INDEX bookmarks_user_created_idx ON bookmarks (user_id, created_at, post_id);
-- Deleting a post finds its bookmarks.
CREATE INDEX bookmarks_post_idx ON bookmarks (post_id);
