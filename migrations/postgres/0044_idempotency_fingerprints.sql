-- An Idempotency-Key answers only a retry of the request it first served (the IETF
-- Idempotency-Key draft): the key keeps that request's endpoint and the SHA-256 of its body, and
-- a different request with it is refused (422). A key whose post is gone stays, naming no post
-- (post_id NULL), so a retry is told so (409) instead of making the post again. Keys taken
-- before this migration have no fingerprint and answer as they did until their hour is over.
ALTER TABLE post_keys DROP CONSTRAINT post_keys_post_id_fkey;
ALTER TABLE post_keys
    ADD CONSTRAINT post_keys_post_id_fkey FOREIGN KEY (post_id) REFERENCES posts (id) ON DELETE SET NULL;
ALTER TABLE post_keys ADD COLUMN endpoint TEXT;
ALTER TABLE post_keys ADD COLUMN body_hash TEXT;
