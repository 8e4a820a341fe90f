-- "Download my data": a member's archive, prepared in the background (`jobs::export`), kept
-- 7 days in the object store under a key no one can guess (docs/operations.md).

-- One archive per member at a time: a new request replaces a failed or day-old one.
CREATE TABLE data_exports (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- 'pending' until a process built it, then 'ready' (or 'failed')
    status        TEXT    NOT NULL DEFAULT 'pending',
    requested_at  BIGINT  NOT NULL,
    -- the process building it holds it until then; past it another takes it over
    claimed_until BIGINT,
    attempts      BIGINT  NOT NULL DEFAULT 0,
    -- the archive's random id, new for every attempt; its object is `exports/{id}.zip`
    archive_id    TEXT,
    byte_size     BIGINT,
    finished_at   BIGINT,
    -- when upkeep removes the archive and this row
    expires_at    BIGINT,
    CONSTRAINT data_exports_member_key UNIQUE (member_id),
    CONSTRAINT data_exports_status_check CHECK (status IN ('pending', 'ready', 'failed'))
);
CREATE INDEX data_exports_status_idx ON data_exports (status, id);
CREATE INDEX data_exports_expires_idx ON data_exports (expires_at);

-- A member hears that their archive is ready: a notice about no one else, so its actor is
-- the member themselves. SQLite cannot change a CHECK, so the table is made again.
CREATE TABLE notifications_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type         TEXT    NOT NULL,
    post_id      BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    read_at      BIGINT,
    CONSTRAINT notifications_type_check
        CHECK (type IN ('follow', 'like', 'reply', 'repost', 'mention', 'removed', 'export-ready')),
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
