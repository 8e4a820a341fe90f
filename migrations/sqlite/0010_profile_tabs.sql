-- The profile's Replies and Media tabs (src/users/store.rs), each read newest first from an
-- index that holds only the posts the tab lists, so a page costs its own rows.

CREATE INDEX posts_author_replies_idx ON posts (author_id, id) WHERE deleted_at IS NULL AND reply_to_id IS NOT NULL;

-- How many images a post carries (its `post_images` rows, written with the post and removed
-- with it): an index can only select posts by their own columns.
ALTER TABLE posts ADD COLUMN image_count BIGINT NOT NULL DEFAULT 0
    CONSTRAINT posts_image_count_check CHECK (image_count BETWEEN 0 AND 4);
UPDATE posts SET image_count = (SELECT COUNT(*) FROM post_images i WHERE i.post_id = posts.id)
    WHERE id IN (SELECT post_id FROM post_images);
CREATE INDEX posts_author_media_idx ON posts (author_id, id) WHERE deleted_at IS NULL AND image_count > 0;
