-- Mastodon apps' push subscriptions (docs/mastodon-api.md): one per app token, ended with it,
-- beside the web app's one per session. SQLite cannot loosen a NOT NULL, so the table is made
-- again; the pushes queued for it are kept across the swap.
CREATE TABLE push_subscriptions_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- the session or (`token_id`) the app token that made it: exactly one
    session_hash TEXT REFERENCES sessions (id_hash) ON DELETE CASCADE,
    endpoint     TEXT NOT NULL CONSTRAINT push_subscriptions_endpoint_check CHECK (length(endpoint) <= 1024),
    -- base64url of the browser's P-256 public key and auth secret (RFC 8291)
    p256dh       TEXT NOT NULL,
    auth         TEXT NOT NULL,
    -- one bit per alert (`push::Alert`)
    alerts       BIGINT NOT NULL,
    policy       TEXT NOT NULL CONSTRAINT push_subscriptions_policy_check CHECK (policy IN ('all', 'followed')),
    created_at   BIGINT NOT NULL,
    -- last, as PostgreSQL's ALTER TABLE adds it: both backends list the columns alike
    token_id     BIGINT REFERENCES app_tokens (id) ON DELETE CASCADE,
    CONSTRAINT push_subscriptions_session_key UNIQUE (session_hash),
    CONSTRAINT push_subscriptions_token_key UNIQUE (token_id),
    CONSTRAINT push_subscriptions_owner_check CHECK ((session_hash IS NULL) <> (token_id IS NULL))
);
INSERT INTO push_subscriptions_new (id, member_id, session_hash, endpoint, p256dh, auth, alerts, policy, created_at)
    SELECT id, member_id, session_hash, endpoint, p256dh, auth, alerts, policy, created_at FROM push_subscriptions;
CREATE TEMPORARY TABLE push_deliveries_kept AS SELECT * FROM push_deliveries;
DROP TABLE push_subscriptions;
ALTER TABLE push_subscriptions_new RENAME TO push_subscriptions;
CREATE INDEX push_subscriptions_member_idx ON push_subscriptions (member_id);
INSERT INTO push_deliveries (id, notification_id, subscription_id, attempts, due_at, claimed_until, created_at)
    SELECT id, notification_id, subscription_id, attempts, due_at, claimed_until, created_at FROM push_deliveries_kept
    WHERE NOT EXISTS (SELECT 1 FROM push_deliveries d WHERE d.id = push_deliveries_kept.id);
DROP TABLE push_deliveries_kept;
