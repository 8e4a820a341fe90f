-- Following a hashtag (the conversation tools issue): a followed tag's new posts, from anyone the
-- member sees, reach their Friends feed through the post's fan-out (docs/feeds.md, "Followed
-- tags").

-- The tags a member follows (at most `discovery::followed::MAX_FOLLOWED_TAGS`).
CREATE TABLE followed_tags (
    member_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    tag_id     BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, tag_id)
);
-- A tagged post's fan-out finds the tag's followers.
CREATE INDEX followed_tags_tag_idx ON followed_tags (tag_id, member_id);

-- The tag that brought a post into the timeline (the card says "# tag"); NULL: a followed
-- member's post or repost. No foreign key: tags are never deleted, and the mark is only shown.
ALTER TABLE home_timeline ADD COLUMN via_tag_id BIGINT;

-- Tagged posts whose tags' followers are too many for the post's own transaction: the fan-out
-- worker takes them `timelines::CHUNK` members at a time, `after_member` being its cursor.
CREATE TABLE tag_fanouts (
    post_id      BIGINT PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
    author_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    after_member BIGINT NOT NULL DEFAULT 0
);
