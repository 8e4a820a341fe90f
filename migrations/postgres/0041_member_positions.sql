-- Read replicas (issue 42): each member's position in the write-ahead log after their last write
-- request, so their next reads go to a replica only once it has replayed that far
-- (`db::replicas`). Written only when replicas are configured; read on the primary only.
-- UNLOGGED: kept out of the log (and so off the replicas), no flush per write request; after a
-- crash the table starts empty, and a member's next write records them again.
CREATE UNLOGGED TABLE member_positions (
    member_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    position  BIGINT NOT NULL
);
