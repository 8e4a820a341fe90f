-- The app a post was written from through the Mastodon client API (its `application`, shown in
-- both interfaces and to moderators); NULL for posts written in Murmur's own web app. An app
-- that is removed leaves its posts without a name.
ALTER TABLE posts ADD COLUMN app_id BIGINT REFERENCES apps (id) ON DELETE SET NULL;
-- Removing an app finds its posts.
CREATE INDEX posts_app_idx ON posts (app_id) WHERE app_id IS NOT NULL;
