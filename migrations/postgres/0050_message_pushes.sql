-- A new direct message is pushed to the web sessions that chose the `message` alert
-- (docs/push.md): a push is of a notification or of a message, never both.
ALTER TABLE push_deliveries ALTER COLUMN notification_id DROP NOT NULL;
ALTER TABLE push_deliveries ADD COLUMN message_id BIGINT REFERENCES messages (id) ON DELETE CASCADE;
ALTER TABLE push_deliveries ADD CONSTRAINT push_deliveries_source_check
    CHECK ((notification_id IS NULL) <> (message_id IS NULL));
CREATE INDEX push_deliveries_message_idx ON push_deliveries (message_id) WHERE message_id IS NOT NULL;
-- A browser that had every alert on keeps every alert on, messages included.
UPDATE push_subscriptions SET alerts = 255 WHERE session_hash IS NOT NULL AND alerts = 127;
