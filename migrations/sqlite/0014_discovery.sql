-- Discovery: what a post's text holds, hashtags, Trending and post search (docs/discovery.md).

-- The post's mentions, hashtags and links as the API answers them (`posts::entities`), parsed
-- once when it is written; NULL for none.
ALTER TABLE posts ADD COLUMN entities TEXT;

-- A hashtag: `key` is its lower-case name (tags are the same whatever the case), `name` as it
-- was first written.
CREATE TABLE tags (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    CONSTRAINT tags_key_key UNIQUE (key)
);

-- The live posts (not reposts) that use a tag; a deleted or removed post's rows go with it.
-- The primary key is the tag page, newest first.
CREATE TABLE post_tags (
    tag_id     BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    post_id    BIGINT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    author_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (tag_id, post_id)
) WITHOUT ROWID;
-- A tag's counts for the week, and Trending's days of uses, read from the index alone.
CREATE INDEX post_tags_tag_time_idx ON post_tags (tag_id, created_at, author_id);
CREATE INDEX post_tags_time_idx ON post_tags (created_at, tag_id, author_id);
-- Deleting a post finds its tags.
CREATE INDEX post_tags_post_idx ON post_tags (post_id);

-- Trending as last computed (`discovery::trending`), rank 1 first.
CREATE TABLE trending_tags (
    rank         BIGINT NOT NULL PRIMARY KEY,
    tag_id       BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    people_count BIGINT NOT NULL,
    post_count   BIGINT NOT NULL,
    computed_at  BIGINT NOT NULL
);

-- Background jobs that one process at a time runs: the process that moves `next_run_at` on
-- runs it (`jobs::claim`); `cursor` is where a job that walks a table stands.
CREATE TABLE jobs (
    name        TEXT   NOT NULL PRIMARY KEY,
    next_run_at BIGINT NOT NULL,
    cursor      BIGINT NOT NULL DEFAULT 0
);
-- The posts written before this migration have no entities yet: the backfill walks them down
-- from the newest.
INSERT INTO jobs (name, next_run_at, cursor) SELECT 'entities', 0, MAX(id) FROM posts HAVING COUNT(*) > 0;

-- Post search: the text of live posts (not reposts), words folded to lower case without
-- diacritics, with prefix indexes for a last word of 2 to 4 characters
-- (`discovery::search::PREFIX_CHARS`). Contentless: the text stays in `posts` alone; triggers
-- keep it in step.
CREATE VIRTUAL TABLE post_search USING fts5 (
    content, content = '', contentless_delete = 1, prefix = '2 3 4',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO post_search (rowid, content)
    SELECT id, content FROM posts WHERE deleted_at IS NULL AND repost_of_id IS NULL;
CREATE TRIGGER post_search_insert AFTER INSERT ON posts
    WHEN new.deleted_at IS NULL AND new.repost_of_id IS NULL
BEGIN
    INSERT INTO post_search (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER post_search_update AFTER UPDATE OF content, deleted_at ON posts
BEGIN
    DELETE FROM post_search WHERE rowid = old.id;
    INSERT INTO post_search (rowid, content)
        SELECT new.id, new.content WHERE new.deleted_at IS NULL AND new.repost_of_id IS NULL;
END;
CREATE TRIGGER post_search_delete AFTER DELETE ON posts
BEGIN
    DELETE FROM post_search WHERE rowid = old.id;
END;
