-- What each member's display name and username look like (`safety::text::look_alike_key`: the
-- confusable skeleton of UTS #39 with case folded), so that a display name looking like another
-- member's is found by an index (docs/safety.md, "Names and text").
--
-- NULL until computed: SQL cannot compute a skeleton, so `Db::migrate` fills the rows that have
-- none in Rust after the migrations (`safety::text::fill_missing_keys`), and every writer of a
-- member's name stores its key with it.
ALTER TABLE users ADD COLUMN name_skeleton TEXT;
ALTER TABLE users ADD COLUMN username_skeleton TEXT;
CREATE INDEX users_name_skeleton_idx ON users (name_skeleton);
CREATE INDEX users_username_skeleton_idx ON users (username_skeleton);
