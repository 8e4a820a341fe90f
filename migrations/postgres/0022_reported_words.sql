-- A report of a post keeps the post's words as they were when it was reported: its author may
-- edit or delete the post afterwards, and the moderators still see what was reported.
-- Reports from before this keep the words the post holds now (none for a deleted post).
ALTER TABLE reports ADD COLUMN post_text TEXT;
UPDATE reports SET post_text = (SELECT p.content FROM posts p WHERE p.id = reports.post_id AND p.deleted_at IS NULL)
WHERE post_id IS NOT NULL;
