-- A member's sessions and changing their e-mail address (docs/auth.md).

-- Each session is listed to its member. `public_id` names it in the API: random, so it is
-- neither the cookie's token nor its hash and cannot be used to act as the session. The
-- sessions from before get one here (SQLite's randomblob is seeded from the OS).
-- `user_agent` is the browser's, as sent at login (at most 512 bytes); NULL before.
ALTER TABLE sessions ADD COLUMN public_id TEXT;
ALTER TABLE sessions ADD COLUMN user_agent TEXT CONSTRAINT sessions_user_agent_check CHECK (length(CAST(user_agent AS BLOB)) <= 512);
UPDATE sessions SET public_id = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX sessions_public_id_key ON sessions (public_id);

-- Links that change a member's address (purpose 'email'): `email` is the new address and
-- `user_id` the member; only those links name a member. SQLite cannot change a CHECK in place,
-- so the table is made again (nothing refers to it).
CREATE TABLE magic_links_new (
    -- SHA-256 (hex) of the 256-bit token in the e-mailed link
    token_hash  TEXT    PRIMARY KEY,
    email       TEXT    NOT NULL,
    purpose     TEXT    NOT NULL,
    invite_code TEXT,
    created_at  BIGINT  NOT NULL,
    expires_at  BIGINT  NOT NULL,
    used_at     BIGINT,
    user_id     BIGINT  REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT magic_links_purpose_check CHECK (purpose IN ('signup', 'login', 'email')),
    CONSTRAINT magic_links_member_check CHECK ((purpose = 'email') = (user_id IS NOT NULL))
);
INSERT INTO magic_links_new (token_hash, email, purpose, invite_code, created_at, expires_at, used_at)
    SELECT token_hash, email, purpose, invite_code, created_at, expires_at, used_at FROM magic_links;
DROP TABLE magic_links;
ALTER TABLE magic_links_new RENAME TO magic_links;
CREATE INDEX magic_links_expires_idx ON magic_links (expires_at);
CREATE INDEX magic_links_member_idx ON magic_links (user_id) WHERE user_id IS NOT NULL;
