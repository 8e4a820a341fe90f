-- Multiple-choice polls (issue 62): a poll may take several of its options from each voter.
ALTER TABLE posts ADD COLUMN poll_multiple BIGINT NOT NULL DEFAULT 0;

-- A vote is one member's choice of one option: a single-choice poll still takes one per member
-- (the writes check it), a multiple-choice poll several. SQLite changes a primary key by
-- copying the table.
CREATE TABLE poll_votes_new (
    post_id    BIGINT  NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    position   BIGINT  NOT NULL,
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (post_id, user_id, position)
);
INSERT INTO poll_votes_new (post_id, user_id, position, created_at)
    SELECT post_id, user_id, position, created_at FROM poll_votes;
DROP TABLE poll_votes;
ALTER TABLE poll_votes_new RENAME TO poll_votes;
CREATE INDEX poll_votes_user_idx ON poll_votes (user_id);
