-- Content warnings (the conversation tools issue): a post may carry a short warning that its
-- card shows in place of the post until the reader opens it.

-- The warning, as parsed (`posts::domain::ContentWarning`); NULL: none.
ALTER TABLE posts ADD COLUMN spoiler_text TEXT
    CONSTRAINT posts_spoiler_text_check CHECK (length(spoiler_text) BETWEEN 1 AND 100);
-- The warning a version of an edited post carried, beside its text.
ALTER TABLE post_edits ADD COLUMN spoiler_text TEXT;
-- The member's setting "Always expand posts with content warnings" (1: on).
ALTER TABLE users ADD COLUMN expand_warnings BIGINT NOT NULL DEFAULT 0;
