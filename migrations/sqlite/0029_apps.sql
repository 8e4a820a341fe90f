-- Apps that speak the Mastodon client API for members (`apps`): registered by anyone, given a
-- member's consent through OAuth 2 (a single-use code), then holding a bearer token. Secrets,
-- codes and tokens are stored as their SHA-256 only.
CREATE TABLE apps (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id     TEXT NOT NULL UNIQUE,
    secret_hash   TEXT NOT NULL,
    name          TEXT NOT NULL,
    website       TEXT,
    -- One URI per line: where the member's consent may be sent.
    redirect_uris TEXT NOT NULL,
    scopes        TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
-- Apps never used for a token are removed after a day (upkeep).
CREATE INDEX apps_created_idx ON apps (created_at);

-- A member's consent, until the app exchanges it for a token (at most a few minutes, once).
CREATE TABLE app_codes (
    code_hash      TEXT PRIMARY KEY,
    app_id         BIGINT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    member_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri   TEXT NOT NULL,
    scopes         TEXT NOT NULL,
    -- PKCE (S256): the base64url SHA-256 of the verifier the token request must show.
    code_challenge TEXT,
    expires_at     BIGINT NOT NULL
);
CREATE INDEX app_codes_app_idx ON app_codes (app_id);
CREATE INDEX app_codes_member_idx ON app_codes (member_id);
CREATE INDEX app_codes_expires_idx ON app_codes (expires_at);

-- An app's bearer token: a member's (authorization code) or the app's own (client credentials,
-- member_id NULL). It ends when revoked, and with the member's sessions (logging out
-- everywhere, a suspension, leaving).
CREATE TABLE app_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash   TEXT NOT NULL UNIQUE,
    app_id       BIGINT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    member_id    BIGINT REFERENCES users (id) ON DELETE CASCADE,
    scopes       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL
);
CREATE INDEX app_tokens_member_idx ON app_tokens (member_id, app_id);
CREATE INDEX app_tokens_app_idx ON app_tokens (app_id);

-- An image's description as an app set it before posting (Mastodon's media description); the
-- post keeps its own copy (post_images.alt).
ALTER TABLE media ADD COLUMN description TEXT;

-- Where a member stopped reading their home timeline and their notifications, as their apps
-- keep it for each other (Mastodon's markers).
CREATE TABLE markers (
    member_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    timeline     TEXT NOT NULL CHECK (timeline IN ('home', 'notifications')),
    last_read_id BIGINT NOT NULL,
    version      BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (member_id, timeline)
);
