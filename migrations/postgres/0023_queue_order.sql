-- The moderators' queue walks the open reports newest first and stops at its page
-- (src/moderation/store.rs, `open_page`).
CREATE INDEX reports_open_newest_idx ON reports (id) WHERE resolved_at IS NULL;
