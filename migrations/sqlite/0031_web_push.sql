-- Web Push (docs/push.md): the instance's VAPID key pair, members' browser subscriptions and
-- the pushes waiting to be sent.

-- The instance's VAPID key pair (RFC 8292), made once by the first process that needs it, so
-- every process signs with the same key (unless the operator gives one).
CREATE TABLE push_keys (
    id          INTEGER PRIMARY KEY CONSTRAINT push_keys_one_check CHECK (id = 1),
    -- base64url of the P-256 private scalar and of the uncompressed public point
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- A browser's push subscription, one per session: it ends with the session that made it.
CREATE TABLE push_subscriptions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_hash TEXT NOT NULL REFERENCES sessions (id_hash) ON DELETE CASCADE,
    endpoint     TEXT NOT NULL CONSTRAINT push_subscriptions_endpoint_check CHECK (length(endpoint) <= 1024),
    -- base64url of the browser's P-256 public key and auth secret (RFC 8291)
    p256dh       TEXT NOT NULL,
    auth         TEXT NOT NULL,
    -- one bit per alert (`push::Alert`)
    alerts       BIGINT NOT NULL,
    policy       TEXT NOT NULL CONSTRAINT push_subscriptions_policy_check CHECK (policy IN ('all', 'followed')),
    created_at   BIGINT NOT NULL,
    CONSTRAINT push_subscriptions_session_key UNIQUE (session_hash)
);
CREATE INDEX push_subscriptions_member_idx ON push_subscriptions (member_id);

-- A push to send: queued in the transaction that made its notification, gone with it (an
-- unlike before it was sent sends nothing), claimed by one process at a time (`claimed_until`).
CREATE TABLE push_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    notification_id BIGINT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    subscription_id BIGINT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    attempts        BIGINT NOT NULL DEFAULT 0,
    due_at          BIGINT NOT NULL,
    claimed_until   BIGINT,
    created_at      BIGINT NOT NULL
);
CREATE INDEX push_deliveries_due_idx ON push_deliveries (due_at);
CREATE INDEX push_deliveries_notification_idx ON push_deliveries (notification_id);
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);
