-- Mastodon apps' push subscriptions (docs/mastodon-api.md): one per app token, ended with it,
-- beside the web app's one per session.
ALTER TABLE push_subscriptions ALTER COLUMN session_hash DROP NOT NULL;
ALTER TABLE push_subscriptions ADD COLUMN token_id BIGINT REFERENCES app_tokens (id) ON DELETE CASCADE;
ALTER TABLE push_subscriptions ADD CONSTRAINT push_subscriptions_token_key UNIQUE (token_id);
ALTER TABLE push_subscriptions
    ADD CONSTRAINT push_subscriptions_owner_check CHECK ((session_hash IS NULL) <> (token_id IS NULL));
