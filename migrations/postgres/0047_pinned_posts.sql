-- Pinned posts (issue 62): a member pins up to 5 of their own posts to their profile, shown
-- first there. A pin goes with its post when the post is deleted.
CREATE TABLE pinned_posts (
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id    BIGINT  NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (user_id, post_id)
);
CREATE INDEX pinned_posts_post_idx ON pinned_posts (post_id);
