-- Murmur's schema (SQLite). The PostgreSQL twin in ../postgres/0001_init.sql must say the same thing.
-- Times are integer milliseconds since the Unix epoch (UTC) on both backends, so one set of queries
-- reads and writes them the same way. Invariants live here, named, so errors can be mapped.

CREATE TABLE users (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    email             TEXT    NOT NULL,
    username          TEXT    NOT NULL,
    display_name      TEXT    NOT NULL,
    bio               TEXT    NOT NULL DEFAULT '',
    website           TEXT    NOT NULL DEFAULT '',
    profile_image_url TEXT,
    header_image_url  TEXT,
    created_at        BIGINT  NOT NULL,
    follower_count    BIGINT  NOT NULL DEFAULT 0,
    following_count   BIGINT  NOT NULL DEFAULT 0,
    invites_available BIGINT  NOT NULL DEFAULT 3,
    -- year*100+month (UTC) of the last monthly invite top-up
    invites_month     BIGINT  NOT NULL,
    CONSTRAINT users_email_key UNIQUE (email),
    CONSTRAINT users_username_key UNIQUE (username),
    CONSTRAINT users_invites_available_check CHECK (invites_available >= 0),
    CONSTRAINT users_counts_check CHECK (follower_count >= 0 AND following_count >= 0),
    CONSTRAINT users_email_check CHECK (length(email) BETWEEN 3 AND 254 AND email = lower(email)),
    CONSTRAINT users_username_check CHECK (length(username) BETWEEN 3 AND 20),
    CONSTRAINT users_display_name_check CHECK (length(display_name) BETWEEN 1 AND 50),
    CONSTRAINT users_bio_check CHECK (length(bio) <= 160),
    CONSTRAINT users_website_check CHECK (length(website) <= 200)
);

CREATE TABLE sessions (
    -- SHA-256 (hex) of the random session id in the cookie; the id itself is never stored.
    id_hash      TEXT    PRIMARY KEY,
    user_id      BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT  NOT NULL,
    last_seen_at BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE invites (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    code        TEXT    NOT NULL,
    -- NULL for codes an operator made with `murmur invite create`
    owner_id    BIGINT  REFERENCES users (id) ON DELETE CASCADE,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    used_at     BIGINT,
    used_by     BIGINT  REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT invites_code_key UNIQUE (code),
    CONSTRAINT invites_code_check CHECK (length(code) = 12)
);
CREATE INDEX invites_owner_idx ON invites (owner_id, created_at);

CREATE TABLE magic_links (
    -- SHA-256 (hex) of the 256-bit token in the e-mailed link
    token_hash  TEXT    PRIMARY KEY,
    email       TEXT    NOT NULL,
    purpose     TEXT    NOT NULL,
    invite_code TEXT,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    used_at     BIGINT,
    CONSTRAINT magic_links_purpose_check CHECK (purpose IN ('signup', 'login'))
);
CREATE INDEX magic_links_expires_idx ON magic_links (expires_at);

CREATE TABLE waitlist (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    email       TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    invited_at  BIGINT,
    CONSTRAINT waitlist_email_key UNIQUE (email)
);

-- Fixed-window counters shared by every server process (abuse limits).
CREATE TABLE rate_limits (
    key          TEXT    NOT NULL,
    window_start BIGINT  NOT NULL,
    count        BIGINT  NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);

CREATE TABLE media (
    -- random, server-made name; also the object's key in the store
    id           TEXT    PRIMARY KEY,
    owner_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT  NOT NULL,
    -- 'pending' until the bytes arrived and passed the checks, then 'ready'
    status       TEXT    NOT NULL DEFAULT 'pending',
    content_type TEXT,
    byte_size    BIGINT,
    width        BIGINT,
    height       BIGINT,
    attached_at  BIGINT,
    CONSTRAINT media_status_check CHECK (status IN ('pending', 'ready'))
);
CREATE INDEX media_orphans_idx ON media (attached_at, created_at);

CREATE TABLE posts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    author_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content       TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    -- replies keep pointing at a deleted parent (soft delete below)
    reply_to_id   BIGINT  REFERENCES posts (id) ON DELETE SET NULL,
    repost_of_id  BIGINT  REFERENCES posts (id) ON DELETE CASCADE,
    poll_expires_at BIGINT,
    deleted_at    BIGINT,
    reply_count   BIGINT  NOT NULL DEFAULT 0,
    repost_count  BIGINT  NOT NULL DEFAULT 0,
    like_count    BIGINT  NOT NULL DEFAULT 0,
    CONSTRAINT posts_content_check CHECK (length(content) <= 500),
    CONSTRAINT posts_counts_check CHECK (reply_count >= 0 AND repost_count >= 0 AND like_count >= 0),
    CONSTRAINT posts_repost_not_reply_check CHECK (repost_of_id IS NULL OR reply_to_id IS NULL)
);
-- one repost per member and post (NULLs are distinct, so plain posts are not constrained)
CREATE UNIQUE INDEX posts_one_repost_key ON posts (author_id, repost_of_id);
CREATE INDEX posts_author_idx ON posts (author_id, id);
CREATE INDEX posts_reply_to_idx ON posts (reply_to_id, id);
CREATE INDEX posts_created_idx ON posts (created_at);

CREATE TABLE post_images (
    post_id   BIGINT  NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position  BIGINT  NOT NULL,
    media_id  TEXT    NOT NULL REFERENCES media (id),
    PRIMARY KEY (post_id, position),
    CONSTRAINT post_images_position_check CHECK (position BETWEEN 0 AND 3)
);

CREATE TABLE poll_options (
    post_id   BIGINT  NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    position  BIGINT  NOT NULL,
    text      TEXT    NOT NULL,
    PRIMARY KEY (post_id, position),
    CONSTRAINT poll_options_text_key UNIQUE (post_id, text),
    CONSTRAINT poll_options_position_check CHECK (position BETWEEN 0 AND 3),
    CONSTRAINT poll_options_text_check CHECK (length(text) BETWEEN 1 AND 80)
);

CREATE TABLE poll_votes (
    post_id    BIGINT  NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    position   BIGINT  NOT NULL,
    created_at BIGINT  NOT NULL,
    -- one vote per member and poll
    PRIMARY KEY (post_id, user_id)
);

CREATE TABLE likes (
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id    BIGINT  NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    -- one like per member and post
    PRIMARY KEY (user_id, post_id)
);
CREATE INDEX likes_post_idx ON likes (post_id);
CREATE INDEX likes_user_created_idx ON likes (user_id, created_at);

CREATE TABLE follows (
    follower_id  BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    following_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT  NOT NULL,
    PRIMARY KEY (follower_id, following_id),
    CONSTRAINT follows_no_self_check CHECK (follower_id <> following_id)
);
CREATE INDEX follows_following_idx ON follows (following_id, follower_id);

CREATE TABLE notifications (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient_id BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    actor_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type         TEXT    NOT NULL,
    -- 0 for notifications about no post (follows), so the uniqueness below holds for them too
    post_id      BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    read_at      BIGINT,
    CONSTRAINT notifications_type_check CHECK (type IN ('follow', 'like', 'reply', 'repost', 'mention')),
    CONSTRAINT notifications_not_self_check CHECK (recipient_id <> actor_id),
    -- one notification per actor, post and type
    CONSTRAINT notifications_once_key UNIQUE (recipient_id, actor_id, type, post_id)
);
CREATE INDEX notifications_recipient_idx ON notifications (recipient_id, id);
