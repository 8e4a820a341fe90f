-- Passkeys (docs/auth.md): WebAuthn credentials a member signs in with beside magic links, and
-- the ceremonies under way (their state between the two requests, kept here so any process can
-- finish a ceremony another began).

-- A member's passkey: the credential as webauthn-rs keeps it (public key, counter, backup
-- state), updated after each use. `user_handle` is the member's WebAuthn user id (random, the
-- same for all their passkeys), which a discoverable sign-in answers with.
CREATE TABLE passkeys (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- base64url of the credential id
    credential_id TEXT NOT NULL,
    user_handle   TEXT NOT NULL,
    name          TEXT NOT NULL,
    credential    TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT,
    CONSTRAINT passkeys_credential_key UNIQUE (credential_id)
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

-- A registration or sign-in begun and not yet finished: keyed by the SHA-256 of a random id the
-- browser holds, used once, gone after `expires_at` (upkeep).
CREATE TABLE passkey_ceremonies (
    id_hash    TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CONSTRAINT passkey_ceremonies_kind_check CHECK (kind IN ('register', 'login')),
    -- the member adding a passkey (NULL for a sign-in)
    user_id    BIGINT REFERENCES users (id) ON DELETE CASCADE,
    state      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX passkey_ceremonies_expires_idx ON passkey_ceremonies (expires_at);
CREATE INDEX passkey_ceremonies_user_idx ON passkey_ceremonies (user_id);

-- How a session was signed in, for the member's list of sessions.
ALTER TABLE sessions ADD COLUMN signed_in_with TEXT NOT NULL DEFAULT 'link';
