-- A member's sessions and changing their e-mail address (docs/auth.md).

-- Each session is listed to its member. `public_id` names it in the API: random, so it is
-- neither the cookie's token nor its hash and cannot be used to act as the session. The
-- sessions from before get one here (gen_random_uuid draws from a strong random source).
-- `user_agent` is the browser's, as sent at login (at most 512 bytes); NULL before.
ALTER TABLE sessions
    ADD COLUMN public_id TEXT,
    ADD COLUMN user_agent TEXT CONSTRAINT sessions_user_agent_check CHECK (octet_length(user_agent) <= 512);
UPDATE sessions SET public_id = replace(CAST(gen_random_uuid() AS TEXT), '-', '');
CREATE UNIQUE INDEX sessions_public_id_key ON sessions (public_id);

-- Links that change a member's address (purpose 'email'): `email` is the new address and
-- `user_id` the member; only those links name a member.
ALTER TABLE magic_links ADD COLUMN user_id BIGINT REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE magic_links
    DROP CONSTRAINT magic_links_purpose_check,
    ADD CONSTRAINT magic_links_purpose_check CHECK (purpose IN ('signup', 'login', 'email')),
    ADD CONSTRAINT magic_links_member_check CHECK ((purpose = 'email') = (user_id IS NOT NULL));
CREATE INDEX magic_links_member_idx ON magic_links (user_id) WHERE user_id IS NOT NULL;
