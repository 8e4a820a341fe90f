-- A description (alt text) of each image of a post, as its author wrote it; NULL when none.
-- Bounded as the API bounds it, in code points.
ALTER TABLE post_images ADD COLUMN alt TEXT CONSTRAINT post_images_alt_check CHECK (length(alt) <= 1500);
