-- Post search takes every last word as a prefix, and sessions show where they were last used
-- (docs/discovery.md, docs/auth.md). PostgreSQL's GIN index answers a prefix of any length
-- (`'lighth':*`): nothing to change for search.

-- The network a session was last used from: the client's IPv4 /24 or IPv6 /48
-- ("203.0.113.0/24"), written with `last_seen_at`; NULL when unknown or from before.
ALTER TABLE sessions ADD COLUMN network TEXT CONSTRAINT sessions_network_check CHECK (length(network) <= 64);
