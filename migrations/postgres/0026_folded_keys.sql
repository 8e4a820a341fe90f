-- Names and tags are compared by their NFKC case fold (docs/safety.md, "Names and text";
-- docs/discovery.md, "Hashtags"): a display name's and a username's look-alike key is the
-- skeleton of that fold (`safety::text::look_alike_key`), a tag's key is the fold itself
-- (`posts::entities::tag_key`). SQL can compute neither, so this marks what `Db::migrate`
-- computes again in Rust after the migrations, before the server answers.

-- Every member's keys: `safety::text::fill_missing_keys` fills the NULL ones.
UPDATE users SET name_skeleton = NULL, username_skeleton = NULL;

-- The tags whose key is not ASCII (an ASCII key was already its fold), if there are any:
-- `discovery::store::rekey_tags` gives them their new key, merges the tags that now share
-- one, and removes this row.
INSERT INTO jobs (name, next_run_at, cursor)
    SELECT 'tag_keys', 0, 0 WHERE EXISTS (SELECT 1 FROM tags WHERE octet_length(key) <> char_length(key));
