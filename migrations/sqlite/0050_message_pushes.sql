-- A new direct message is pushed to the web sessions that chose the `message` alert
-- (docs/push.md): a push is of a notification or of a message, never both. SQLite cannot drop a
-- NOT NULL, so the table is made again (nothing references it).
CREATE TABLE push_deliveries_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    notification_id BIGINT REFERENCES notifications (id) ON DELETE CASCADE,
    subscription_id BIGINT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    attempts        BIGINT NOT NULL DEFAULT 0,
    due_at          BIGINT NOT NULL,
    claimed_until   BIGINT,
    created_at      BIGINT NOT NULL,
    message_id      BIGINT REFERENCES messages (id) ON DELETE CASCADE,
    CONSTRAINT push_deliveries_source_check CHECK ((notification_id IS NULL) <> (message_id IS NULL))
);
INSERT INTO push_deliveries_new (id, notification_id, subscription_id, attempts, due_at, claimed_until, created_at)
    SELECT id, notification_id, subscription_id, attempts, due_at, claimed_until, created_at FROM push_deliveries;
DROP TABLE push_deliveries;
ALTER TABLE push_deliveries_new RENAME TO push_deliveries;
CREATE INDEX push_deliveries_due_idx ON push_deliveries (due_at);
CREATE INDEX push_deliveries_notification_idx ON push_deliveries (notification_id);
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);
CREATE INDEX push_deliveries_message_idx ON push_deliveries (message_id) WHERE message_id IS NOT NULL;
-- A browser that had every alert on keeps every alert on, messages included.
UPDATE push_subscriptions SET alerts = 255 WHERE session_hash IS NOT NULL AND alerts = 127;
