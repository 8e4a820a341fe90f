-- What the leaving job (src/accounts/leaving.rs) looks a deleted member up by, batch after
-- batch: the notifications they caused, their poll votes and their uploads. Without these each
-- batch would read the whole table.
CREATE INDEX notifications_actor_idx ON notifications (actor_id);
CREATE INDEX poll_votes_user_idx ON poll_votes (user_id);
CREATE INDEX media_owner_idx ON media (owner_id);
