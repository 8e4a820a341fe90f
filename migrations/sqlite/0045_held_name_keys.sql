-- A held username's look-alike key (`text::look_alike_key`, as `users.username_skeleton`): a
-- name that looks like a held one is refused as it is for a member's current name. NULL until
-- computed: SQL cannot compute a skeleton, so `Db::migrate` fills the holds from before this.
ALTER TABLE username_holds ADD COLUMN skeleton TEXT;
CREATE INDEX username_holds_skeleton_idx ON username_holds (skeleton);

-- Whether the authorization request named its redirect URI (0: the app's only one was taken):
-- the token request must name it again when it did (RFC 6749 §4.1.3).
ALTER TABLE app_codes ADD COLUMN redirect_uri_named BIGINT NOT NULL DEFAULT 1;
