-- The images of an earlier version of a post, with their descriptions as they stood then: an
-- edit that corrects a description or leaves an image out keeps the version before it whole.
-- An upload stays while a version shows it (the orphan cleanup asks), and goes with its version.
CREATE TABLE post_edit_images (
    edit_id  BIGINT NOT NULL REFERENCES post_edits (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    media_id TEXT   NOT NULL REFERENCES media (id),
    alt      TEXT,
    PRIMARY KEY (edit_id, position)
);
-- The orphan cleanup and leaving ask whether a version still shows an upload.
CREATE INDEX post_edit_images_media_idx ON post_edit_images (media_id);
