-- Read replicas (issue 42): each member's position in PostgreSQL's write-ahead log after their
-- last write request (`db::replicas`). SQLite has no replicas; the table keeps both schemas alike.
CREATE TABLE member_positions (
    member_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL
);
