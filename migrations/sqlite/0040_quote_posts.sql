-- Quote posts (issue 44): a post may quote another, shown inside its card. The quoted post's
-- author may detach their post from a quote, and turn off quoting of a post.

-- The post this one quotes (a repost is never quoted: its original is). Posts are deleted
-- softly, so the quote keeps pointing at a deleted one and shows "Post unavailable"; a post
-- removed for good (a leaving member's) leaves the quote without it, as a reply's parent does.
ALTER TABLE posts ADD COLUMN quote_of_id BIGINT REFERENCES posts (id) ON DELETE SET NULL;
-- When the quoted post's author detached their post from this quote ("Removed by the author").
ALTER TABLE posts ADD COLUMN quote_detached_at BIGINT;
-- Whether the author lets others quote this post (1: yes). Existing quotes stay when it is off.
ALTER TABLE posts ADD COLUMN quotes_allowed BIGINT NOT NULL DEFAULT 1;
-- A post's quotes, found when detaching one and when its author leaves.
CREATE INDEX posts_quote_of_idx ON posts (quote_of_id) WHERE quote_of_id IS NOT NULL;

-- The quoted author hears of a quote (`notifications::Kind::Quote`). SQLite cannot change a
-- CHECK, so the table is made again (as 0019 did); the pushes queued for its rows would go with
-- the old table's rows, so they are kept aside and put back.
CREATE TABLE push_deliveries_kept AS SELECT * FROM push_deliveries;
CREATE TABLE notifications_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type         TEXT    NOT NULL,
    post_id      BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    read_at      BIGINT,
    CONSTRAINT notifications_type_check
        CHECK (type IN ('follow', 'like', 'reply', 'repost', 'mention', 'removed', 'export-ready', 'quote')),
    CONSTRAINT notifications_not_self_check CHECK (recipient_id <> actor_id OR type = 'export-ready'),
    CONSTRAINT notifications_once_key UNIQUE (recipient_id, actor_id, type, post_id)
);
INSERT INTO notifications_new (id, recipient_id, actor_id, type, post_id, created_at, read_at)
    SELECT id, recipient_id, actor_id, type, post_id, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, id);
CREATE INDEX notifications_post_idx ON notifications (post_id);
CREATE INDEX notifications_unread_idx ON notifications (recipient_id) WHERE read_at IS NULL;
CREATE INDEX notifications_actor_idx ON notifications (actor_id);
CREATE INDEX notifications_group_idx ON notifications (recipient_id, type, post_id, id);
INSERT INTO push_deliveries SELECT * FROM push_deliveries_kept;
DROP TABLE push_deliveries_kept;
