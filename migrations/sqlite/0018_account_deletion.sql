-- Deleting one's account (docs/safety.md, "Leaving"): the member's row stays as a nameless
-- stand-in for the posts of theirs that others replied to; everything else of theirs goes.

-- When the member deleted their account; NULL for members. Such a row holds no address, name or
-- image of theirs, and is hidden everywhere as a suspended member is (`suspended_until`).
ALTER TABLE users ADD COLUMN deleted_at BIGINT;

-- The clean-up still to do after a deletion (`accounts::leaving`), in bounded batches by a
-- background job; `claimed_until`: a process working on it, until then (others leave it).
CREATE TABLE account_deletions (
    member_id     BIGINT NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    deleted_at    BIGINT NOT NULL,
    claimed_until BIGINT NOT NULL DEFAULT 0
);

-- A deleted member's username, given to nobody until `until`: nobody else turns up under a
-- name people knew for someone else the day after they left.
CREATE TABLE username_holds (
    username TEXT   NOT NULL PRIMARY KEY,
    until    BIGINT NOT NULL
);

-- Links that confirm deleting an account: SQLite cannot change a CHECK, so the table is made
-- again with the new purpose (nothing refers to it).
CREATE TABLE magic_links_new (
    token_hash  TEXT    PRIMARY KEY,
    email       TEXT    NOT NULL,
    purpose     TEXT    NOT NULL,
    invite_code TEXT,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    used_at     BIGINT,
    user_id     BIGINT  REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT magic_links_purpose_check CHECK (purpose IN ('signup', 'login', 'email', 'delete_account')),
    CONSTRAINT magic_links_member_check CHECK ((purpose = 'email') = (user_id IS NOT NULL))
);
INSERT INTO magic_links_new (token_hash, email, purpose, invite_code, created_at, expires_at, used_at, user_id)
    SELECT token_hash, email, purpose, invite_code, created_at, expires_at, used_at, user_id FROM magic_links;
DROP TABLE magic_links;
ALTER TABLE magic_links_new RENAME TO magic_links;
CREATE INDEX magic_links_expires_idx ON magic_links (expires_at);
CREATE INDEX magic_links_member_idx ON magic_links (user_id) WHERE user_id IS NOT NULL;
