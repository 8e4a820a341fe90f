-- Safety: blocks and mutes between members, reports, moderators and what they did, and who
-- invited whom (docs/safety.md).

-- A block hides each of the two members from the other and stops every interaction between
-- them; lists test it both ways by the primary key (`safety::visibility`).
CREATE TABLE blocks (
    blocker_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id),
    CONSTRAINT blocks_no_self_check CHECK (blocker_id <> blocked_id)
);
-- Who blocked a member (For You leaves out their posts too).
CREATE INDEX blocks_blocked_idx ON blocks (blocked_id, blocker_id);

-- A mute hides the muted member's posts and notifications from the muter alone, until
-- `expires_at` (NULL: until unmuted).
CREATE TABLE mutes (
    muter_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    muted_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (muter_id, muted_id),
    CONSTRAINT mutes_no_self_check CHECK (muter_id <> muted_id)
);

-- A report names a member, and the post when it is about one (`member_id` is then the post's
-- author), so the queue groups by either and a member's history is one index.
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    member_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id     BIGINT REFERENCES posts (id) ON DELETE CASCADE,
    reason      TEXT   NOT NULL,
    comment     TEXT   NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL,
    resolved_at BIGINT,
    CONSTRAINT reports_reason_check CHECK (reason IN ('spam', 'harassment', 'impersonation', 'other')),
    CONSTRAINT reports_comment_check CHECK (length(comment) <= 1000),
    CONSTRAINT reports_not_self_check CHECK (reporter_id <> member_id)
);
CREATE INDEX reports_open_idx ON reports (member_id, post_id) WHERE resolved_at IS NULL;
CREATE INDEX reports_reporter_idx ON reports (reporter_id, created_at);
CREATE INDEX reports_member_idx ON reports (member_id, id);
CREATE INDEX reports_post_idx ON reports (post_id) WHERE post_id IS NOT NULL;

-- Every moderator action, in the transaction of the action; readable by every member, and the
-- newest id is part of every member's feed marks (a removal or suspension drops kept pages).
CREATE TABLE moderation_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at   BIGINT NOT NULL,
    moderator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    action       TEXT   NOT NULL,
    member_id    BIGINT REFERENCES users (id) ON DELETE SET NULL,
    post_id      BIGINT REFERENCES posts (id) ON DELETE SET NULL,
    report_id    BIGINT REFERENCES reports (id) ON DELETE SET NULL,
    reason       TEXT   NOT NULL,
    until        BIGINT,
    CONSTRAINT moderation_log_action_check CHECK (action IN
        ('dismiss', 'remove_post', 'suspend', 'unsuspend', 'take_invites', 'give_invites')),
    CONSTRAINT moderation_log_reason_check CHECK (length(reason) BETWEEN 1 AND 1000)
);
CREATE INDEX moderation_log_member_idx ON moderation_log (member_id, id);
CREATE INDEX moderation_log_post_idx ON moderation_log (post_id) WHERE post_id IS NOT NULL;

-- Roles, suspensions (`suspended_until`: NULL not suspended; the largest BIGINT: until lifted),
-- invites taken away, and who invited the member (NULL: the instance).
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member'
    CONSTRAINT users_role_check CHECK (role IN ('member', 'moderator', 'admin'));
ALTER TABLE users ADD COLUMN suspended_until BIGINT;
ALTER TABLE users ADD COLUMN invites_taken BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN invited_by BIGINT REFERENCES users (id) ON DELETE SET NULL;
UPDATE users SET invited_by = (SELECT i.owner_id FROM invites i WHERE i.used_by = users.id ORDER BY i.used_at LIMIT 1)
    WHERE id IN (SELECT used_by FROM invites WHERE used_by IS NOT NULL AND owner_id IS NOT NULL);
CREATE INDEX users_invited_by_idx ON users (invited_by) WHERE invited_by IS NOT NULL;
CREATE INDEX users_suspended_idx ON users (id) WHERE suspended_until IS NOT NULL;
-- The first member is the instance's admin.
UPDATE users SET role = 'admin' WHERE id = (SELECT MIN(id) FROM users);

-- A post removed by moderators is deleted for everyone (`deleted_at`) but its author, who
-- sees it marked removed.
ALTER TABLE posts ADD COLUMN removed_at BIGINT;

-- Members hear of moderators' actions on their posts: SQLite cannot change a CHECK, so the
-- table is made again with the new kind.
CREATE TABLE notifications_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type         TEXT    NOT NULL,
    post_id      BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    read_at      BIGINT,
    CONSTRAINT notifications_type_check CHECK (type IN ('follow', 'like', 'reply', 'repost', 'mention', 'removed')),
    CONSTRAINT notifications_not_self_check CHECK (recipient_id <> actor_id),
    CONSTRAINT notifications_once_key UNIQUE (recipient_id, actor_id, type, post_id)
);
INSERT INTO notifications_new (id, recipient_id, actor_id, type, post_id, created_at, read_at)
    SELECT id, recipient_id, actor_id, type, post_id, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, id);
CREATE INDEX notifications_post_idx ON notifications (post_id);
CREATE INDEX notifications_unread_idx ON notifications (recipient_id) WHERE read_at IS NULL;
